//! ONNX Runtime, run through `scripts/onnxruntime-reference.py` on a net `export --format
//! onnx` wrote: `export` checks the file's outputs against ours with it, and `bench nn`
//! measures its forward pass beside ours in the same run. Like PyTorch's script
//! ([`super::bench_peer`]), it runs only when python3 has the package
//! (`pip install onnxruntime`), with a deadline.

use std::path::Path;
use std::time::Duration;

use ndarray::{Array2, Array4};
use ndarray_npy::NpzWriter;
use xiangqi_zero::nn::Net;

use super::bench_peer::{reference_script, script_output};

/// What to ask ONNX Runtime for.
pub struct OrtJob<'a> {
    /// The ONNX file.
    pub model: &'a Path,
    /// The `.npz` file of positions (and our outputs for them) that [`write_inputs`] wrote.
    pub inputs: &'a Path,
    /// Intra-op threads.
    pub threads: usize,
    /// Timed runs of each figure (the median is reported).
    pub runs: u32,
    /// Batch sizes of the forward figures (none: only the check).
    pub forward_batches: &'a [usize],
    /// Whether to compare its outputs with ours.
    pub check: bool,
    /// The model's precision: the export as it is (`fp32`), or quantized by ONNX
    /// Runtime's static quantization (`int8`).
    pub int8: bool,
}

/// ONNX Runtime's figures.
pub struct Ort {
    /// Its version.
    pub version: String,
    /// Forward positions/s at each batch size asked for.
    pub forward: Vec<(usize, f64)>,
    /// With a check: the largest difference from our policy logits and from our value logits.
    pub differences: Option<(f64, f64)>,
}

/// Environment variable naming a program run in place of `python3
/// scripts/onnxruntime-reference.py`, with the same arguments and the same output.
pub const ORT_REFERENCE_VAR: &str = "XZ_ORT_REFERENCE";

/// Writes `positions` (`batch` encoded positions) to `path` as the script's inputs, with
/// `net`'s outputs for them (burn's forward pass: the graph the ONNX file mirrors).
pub fn write_inputs(path: &Path, net: &Net, positions: &[f32], batch: usize) -> anyhow::Result<()> {
    let c = net.config;
    let (policy, value) = net.infer(positions.to_vec(), batch);
    let mut npz = NpzWriter::new(std::fs::File::create(path)?);
    npz.add_array("planes", &Array4::from_shape_vec((batch, c.planes, c.height, c.width), positions.to_vec())?)?;
    npz.add_array("policy", &Array2::from_shape_vec((batch, c.policy_size), policy)?)?;
    npz.add_array("value", &Array2::from_shape_vec((batch, 3), value)?)?;
    npz.finish()?;
    Ok(())
}

/// ONNX Runtime's figures for `job`, measured now, or why there are none: no python3 with
/// onnxruntime, or a script that failed, timed out or printed something else.
pub fn onnxruntime(job: &OrtJob) -> Result<Ort, String> {
    let mut command = reference_script(ORT_REFERENCE_VAR, "onnxruntime", "onnxruntime-reference.py")?;
    let batches: Vec<String> = job.forward_batches.iter().map(usize::to_string).collect();
    command.arg("--model").arg(job.model).arg("--inputs").arg(job.inputs).args([
        "--threads",
        &job.threads.to_string(),
        "--runs",
        &job.runs.to_string(),
        "--forward-batches",
        &batches.join(","),
    ]);
    if job.check {
        command.arg("--check");
    }
    if job.int8 {
        command.args(["--precision", "int8"]);
    }
    let limit = Duration::from_secs(
        if job.int8 { 120 } else { 60 } + 10 * u64::from(job.runs) * job.forward_batches.len() as u64,
    );
    let stdout = script_output(&mut command, limit, "the ONNX Runtime script")?;
    parse(&stdout, job).map_err(|e| format!("the ONNX Runtime script's output: {e}"))
}

/// Reads the script's JSON lines (see `scripts/onnxruntime-reference.py`).
fn parse(stdout: &str, job: &OrtJob) -> Result<Ort, String> {
    let mut figures = Ort { version: String::new(), forward: Vec::new(), differences: None };
    for line in stdout.lines().filter(|l| l.trim_start().starts_with('{')) {
        let value: serde_json::Value = serde_json::from_str(line).map_err(|e| format!("`{line}`: {e}"))?;
        let number = |key: &str| value.get(key).and_then(serde_json::Value::as_f64);
        if let Some(version) = value.get("onnxruntime").and_then(serde_json::Value::as_str) {
            figures.version = version.to_string();
        } else if let (Some(batch), Some(rate)) = (number("forward_batch"), number("positions_per_s")) {
            figures.forward.push((batch as usize, rate));
        } else if let (Some(policy), Some(value)) = (number("policy_max_diff"), number("value_max_diff")) {
            figures.differences = Some((policy, value));
        }
    }
    if figures.version.is_empty() {
        return Err("no `onnxruntime` line".to_string());
    }
    if let Some(&batch) = job.forward_batches.iter().find(|&&b| !figures.forward.iter().any(|&(f, _)| f == b)) {
        return Err(format!("no forward figure at batch {batch}"));
    }
    if job.check && figures.differences.is_none() {
        return Err("no check line".to_string());
    }
    Ok(figures)
}

//! `export`: a trained net as one self-contained file, or what such a file records.
//!
//! The nets that ship (`assets/nets/<game>.safetensors`) are made by it, from a run
//! directory, a generation of it and the commit that trained it (README, Play):
//!
//!     xiangqi-zero export --checkpoint RUN --generation N --commit HASH --out assets/nets/xiangqi.safetensors
//!
//! With `--format onnx` it writes an ONNX model instead, and checks its outputs in ONNX
//! Runtime against ours where python3 has onnxruntime.

use std::path::PathBuf;
use std::process::Command;
use xiangqi_zero::nnue::file::is_nnue_file;
use xiangqi_zero::nnue::Nnue;

use anyhow::bail;
use clap::{Args as ClapArgs, ValueEnum};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::onnxruntime::{onnxruntime, write_inputs, Ort, OrtJob};
use xiangqi_zero::mcts::PlaySettings;
use xiangqi_zero::nn::{Net, NetInfo};
use xiangqi_zero::train::{export, NetFormat};

/// Positions the ONNX check runs.
const CHECK_POSITIONS: usize = 64;
/// The largest difference from our logits the ONNX check allows (float rounding in
/// another order of operations stays far below it).
const CHECK_TOLERANCE: f64 = 1e-3;

/// The file formats `export` writes.
#[derive(ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// Our net file, which every command reads.
    #[default]
    Safetensors,
    /// An ONNX model (input `planes`, outputs `policy` and `value` logits).
    Onnx,
}

/// Arguments of `export`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// A run directory (its newest net, or that of --generation) or a `.safetensors` net
    /// file, either a path or an object store's URL (s3://, gs://, az://).
    #[arg(long, value_name = "PATH", required_unless_present = "info", requires = "out")]
    checkpoint: Option<PathBuf>,
    /// The generation of the run directory to export (default: its newest).
    #[arg(long, value_name = "N", requires = "checkpoint")]
    generation: Option<u32>,
    /// The settings the net plays best with, as `net` spec options (`cpuct=1`,
    /// `quiet_leaves=1`, `rules_prior=W`, `rules_value=W`, `rules_threats=T`), where a
    /// match measured them;
    /// those left out stay as trained (the rules' help of its training config).
    #[arg(long, value_name = "OPTIONS", requires = "checkpoint", value_parser = parse_play)]
    play: Option<PlaySettings>,
    /// The git commit of the code that trained the net (default: the one a net file
    /// records, else `git rev-parse HEAD` here, the code exporting it: give the training's
    /// own when they differ).
    #[arg(long, value_name = "HASH", requires = "checkpoint")]
    commit: Option<String>,
    /// The file to write.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// The file's format.
    #[arg(long, value_enum, default_value_t = Format::Safetensors, requires = "checkpoint")]
    format: Format,
    /// Only print what the net file FILE records.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["checkpoint", "out"])]
    info: Option<PathBuf>,
}

/// `--play`'s options.
fn parse_play(text: &str) -> Result<PlaySettings, String> {
    text.parse()
}

/// Runs `export`: prints what the written file (or the `--info` file) records.
pub fn run(args: Args) -> anyhow::Result<()> {
    let info = match (args.info, args.checkpoint, args.out) {
        (Some(file), ..) if is_nnue_file(&file) => {
            print!("{}", Nnue::load(&file).map_err(|e| anyhow::anyhow!(e))?.describe());
            return Ok(());
        }
        (Some(file), ..) => NetInfo::read(&file)?,
        (None, Some(checkpoint), Some(out)) => {
            let format = match args.format {
                Format::Safetensors => NetFormat::Safetensors,
                Format::Onnx => NetFormat::Onnx,
            };
            let exported = export(
                &checkpoint,
                args.generation,
                args.play.unwrap_or_default(),
                args.commit,
                head_commit,
                &out,
                format,
            )?;
            println!("wrote {}", out.display());
            if format == NetFormat::Onnx {
                check_onnx(&exported.net, &out)?;
            }
            exported.info
        }
        _ => anyhow::bail!("give --checkpoint PATH --out FILE, or --info FILE"),
    };
    print!("{info}");
    Ok(())
}

/// Runs the ONNX file `out` in ONNX Runtime on random positions and compares its logits
/// with `net`'s; says so in a line, or why it could not.
fn check_onnx(net: &Net, out: &std::path::Path) -> anyhow::Result<()> {
    if !out.is_file() {
        println!("not checked: the file is not on this machine's disk");
        return Ok(());
    }
    let mut rng = StdRng::seed_from_u64(1);
    // Sparse 0/1 planes, as encoded positions are.
    let positions: Vec<f32> =
        (0..CHECK_POSITIONS * net.config.input_size()).map(|_| f32::from(u8::from(rng.random_bool(0.1)))).collect();
    let inputs = std::env::temp_dir().join(format!("xiangqi-zero-onnx-check-{}.npz", std::process::id()));
    write_inputs(&inputs, net, &positions, CHECK_POSITIONS)?;
    let job =
        OrtJob { model: out, inputs: &inputs, threads: 1, runs: 1, forward_batches: &[], check: true, int8: false };
    let result = onnxruntime(&job);
    let _ = std::fs::remove_file(&inputs);
    match result {
        Ok(Ort { version, differences: Some((policy, value)), .. }) => {
            let line = format!(
                "ONNX Runtime {version}: largest difference from our logits on {CHECK_POSITIONS} positions: policy {policy:.1e}, value {value:.1e}"
            );
            if policy.max(value) > CHECK_TOLERANCE {
                bail!("{line}, above {CHECK_TOLERANCE:.0e}: the ONNX file does not compute our net");
            }
            println!("checked in {line}");
        }
        Ok(_) => println!("not checked: ONNX Runtime gave no comparison"),
        Err(why) => println!("not checked: {why}"),
    }
    Ok(())
}

/// The commit checked out here (`git rev-parse HEAD`), if git says.
fn head_commit() -> Option<String> {
    let output = Command::new("git").args(["rev-parse", "HEAD"]).output().ok()?;
    let commit = String::from_utf8(output.stdout).ok()?.trim().to_string();
    (output.status.success() && !commit.is_empty()).then_some(commit)
}

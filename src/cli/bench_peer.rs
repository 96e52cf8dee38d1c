//! The peers `bench` compares with, measured in the same run as our own figures (a ratio
//! to a figure from elsewhere is never printed): an external engine over UCI or UCCI for
//! `bench movegen` and `bench search`, and PyTorch running the same net through
//! `scripts/pytorch-reference.py` for `bench nn` and `bench train`. Every wait has a
//! deadline: a peer that cannot be started or stops answering is an error or a "not
//! measured" line, never a hang.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use clap::ValueEnum;
use xiangqi_zero::nn::NetConfig;
use xiangqi_zero::players::{EngineProcess, WaitError};

/// The protocol an external engine speaks.
#[derive(ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Protocol {
    /// UCI (`uci` → `uciok`), as Pikafish speaks it.
    #[default]
    Uci,
    /// UCCI (`ucci` → `ucciok`), as ElephantEye speaks it.
    Ucci,
}

/// An external engine, spoken to over its standard input and output
/// ([`EngineProcess`]: told `quit` and killed when dropped).
pub struct Engine {
    process: EngineProcess,
    program: String,
    timeout: Duration,
    /// What the engine calls itself (its `id name`), or its file name.
    pub name: String,
}

impl Engine {
    /// Starts `program` and completes the handshake in `protocol` (the hello, its `ok`,
    /// `isready`, `readyok`), asking for one thread where the engine offers the option.
    /// Each answer may take at most `timeout`.
    pub fn start(program: &Path, protocol: Protocol, timeout: Duration) -> anyhow::Result<Engine> {
        let shown = program.display().to_string();
        let process = EngineProcess::spawn(&program.to_string_lossy(), &[])
            .with_context(|| format!("cannot start engine `{shown}`"))?;
        let name = program.file_name().map_or(shown.clone(), |n| n.to_string_lossy().into_owned());
        let mut engine = Engine { process, program: shown, timeout, name };
        let hello = match protocol {
            Protocol::Uci => "uci",
            Protocol::Ucci => "ucci",
        };
        engine.send(hello)?;
        let seen = engine.wait_for(|line| line == format!("{hello}ok"), hello)?;
        if let Some(name) = seen.iter().find_map(|line| line.trim().strip_prefix("id name ")) {
            engine.name = name.trim().to_string();
        }
        if seen.iter().any(|line| line.trim().starts_with("option name Threads ")) {
            engine.send("setoption name Threads value 1")?;
        }
        engine.ready()?;
        Ok(engine)
    }

    /// `go perft depth` from the start position: the engine's node count and the time
    /// from sending `go perft` to its `Nodes searched:` line.
    pub fn perft(&mut self, depth: u32) -> anyhow::Result<(u64, Duration)> {
        self.send("position startpos")?;
        self.ready()?;
        let go = format!("go perft {depth}");
        let started = Instant::now();
        self.send(&go)?;
        let lines = self.wait_for(|line| line.starts_with("Nodes searched:"), &go)?;
        let elapsed = started.elapsed();
        let last = lines.last().map(String::as_str).unwrap_or_default();
        let nodes = last.trim_start_matches("Nodes searched:").trim().parse().ok();
        let nodes = nodes.with_context(|| format!("engine `{}` answered `{go}` with `{last}`", self.program))?;
        Ok((nodes, elapsed))
    }

    /// `go depth depth` from the start position: the node count of the last `info` line
    /// that carries one (none if no line does) and the time from sending `go` to
    /// `bestmove`.
    pub fn search(&mut self, depth: u32) -> anyhow::Result<(Option<u64>, Duration)> {
        self.send("position startpos")?;
        self.ready()?;
        let go = format!("go depth {depth}");
        let started = Instant::now();
        self.send(&go)?;
        let lines = self.wait_for(|line| line.starts_with("bestmove") || line.starts_with("nobestmove"), &go)?;
        let elapsed = started.elapsed();
        let nodes = lines.iter().rev().filter_map(|line| line.trim().strip_prefix("info ")).find_map(|info| {
            let words: Vec<&str> = info.split_whitespace().collect();
            words.windows(2).find(|pair| pair[0] == "nodes").and_then(|pair| pair[1].parse().ok())
        });
        Ok((nodes, elapsed))
    }

    fn send(&mut self, line: &str) -> anyhow::Result<()> {
        self.process.send(line).with_context(|| format!("engine `{}` stopped reading before `{line}`", self.program))
    }

    fn ready(&mut self) -> anyhow::Result<()> {
        self.send("isready")?;
        self.wait_for(|line| line == "readyok", "isready").map(drop)
    }

    /// Reads lines (trimmed) until one satisfies `done`, within the timeout; returns them
    /// all, the last being that one.
    fn wait_for(&mut self, done: impl Fn(&str) -> bool, asked: &str) -> anyhow::Result<Vec<String>> {
        match self.process.wait_for(|line| done(line.trim()), self.timeout, None) {
            Ok(lines) => Ok(lines.iter().map(|line| line.trim().to_string()).collect()),
            Err(WaitError::Closed(status)) => {
                let status = status.map_or("closed its output".into(), exited);
                bail!("engine `{}` {status} without answering `{asked}`", self.program)
            }
            Err(_) => bail!(
                "engine `{}` did not answer `{asked}` within {} s (--engine-timeout)",
                self.program,
                self.timeout.as_secs_f64()
            ),
        }
    }
}

/// How a process ended, as the errors say it: "exited (exit status: 1)", "exited
/// (signal: 9 (SIGKILL))".
fn exited(status: ExitStatus) -> String {
    format!("exited ({status})")
}

/// PyTorch's figures for the same net on the same threads, from the reference script.
pub struct PyTorch {
    /// Its version.
    pub version: String,
    /// The threads it ran on.
    pub threads: usize,
    /// Its net's parameters plus batch-norm running statistics (burn counts both).
    pub weights: u64,
    /// Forward positions/s at each batch size asked for.
    pub forward: Vec<(usize, f64)>,
    /// Training samples/s (one Adam step a batch).
    pub train: f64,
}

/// What to ask the reference script for.
pub struct PyTorchJob<'a> {
    /// The net's shape.
    pub config: &'a NetConfig,
    /// Threads (`torch.set_num_threads`).
    pub threads: usize,
    /// Timed runs of each figure (the median is reported).
    pub runs: u32,
    /// Batch sizes of the forward figures (none: training only).
    pub forward_batches: &'a [usize],
    /// Batch size of the training figure.
    pub train_batch: usize,
    /// Adam's weight decay.
    pub weight_decay: f64,
}

/// Environment variable naming a program run in place of `python3
/// scripts/pytorch-reference.py`, with the same arguments and the same output.
pub const PYTORCH_REFERENCE_VAR: &str = "XZ_PYTORCH_REFERENCE";

/// How long `python3 -c 'import MODULE'` may take.
const IMPORT_CHECK: Duration = Duration::from_secs(30);

/// The command that runs `scripts/SCRIPT` with python3, where python3 has `module`, or
/// the program the environment variable `variable` names in its place; else why not.
pub(super) fn reference_script(variable: &str, module: &str, script: &str) -> Result<Command, String> {
    if let Some(program) = std::env::var_os(variable) {
        return Ok(Command::new(program));
    }
    let import = output_within(Command::new("python3").args(["-c", &format!("import {module}")]), IMPORT_CHECK);
    if !import.is_ok_and(|(status, _, _)| status.success()) {
        return Err(format!("python3 with {module} not found (pip install {module})"));
    }
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts").join(script);
    if !script.is_file() {
        return Err(format!("{} not found", script.display()));
    }
    let mut command = Command::new("python3");
    command.arg(script);
    Ok(command)
}

/// The standard output of a reference script's `command`, run to its end within `limit`,
/// or why there is none (named `what`): it could not start, failed or ran out of time.
pub(super) fn script_output(command: &mut Command, limit: Duration, what: &str) -> Result<String, String> {
    let (status, stdout, stderr) = output_within(command, limit).map_err(|e| format!("{what}: {e}"))?;
    if !status.success() {
        let last = stderr.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or_default().trim().to_string();
        return Err(format!("{what} {}: {last}", exited(status)));
    }
    Ok(stdout)
}

/// PyTorch's figures for `job`, measured now, or why there are none: no python3 with
/// torch, or a script that failed, timed out or printed something else. The checks take
/// a few seconds at most when torch is missing.
pub fn pytorch(job: &PyTorchJob) -> Result<PyTorch, String> {
    let mut command = reference_script(PYTORCH_REFERENCE_VAR, "torch", "pytorch-reference.py")?;
    let config = job.config;
    let batches: Vec<String> = job.forward_batches.iter().map(usize::to_string).collect();
    command.args(["--threads", &job.threads.to_string(), "--runs", &job.runs.to_string()]).args([
        "--planes",
        &config.planes.to_string(),
        "--height",
        &config.height.to_string(),
        "--width",
        &config.width.to_string(),
        "--policy",
        &config.policy_size.to_string(),
        "--blocks",
        &config.blocks.to_string(),
        "--channels",
        &config.channels.to_string(),
        "--forward-batches",
        &batches.join(","),
        "--train-batch",
        &job.train_batch.to_string(),
        "--weight-decay",
        &job.weight_decay.to_string(),
    ]);
    // Each figure takes about half a second a run after its warm-up; import and set-up
    // take seconds.
    let limit = Duration::from_secs(120 + 10 * u64::from(job.runs) * (job.forward_batches.len() as u64 + 1));
    let stdout = script_output(&mut command, limit, "the reference script")?;
    parse_pytorch(&stdout, job).map_err(|e| format!("the reference script's output: {e}"))
}

/// Reads the script's JSON lines (see `scripts/pytorch-reference.py`).
fn parse_pytorch(stdout: &str, job: &PyTorchJob) -> Result<PyTorch, String> {
    let mut figures = PyTorch { version: String::new(), threads: 0, weights: 0, forward: Vec::new(), train: 0.0 };
    let mut train = None;
    for line in stdout.lines().filter(|l| l.trim_start().starts_with('{')) {
        let value: serde_json::Value = serde_json::from_str(line).map_err(|e| format!("`{line}`: {e}"))?;
        let number = |key: &str| value.get(key).and_then(serde_json::Value::as_f64);
        if let Some(version) = value.get("torch").and_then(serde_json::Value::as_str) {
            figures.version = version.to_string();
            figures.threads = number("threads").unwrap_or(0.0) as usize;
            figures.weights = (number("parameters").unwrap_or(0.0) + number("running_stats").unwrap_or(0.0)) as u64;
        } else if let (Some(batch), Some(rate)) = (number("forward_batch"), number("positions_per_s")) {
            figures.forward.push((batch as usize, rate));
        } else if let (Some(_), Some(rate)) = (number("train_batch"), number("samples_per_s")) {
            train = Some(rate);
        }
    }
    if figures.version.is_empty() {
        return Err("no `torch` line".to_string());
    }
    if let Some(&batch) = job.forward_batches.iter().find(|&&b| !figures.forward.iter().any(|&(f, _)| f == b)) {
        return Err(format!("no forward figure at batch {batch}"));
    }
    figures.train = train.ok_or("no training figure")?;
    Ok(figures)
}

/// Runs `command` to its end, or kills it after `limit`; its status, standard output
/// and standard error.
fn output_within(command: &mut Command, limit: Duration) -> Result<(ExitStatus, String, String), String> {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start: {e}"))?;
    // Both pipes are drained while the child runs, so that it never blocks on a full one.
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_string(&mut text);
            }
            text
        })
    };
    let stdout = drain(child.stdout.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let stderr = drain(child.stderr.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() < limit => std::thread::sleep(Duration::from_millis(20)),
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("no result within {} s", limit.as_secs()));
            }
            Err(e) => return Err(e.to_string()),
        }
    };
    let text = |handle: std::thread::JoinHandle<String>| handle.join().unwrap_or_default();
    Ok((status, text(stdout), text(stderr)))
}

/// PyTorch's figures for `job` measured now, after one line saying what they are (its
/// version, threads and net size) or why there are none. None as well when its net's
/// size differs from ours (`weights`, parameters and batch-norm running statistics): no
/// ratio to another net.
pub(super) fn pytorch_peer(job: &PyTorchJob, weights: u64) -> Option<PyTorch> {
    match pytorch(job) {
        Ok(peer) if peer.weights != weights => {
            println!("PyTorch: not compared (its net holds {} weights, ours {weights})", peer.weights);
            None
        }
        Ok(peer) => {
            println!(
                "PyTorch {}: measured in this run on {} thread(s), the same net ({} weights)",
                peer.version, peer.threads, peer.weights
            );
            Some(peer)
        }
        Err(why) => {
            println!("PyTorch: not measured ({why})");
            None
        }
    }
}

//! Issue 16, a run directory in an object store, against a real S3-compatible server:
//! moto's standalone server (`moto_server`, from PyPI: `pip install "moto[server]"`) on a
//! free loopback port. A trainer and two self-play worker processes share one bucket for
//! two generations of a micro config; one worker is killed (`kill -9`) in the middle of a
//! generation. Then every shard in the bucket reads back whole, the run has exactly its
//! three nets, the surviving worker took up the newest net and every game it reports is
//! there; `plot`, `export` and `eval net:s3://…` work on the same run; and a worker whose
//! server is gone fails in one line after its retries.
//!
//! Where `moto_server` is not installed the test says `skipped:` in one line, unless
//! `CI=true` (or `XZ_REQUIRE_OBJECT_STORE_TEST=1`), which make it fail.

mod common;
#[path = "browser/process.rs"]
mod process;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::{assert_failed, binary, micro_config, TempDir};
use process::{free_port, on_path, Listening};
use xiangqi_zero::game::xiangqi::Xiangqi;
use xiangqi_zero::selfplay::{read_shard, SampleShape};
use xiangqi_zero::storage;
use xiangqi_zero::train::{read_metrics, RunDir};

/// Set to 1 to make the test fail, not skip, where `moto_server` is missing.
const REQUIRE_VARIABLE: &str = "XZ_REQUIRE_OBJECT_STORE_TEST";

/// The bucket the run lives in.
const BUCKET: &str = "xiangqi-zero-test";

/// The micro Xiangqi config of the training tests, 24 games a generation (a few seconds:
/// the workers write shards while it trains), the net evaluated only after the last,
/// against generation 0.
fn run_config() -> String {
    let config = micro_config("xiangqi", 24).replace("every = 1", "every = 0");
    config.replace(r#"ladder = ["alphabeta:depth=1", "gen0000"]"#, r#"ladder = ["gen0000"]"#)
}

/// How long any one wait of the test may take before it fails.
const PATIENCE: Duration = Duration::from_secs(180);

/// moto's S3 server on a free loopback port, with the environment a client needs to
/// reach it; stopped when dropped.
struct Server {
    port: u16,
    _process: Listening,
}

impl Server {
    /// Starts moto's server and creates the bucket, or says why the test is skipped.
    fn start() -> Option<Server> {
        let Some(mut command) = moto() else {
            let required = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
                || std::env::var(REQUIRE_VARIABLE).as_deref() == Ok("1");
            assert!(!required, "moto_server not found — `pip install \"moto[server]\"` (.ci/run does)");
            eprintln!("skipped: moto_server not found — `pip install \"moto[server]\"` to run this test");
            return None;
        };
        let port = free_port();
        command.args(["-H", "127.0.0.1", "-p", &port.to_string()]);
        let server = Server { port, _process: Listening::start(command, port) };
        server.create_bucket();
        Some(server)
    }

    /// The variables that point a client at the server, with a short retry time.
    fn env(&self) -> Vec<(&'static str, String)> {
        vec![
            ("AWS_ENDPOINT_URL", format!("http://127.0.0.1:{}", self.port)),
            ("AWS_ALLOW_HTTP", "true".to_string()),
            ("AWS_ACCESS_KEY_ID", "test".to_string()),
            ("AWS_SECRET_ACCESS_KEY", "test".to_string()),
            ("AWS_REGION", "us-east-1".to_string()),
            ("XZ_STORAGE_RETRY_SECONDS", "5".to_string()),
        ]
    }

    /// Creates the bucket by a plain HTTP `PUT /BUCKET` (moto takes it unsigned).
    fn create_bucket(&self) {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        let request = format!(
            "PUT /{BUCKET} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
            self.port
        );
        stream.write_all(request.as_bytes()).unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        assert!(response.starts_with("HTTP/1.1 200"), "creating the bucket: {response}");
    }
}

/// moto's server: `moto_server` on the PATH, else the module of a `python3` that has it.
fn moto() -> Option<Command> {
    if let Some(program) = on_path(&["moto_server"]) {
        return Some(Command::new(program));
    }
    let python = on_path(&["python3"])?;
    let found = Command::new(&python).args(["-c", "import moto.server"]).stderr(Stdio::null()).status();
    found.is_ok_and(|status| status.success()).then(|| {
        let mut command = Command::new(python);
        command.args(["-m", "moto.server"]);
        command
    })
}

/// The binary with `args`, pointed at `server`, its output captured.
fn command(server: &Server, args: &[&str]) -> Command {
    let mut command = binary();
    command.args(args).envs(server.env()).stdout(Stdio::piped()).stderr(Stdio::piped());
    command
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Waits until `ready` holds, failing if `process` ends first or time runs out.
fn wait_for(what: &str, process: &mut Child, mut ready: impl FnMut() -> bool) {
    let started = Instant::now();
    while !ready() {
        assert!(process.try_wait().unwrap().is_none(), "the process ended before {what}");
        assert!(started.elapsed() < PATIENCE, "no {what} within {PATIENCE:?}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The names of the objects directly under `dir` (a URL) ending with `suffix`, sorted.
fn names(dir: &str, suffix: &str) -> Vec<String> {
    let mut names: Vec<String> = storage::list(Path::new(dir))
        .unwrap()
        .into_iter()
        .map(|entry| entry.name)
        .filter(|name| name.ends_with(suffix))
        .collect();
    names.sort();
    names
}

/// The games in the shards of `run` written by process `pid`, and those shards' names.
fn games_of(run: &str, shards: &[String], pid: u32) -> (u64, Vec<String>) {
    let mine: Vec<String> = shards.iter().filter(|name| name.contains(&format!("-{pid}-"))).cloned().collect();
    let games = mine
        .iter()
        .map(|name| {
            let location = PathBuf::from(format!("{run}/games/{name}"));
            read_shard(&location, SampleShape::of::<Xiangqi>()).unwrap().games()
        })
        .sum();
    (games, mine)
}

#[test]
fn a_trainer_and_two_workers_share_one_bucket_and_lose_nothing() {
    let Some(server) = Server::start() else { return };
    // This process reads the bucket too (one test in this file: no other thread reads
    // the environment meanwhile).
    for (key, value) in server.env() {
        std::env::set_var(key, value);
    }
    let scratch = TempDir::new("object-store");
    let config = scratch.join("micro.toml");
    std::fs::write(&config, run_config()).unwrap();
    let run = format!("s3://{BUCKET}/runs/micro");
    let dir = RunDir::new(&run);

    let mut trainer =
        command(&server, &["train", "--config", config.to_str().unwrap(), "--run", &run]).spawn().unwrap();
    wait_for("generation 0's state", &mut trainer, || dir.read_state().is_ok_and(|state| state.is_some()));
    let mut killed = command(&server, &["selfplay", "--run", &run]).spawn().unwrap();
    let mut survivor = command(&server, &["selfplay", "--run", &run]).spawn().unwrap();
    let games_dir = format!("{run}/games");
    let (killed_pid, survivor_pid) = (killed.id(), survivor.id());

    // Kill the first worker once it has written a shard, while it plays on.
    wait_for("shard of the first worker", &mut killed, || {
        names(&games_dir, ".npz").iter().any(|name| name.contains(&format!("-{killed_pid}-")))
    });
    assert!(trainer.try_wait().unwrap().is_none(), "the trainer is still at work when the worker is killed");
    killed.kill().unwrap();
    killed.wait().unwrap();

    let trained = trainer.wait_with_output().unwrap();
    let stdout = text(&trained.stdout);
    assert!(trained.status.success(), "{stdout}\n{}", text(&trained.stderr));
    assert!(stdout.contains("gen0001:") && stdout.contains("gen0002:"), "{stdout}");

    // The survivor takes up the newest net: it writes games of generation 3 (played by
    // net 2). Then Ctrl-C: it finishes the shard it is writing and exits 0.
    wait_for("shard played by the newest net", &mut survivor, || {
        names(&games_dir, ".npz")
            .iter()
            .any(|name| name.starts_with("gen0003-") && name.contains(&format!("-{survivor_pid}-")))
    });
    assert!(Command::new("kill").args(["-INT", &survivor_pid.to_string()]).status().unwrap().success());
    let stopped = survivor.wait_with_output().unwrap();
    let survivor_out = text(&stopped.stdout);
    assert_eq!(stopped.status.code(), Some(0), "{survivor_out}\n{}", text(&stopped.stderr));

    // Exactly the three nets and their optimiser states; the state at generation 2.
    let models: Vec<String> =
        (0..=2).flat_map(|g| [format!("gen000{g}.optimizer"), format!("gen000{g}.safetensors")]).collect();
    assert_eq!(names(&format!("{run}/models"), ""), models);
    assert_eq!(dir.read_state().unwrap().unwrap().generation, 2);
    let metrics = read_metrics(&dir.metrics()).unwrap();
    assert_eq!(metrics.len(), 2);
    // The trainer's window took in the workers' games beside its own.
    let own: u64 = metrics.iter().map(|m| m.samples).sum();
    assert!(metrics[1].total_samples > own, "{} samples in all, {own} of the trainer's", metrics[1].total_samples);

    // Every shard reads back whole, the killed worker's included; each worker's games are
    // all there: the survivor's as many as it reports.
    let shards = names(&games_dir, ".npz");
    for name in &shards {
        let samples = read_shard(Path::new(&format!("{games_dir}/{name}")), SampleShape::of::<Xiangqi>());
        assert!(samples.is_ok_and(|samples| !samples.is_empty()), "{name}");
    }
    let (killed_games, killed_shards) = games_of(&run, &shards, killed_pid);
    assert!(killed_games > 0 && !killed_shards.is_empty());
    let (survivor_games, _) = games_of(&run, &shards, survivor_pid);
    let reported = survivor_out.lines().last().and_then(|line| line.split(' ').next()?.parse::<u64>().ok());
    assert_eq!(Some(survivor_games), reported, "{survivor_out}");

    // The other commands on the same run.
    let plotted = command(&server, &["plot", "--run", &run]).output().unwrap();
    assert!(plotted.status.success(), "{}", text(&plotted.stderr));
    assert_eq!(text(&plotted.stdout).lines().count(), 3);
    for plot in ["losses.png", "elo.png", "selfplay.png"] {
        let bytes = storage::read(&PathBuf::from(format!("{run}/plots/{plot}"))).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{plot}");
    }
    let exported = scratch.join("exported.safetensors");
    let output =
        command(&server, &["export", "--checkpoint", &run, "--out", exported.to_str().unwrap()]).output().unwrap();
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(text(&output.stdout).contains("generation: 2"), "{}", text(&output.stdout));
    let net = format!("net(sims=4):{run}/models/gen0002.safetensors");
    let output = command(&server, &["eval", "--a", &net, "--b", "random", "--games", "2"]).output().unwrap();
    assert!(output.status.success(), "{}", text(&output.stderr));
    let output = command(&server, &["plot", "--run", &format!("s3://{BUCKET}/runs/none")]).output().unwrap();
    assert_failed(&output, "no such run directory", "plot of a run not there");

    // A worker whose server is gone: retried for its few seconds, then one line.
    let gone = free_port();
    let output: Output = command(&server, &["selfplay", "--run", &run])
        .env("AWS_ENDPOINT_URL", format!("http://127.0.0.1:{gone}"))
        .env("XZ_STORAGE_RETRY_SECONDS", "1")
        .output()
        .unwrap();
    assert_failed(&output, &run, "a worker without its server");
}

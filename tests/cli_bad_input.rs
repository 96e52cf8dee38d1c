//! Every subcommand given bad input — a missing file, a net of the other game, a file
//! that is not a net, a directory where a file belongs and the reverse, a read-only run
//! directory, a full output, a bad config, bytes that are not text — fails in one line
//! on stderr with exit code 2 and no panic, or, in the engine loop, answers and goes on;
//! and leaves every file it found as it was.

mod common;

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use common::{assert_failed, assert_fails, binary, run, TempDir};

/// A scratch directory holding a Xiangqi run and a Banqi run at generation 0 (made by
/// `train --generations 0` from the shipped tiny configs), and the files around them.
struct Runs {
    dir: TempDir,
}

impl Runs {
    fn new(name: &str) -> Runs {
        let runs = Runs { dir: TempDir::new(name) };
        for game in ["xiangqi", "banqi"] {
            let config = format!("{}/configs/{game}-tiny.toml", env!("CARGO_MANIFEST_DIR"));
            let output = run(&["train", "--config", &config, "--run", &runs.path(game), "--generations", "0"]);
            assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        }
        runs
    }

    /// The path of `name` in the scratch directory, as an argument.
    fn path(&self, name: &str) -> String {
        self.dir.join(name).to_str().unwrap().to_string()
    }

    /// The generation-0 net of the run of `game`.
    fn net(&self, game: &str) -> String {
        self.path(&format!("{game}/models/gen0000.safetensors"))
    }

    /// Writes `contents` to `name` and returns its path.
    fn file(&self, name: &str, contents: &[u8]) -> String {
        fs::write(self.dir.join(name), contents).unwrap();
        self.path(name)
    }

    /// Makes the directory `name` and returns its path.
    fn subdir(&self, name: &str) -> String {
        fs::create_dir_all(self.dir.join(name)).unwrap();
        self.path(name)
    }
}

/// Every file under `dir` with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut files = BTreeMap::new();
    for entry in fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(snapshot(&path));
        } else {
            files.insert(path.clone(), fs::read(&path).unwrap());
        }
    }
    files
}

/// The commands that load the net `net` as a Xiangqi player (`eval`, `uci`, `play`)
/// or export it.
fn xiangqi_net_commands(net: &str, out: &str) -> Vec<Vec<String>> {
    let player = format!("net:{net}");
    [
        vec!["eval", "--a", &player, "--b", "random", "--games", "2"],
        vec!["uci", "--player", &player],
        vec!["play", "--black", &player],
        vec!["export", "--checkpoint", net, "--out", out],
        vec!["export", "--info", net],
    ]
    .iter()
    .map(|args| args.iter().map(ToString::to_string).collect())
    .collect()
}

/// Asserts that each of `commands` fails cleanly with `needle` in its line.
fn assert_all_fail(commands: &[Vec<String>], needle: &str) {
    for args in commands {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        assert_fails(&args, needle);
    }
}

#[test]
fn missing_files_and_directories_are_named() {
    let runs = Runs::new("missing");
    let (gone, out) = (runs.path("gone.safetensors"), runs.path("out.safetensors"));
    assert_all_fail(&xiangqi_net_commands(&gone, &out), "gone.safetensors");
    let engine = format!("x=net:{gone}");
    let db = runs.path("serve.sqlite3");
    assert_fails(&["serve", "--addr", "127.0.0.1:0", "--db", &db, "--engine", &engine], "gone.safetensors");
    let openings = runs.path("gone.txt");
    assert_fails(&["eval", "--a", "random", "--b", "random", "--games", "2", "--openings", &openings], "gone.txt");
    assert_fails(&["train", "--config", &runs.path("gone.toml")], "gone.toml");
    let no_run = runs.path("no-run");
    assert_fails(&["plot", "--run", &no_run], "no such run directory");
    assert_fails(&["train", "--resume", "--run", &no_run], "no such run directory");
    assert_fails(&["selfplay", "--run", &no_run, "--games", "1"], "no such run directory");
    assert!(!Path::new(&out).exists() && !Path::new(&no_run).exists());
}

#[test]
fn nets_and_runs_of_the_other_game_are_refused() {
    let runs = Runs::new("wrong-game");
    let out = runs.path("out.safetensors");
    let banqi_player = format!("net:{}", runs.net("banqi"));
    let xiangqi_player = format!("net:{}", runs.net("xiangqi"));
    let expected_xiangqi = "is a banqi net, expected a xiangqi net";
    assert_fails(&["eval", "--a", &banqi_player, "--b", "random", "--games", "2"], expected_xiangqi);
    assert_fails(&["uci", "--player", &banqi_player], expected_xiangqi);
    assert_fails(&["play", "--black", &banqi_player], expected_xiangqi);
    let expected_banqi = "is a xiangqi net, expected a banqi net";
    assert_fails(&["eval", "--game", "banqi", "--a", &xiangqi_player, "--b", "random", "--games", "2"], expected_banqi);
    assert_fails(&["play", "--game", "banqi", "--second", &xiangqi_player], expected_banqi);
    // Xiangqi input given to Banqi: a FEN, openings, a run's config.
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    assert_fails(&["play", "--game", "banqi", "--fen", fen], "invalid position");
    let openings = runs.file("openings.txt", b"h2e2 h9g7\n");
    let banqi_eval = ["eval", "--game", "banqi", "--a", "random", "--b", "random", "--games", "2"];
    assert_fails(&[&banqi_eval[..], &["--openings", &openings]].concat(), "openings are for Xiangqi");
    let banqi_config = runs.path("banqi/config.toml");
    let resume = ["train", "--resume", "--run", &runs.path("xiangqi"), "--config", &banqi_config];
    assert_fails(&resume, "the run trains a xiangqi net of 4×32, the config asks for a banqi net");
    // A Banqi net in the place of a Xiangqi run's net.
    fs::copy(runs.net("banqi"), runs.net("xiangqi")).unwrap();
    let before = snapshot(&runs.dir.join("xiangqi"));
    assert_fails(&["selfplay", "--run", &runs.path("xiangqi"), "--games", "1"], expected_xiangqi);
    assert_eq!(snapshot(&runs.dir.join("xiangqi")), before, "selfplay wrote nothing");
    assert!(!Path::new(&out).exists());
}

#[test]
fn files_that_are_not_nets_are_refused() {
    let runs = Runs::new("not-a-net");
    let out = runs.path("out.safetensors");
    let net = fs::read(runs.net("xiangqi")).unwrap();
    let cases = [
        (runs.file("notes.txt", b"a net, honest\n"), "not a safetensors file"),
        (runs.file("empty.safetensors", b""), "too short for a safetensors file"),
        (runs.file("cut.safetensors", &net[..1000]), "truncated safetensors header"),
        (runs.file("cut-data.safetensors", &net[..net.len() - 100]), "truncated"),
        (runs.path("xiangqi/state.json"), "not a safetensors file"),
    ];
    for (file, needle) in cases {
        assert_all_fail(&xiangqi_net_commands(&file, &out), needle);
    }
    assert!(!Path::new(&out).exists());
}

#[test]
fn a_directory_or_a_device_where_a_file_belongs_is_refused() {
    let runs = Runs::new("dir-for-file");
    let dir = runs.subdir("a-directory");
    let out = runs.path("out.safetensors");
    assert_all_fail(&xiangqi_net_commands(&dir, &out), "a-directory");
    assert_fails(&["eval", "--a", &format!("net:{dir}"), "--b", "random"], "it is a directory, not a net file");
    assert_fails(&["train", "--config", &dir], "Is a directory");
    assert_fails(&["eval", "--a", "random", "--b", "random", "--games", "2", "--openings", &dir], "Is a directory");
    let xiangqi = runs.path("xiangqi");
    assert_fails(&["export", "--checkpoint", &xiangqi, "--out", &dir], "it is a directory, not a file");
    // In a run: the metrics file or a plot a directory.
    fs::create_dir(runs.dir.join("xiangqi/metrics.jsonl")).unwrap();
    assert_fails(&["plot", "--run", &xiangqi], "metrics.jsonl");
    fs::remove_dir(runs.dir.join("xiangqi/metrics.jsonl")).unwrap();
    fs::create_dir(runs.dir.join("xiangqi/plots/losses.png")).unwrap();
    assert_fails(&["plot", "--run", &xiangqi], "it is a directory, not a file");
    // A pipe (as a device such as /dev/null would be) is not replaced by a plain file.
    let pipe = runs.path("pipe");
    assert!(Command::new("mkfifo").arg(&pipe).status().unwrap().success());
    assert_fails(&["export", "--checkpoint", &xiangqi, "--out", &pipe], "not a regular file");
    assert!(fs::symlink_metadata(&pipe).unwrap().file_type().is_fifo());
    assert!(Path::new(&dir).read_dir().unwrap().next().is_none(), "nothing written into the directory");
    // A device that never ends is refused after a bounded read, not read forever.
    assert_fails(&["train", "--config", "/dev/zero"], "longer than 64 MiB");
    assert_fails(&["notation", "--record", "/dev/zero", "--to", "wxf"], "longer than 64 MiB");
}

#[test]
fn a_file_or_a_stranger_directory_where_a_run_belongs_is_refused() {
    let runs = Runs::new("file-for-dir");
    let file = runs.file("notes.txt", b"not a run\n");
    let config = runs.path("xiangqi/config.toml");
    assert_fails(&["plot", "--run", &file], "not a directory");
    assert_fails(&["train", "--resume", "--run", &file], "not a directory");
    assert_fails(&["selfplay", "--run", &file, "--games", "1"], "not a directory");
    assert_fails(&["train", "--config", &config, "--run", &file, "--generations", "0"], "Not a directory");
    assert_fails(&["export", "--checkpoint", &runs.path("xiangqi"), "--out", &format!("{file}/x")], "Not a directory");
    assert_fails(&["eval", "--a", "random", "--b", "random", "--games", "2", "--out", &file], "notes.txt");
    assert_eq!(fs::read(&file).unwrap(), b"not a run\n");
    // A directory that holds no run is not taken for one (nor written into).
    let stranger = runs.subdir("photos");
    assert_fails(&["plot", "--run", &stranger], "not a run directory");
    assert_fails(&["train", "--resume", "--run", &stranger], "not a run directory");
    assert_fails(&["selfplay", "--run", &stranger, "--games", "1"], "not a run directory");
    assert_fails(&["export", "--checkpoint", &stranger, "--out", &runs.path("out")], "is this a run directory?");
    assert!(Path::new(&stranger).read_dir().unwrap().next().is_none(), "nothing written into it");
}

/// A directory tree made read-only for the test's lifetime: by permissions, or, where
/// they do not bind (as root), by the immutable attribute (`chattr +i`); restored when
/// dropped.
struct ReadOnly {
    dirs: Vec<PathBuf>,
    immutable: bool,
}

impl ReadOnly {
    fn new(root: &Path) -> ReadOnly {
        let mut dirs = vec![root.to_path_buf()];
        let mut i = 0;
        while i < dirs.len() {
            let children = fs::read_dir(&dirs[i]).unwrap().flatten().map(|e| e.path()).filter(|p| p.is_dir());
            dirs.extend(children.collect::<Vec<_>>());
            i += 1;
        }
        for dir in &dirs {
            fs::set_permissions(dir, fs::Permissions::from_mode(0o555)).unwrap();
        }
        let mut guard = ReadOnly { dirs, immutable: false };
        if guard.writable() {
            guard.immutable = Command::new("chattr").arg("+i").args(&guard.dirs).status().is_ok_and(|s| s.success());
        }
        assert!(!guard.writable(), "neither permissions nor `chattr +i` make {} read-only here", root.display());
        guard
    }

    /// Whether a file can still be created in every directory.
    fn writable(&self) -> bool {
        self.dirs.iter().any(|dir| {
            let probe = dir.join(".probe");
            let created = fs::File::create(&probe).is_ok();
            let _ = fs::remove_file(&probe);
            created
        })
    }
}

impl Drop for ReadOnly {
    fn drop(&mut self) {
        if self.immutable {
            let _ = Command::new("chattr").arg("-i").args(&self.dirs).status();
        }
        for dir in &self.dirs {
            let _ = fs::set_permissions(dir, fs::Permissions::from_mode(0o755));
        }
    }
}

#[test]
fn a_read_only_run_directory_fails_cleanly_and_keeps_its_files() {
    let runs = Runs::new("read-only");
    let run = runs.path("xiangqi");
    let before = snapshot(Path::new(&run));
    {
        let _read_only = ReadOnly::new(Path::new(&run));
        assert_fails(&["plot", "--run", &run], "losses.png");
        assert_fails(&["train", "--resume", "--run", &run, "--generations", "1"], &run);
        assert_fails(&["export", "--checkpoint", &run, "--out", &format!("{run}/exported.safetensors")], &run);
        let eval = ["eval", "--a", "random", "--b", "random", "--games", "2", "--out", &format!("{run}/eval")];
        assert_fails(&eval, &run);
    }
    assert_eq!(snapshot(Path::new(&run)), before, "every file as it was, and no other");
}

/// Runs the binary with `args`, `stdin` as its input and standard output a full disk.
fn run_into_full_disk(args: &[&str], stdin: &[u8]) -> Output {
    let full = fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    let mut child = binary().args(args).stdin(Stdio::piped()).stdout(full).stderr(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn a_full_disk_for_the_output_fails_in_one_line() {
    let runs = Runs::new("full");
    let (net, run_dir, out) = (runs.net("xiangqi"), runs.path("xiangqi"), runs.path("exported.safetensors"));
    let printing: [&[&str]; 6] = [
        &["perft", "--depth", "2"],
        &["status"],
        &["export", "--info", &net],
        &["plot", "--run", &run_dir],
        &["eval", "--a", "random", "--b", "random", "--games", "2"],
        &["export", "--checkpoint", &run_dir, "--out", &out],
    ];
    for args in printing {
        assert_failed(&run_into_full_disk(args, b""), "cannot write to standard output: No space left", args);
    }
    // The file written before the output failed is whole.
    assert!(run(&["export", "--info", &out]).status.success());
    let play = ["play", "--red", "random", "--black", "random", "--max-plies", "4"];
    assert_failed(&run_into_full_disk(&play, b""), "cannot read a move or write the game: No space left", play);
    let uci = ["uci", "--player", "random"];
    let answers = run_into_full_disk(&uci, b"uci\nisready\ngo depth 1\nquit\n");
    assert_failed(&answers, "cannot write the engine's answers to standard output: No space left", uci);
}

#[test]
fn configs_that_are_not_toml_are_refused() {
    let runs = Runs::new("config");
    let cases = [
        (runs.file("broken.toml", b"name = \"x\"\n[network\n"), "broken.toml: line 2"),
        (runs.file("empty.toml", b""), "missing field `name`"),
        (runs.net("xiangqi"), "did not contain valid UTF-8"),
    ];
    for (config, needle) in cases {
        assert_fails(&["train", "--config", &config, "--run", &runs.path("new-run")], needle);
    }
    // (An unknown key, a bad value and a missing config: tests/train_run.rs.)
    assert!(!runs.dir.join("new-run").exists());
}

#[test]
fn the_engine_answers_a_line_that_is_not_text_and_goes_on() {
    let mut child = binary()
        .args(["uci", "--player", "alphabeta:depth=1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"uci\n\xff\xfe garbage\nisready\nposition startpos\ngo depth 1\n").unwrap();
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let lines: Vec<&str> = stdout.lines().collect();
    let error = lines.iter().position(|l| l.starts_with("info string error: unknown command"));
    let ready = lines.iter().position(|l| *l == "readyok");
    assert!(error.is_some() && error < ready, "{stdout}");
    assert!(lines.last().is_some_and(|l| l.starts_with("bestmove ") && *l != "bestmove (none)"), "{stdout}");
}

#[test]
fn a_pipe_whose_reader_has_gone_stops_the_output_silently() {
    // The reader is closed before the binary writes a line, as `| head` does after its
    // lines: the binary stops as a filter killed by SIGPIPE does, with nothing on stderr.
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let output = binary().args(["perft", "--depth", "2"]).stdout(writer).stderr(Stdio::piped()).output().unwrap();
    assert_eq!(output.status.code(), Some(141), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(output.stderr.is_empty(), "{}", String::from_utf8_lossy(&output.stderr));
}

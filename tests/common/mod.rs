//! Helpers shared by the integration tests: reading the reference data in `tests/data`,
//! malformed variants of valid texts for robustness tests, running the binary, reading an
//! engine's `info` lines, and scratch directories.
#![allow(dead_code)] // each test file uses some of these

use std::fmt::Debug;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use proptest::prelude::*;
use serde::de::DeserializeOwned;
use xiangqi_zero::game::xiangqi::Notation;
use xiangqi_zero::game::Game;
use xiangqi_zero::matches::{Adjudication, MatchConfig, Start};
use xiangqi_zero::players::PlayerSpec;

/// Every line of the JSON Lines file `tests/data/<name>`, parsed.
pub fn read_jsonl<T: DeserializeOwned>(name: &str) -> Vec<T> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("bad line in {name}: {e}: {line}")))
        .collect()
}

/// One of `samples` with one random edit: a character of `alphabet` replacing or inserted
/// before a character, or a character deleted.
pub fn mutated(samples: &'static [&'static str], alphabet: &str) -> impl Strategy<Value = String> {
    let alphabet: Vec<char> = alphabet.chars().collect();
    (0..samples.len(), any::<prop::sample::Index>(), prop::sample::select(alphabet), 0..3u8).prop_map(
        move |(which, at, c, edit)| {
            let mut chars: Vec<char> = samples[which].chars().collect();
            let i = at.index(chars.len());
            match edit {
                0 => chars[i] = c,
                1 => {
                    chars.remove(i);
                }
                _ => chars.insert(i, c),
            }
            chars.into_iter().collect()
        },
    )
}

/// A quiet match of `games` games, two at a time, adjudicated a draw after 300 plies.
pub fn match_config(games: u32) -> MatchConfig {
    MatchConfig {
        games,
        concurrency: 2,
        movetime: None,
        sprt: None,
        out: None,
        resume: false,
        max_plies: 300,
        adjudication: Adjudication::default(),
        seed: 7,
        progress: false,
        notation: Notation::Iccs,
    }
}

/// `count` start positions of `G`, with chance seeds 0, 1, ….
pub fn start_positions<G: Game>(count: u64) -> Vec<Start<G>> {
    (0..count).map(|seed| Start { game: G::start(), opening: None, seed }).collect()
}

/// A player spec that must parse.
pub fn spec(text: &str) -> PlayerSpec {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The `xiangqi-zero` binary, to be given arguments.
pub fn binary() -> Command {
    Command::new(env!("CARGO_BIN_EXE_xiangqi-zero"))
}

/// Runs the binary with `args`, its standard input empty.
pub fn run(args: &[&str]) -> Output {
    binary().args(args).output().expect("the binary runs")
}

/// Runs the binary with `args`, writing `input` to its standard input, and waits.
pub fn run_with_input(args: &[&str], input: &[u8]) -> Output {
    let mut child = binary()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child.stdin.take().expect("piped").write_all(input).expect("input written");
    child.wait_with_output().expect("the binary ends")
}

/// Asserts a clean failure of the run `what`: exit code 2 and exactly one line on stderr,
/// containing `needle`, and no panic.
pub fn assert_failed(output: &Output, needle: &str, what: impl Debug) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{what:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{what:?}: {stderr}");
    assert!(stderr.contains(needle), "`{needle}` not in {what:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{what:?}: {stderr}");
}

/// Runs the binary with `args` and asserts a clean failure (see [`assert_failed`]).
pub fn assert_fails(args: &[&str], needle: &str) {
    assert_failed(&run(args), needle, args);
}

/// Tells apart the scratch directories of one test process.
static NEXT_DIR: AtomicUsize = AtomicUsize::new(0);

/// A fresh, empty directory for one test, removed when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    /// A new directory whose name holds `name`.
    pub fn new(name: &str) -> TempDir {
        let unique = NEXT_DIR.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("xiangqi-zero-test-{}-{unique}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    /// A path inside the directory.
    pub fn join(&self, name: impl AsRef<Path>) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The number after `key` in the last `info depth` line an engine printed in `output`.
pub fn last_info(output: &str, key: &str) -> u64 {
    let info = output.lines().rev().find(|l| l.starts_with("info depth")).expect("an info line");
    let words: Vec<&str> = info.split_whitespace().collect();
    let at = words.iter().position(|&w| w == key).unwrap_or_else(|| panic!("no {key} in {info}"));
    words[at + 1].parse().unwrap()
}

/// The micro training config of `tests/micro.toml` for `game`, with `games` games a
/// generation (a 2×16 net, a few simulations): seconds per generation.
pub fn micro_config(game: &str, games: u64) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/micro.toml");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.replace("game = \"xiangqi\"", &format!("game = \"{game}\""))
        .replace("games_per_generation = 4", &format!("games_per_generation = {games}"))
}

//! The NNUE's training loop: games by the current player give labelled positions that
//! read back as written; a tiny run (`train --config` with an `[nnue]` table) writes its
//! net, state and metrics, refuses to start over a run, resumes to more generations,
//! and its net plays as `nnue:FILE` and tells `export --info` where it comes from.

use std::io::Write;
use std::process::Command;

use xiangqi_zero::game::xiangqi::Rules;
use xiangqi_zero::nnue::positions::{self, LabelledPosition};
use xiangqi_zero::nnue::selfplay::{play_game, GameSettings};
use xiangqi_zero::search::evaluation::PieceSquares;
use xiangqi_zero::search::Limits;
use xiangqi_zero::train::{read_nnue_metrics, read_nnue_state};

fn binary() -> Command {
    Command::new(env!("CARGO_BIN_EXE_xiangqi-zero"))
}

#[test]
fn games_give_quiet_labelled_positions_that_read_back() {
    let settings = GameSettings { limits: Limits::depth(2), random_plies: 6, max_plies: 200, rules: Rules::default() };
    let positions: Vec<LabelledPosition> = (0..3).flat_map(|seed| play_game(&PieceSquares, &settings, seed)).collect();
    assert!(positions.len() > 50, "{} positions", positions.len());
    for position in &positions {
        assert!(!position.board.in_check(position.board.side_to_move()));
        assert!((-1..=1).contains(&position.result));
        assert!(position.score.abs() <= 3000);
    }
    let dir = std::env::temp_dir().join(format!("xz-nnue-positions-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("positions.bin");
    positions::append(&path, &positions[..10]).unwrap();
    positions::append(&path, &positions[10..]).unwrap();
    assert_eq!(positions::read(&path).unwrap(), positions);
    std::fs::write(&path, [0u8; 47]).unwrap();
    assert!(positions::read(&path).unwrap_err().contains("whole number"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_tiny_run_trains_gates_resumes_and_plays() {
    let dir = std::env::temp_dir().join(format!("xz-nnue-run-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("tiny.toml");
    std::fs::write(
        &config,
        "name = \"tiny\"\n[nnue]\ngenerations = 1\ngames_per_generation = 4\ndepth = 2\nepochs = 1\n\
         gate_games = 2\ngate_depth = 1\n",
    )
    .unwrap();
    let run = dir.join("run");
    let train = |extra: &[&str]| {
        let output = binary()
            .args(["train", "--config", config.to_str().unwrap(), "--run", run.to_str().unwrap()])
            .args(extra)
            .output()
            .unwrap();
        (
            output.status.success(),
            String::from_utf8_lossy(&output.stdout).to_string() + &String::from_utf8_lossy(&output.stderr),
        )
    };
    let (ok, text) = train(&[]);
    assert!(ok, "{text}");
    assert!(text.contains("gen0001"), "{text}");
    assert!(run.join("nets/gen0001.nnue").exists());
    let (ok, text) = train(&[]);
    assert!(!ok && text.contains("--resume"), "{text}");
    // A second generation cut short: positions past the commit (a partial record last)
    // and its metrics line. The resume plays it again and keeps none of them.
    let positions_file = run.join("positions.bin");
    let written = positions::read(&positions_file).unwrap();
    positions::append(&positions_file, &written[..7]).unwrap();
    std::fs::OpenOptions::new().append(true).open(&positions_file).unwrap().write_all(&[1, 2, 3]).unwrap();
    let metrics = std::fs::read_to_string(run.join("metrics.jsonl")).unwrap();
    let cut = metrics.lines().next().unwrap().replace("\"generation\":1", "\"generation\":2");
    assert_ne!(cut, metrics.lines().next().unwrap());
    std::fs::write(run.join("metrics.jsonl"), format!("{metrics}{cut}\n")).unwrap();
    let (ok, text) = train(&["--resume", "--generations", "2"]);
    assert!(ok && text.contains("gen0002") && !text.contains("gen0001:"), "{text}");
    let lines = read_nnue_metrics(&run.join("metrics.jsonl")).unwrap();
    assert_eq!(lines.iter().map(|m| m.generation).collect::<Vec<_>>(), [1, 2]);
    let played: usize = lines.iter().map(|m| m.new_positions).sum();
    assert_eq!(positions::read(&positions_file).unwrap().len(), played);
    let state = std::fs::read_to_string(run.join("state.json")).unwrap();
    assert!(state.contains("\"generation\": 2"), "{state}");
    assert_eq!(std::fs::read_to_string(run.join("metrics.jsonl")).unwrap().lines().count(), 2);

    // The run's snapshot beside it is all it needs: with the directory gone, `--resume`
    // (no config) restores the generation and net, and goes on.
    let snapshot = dir.join("run.snapshot");
    assert!(std::fs::metadata(&snapshot).unwrap().len() < 8 << 20);
    let current = read_nnue_state(&run).unwrap().unwrap().current;
    std::fs::rename(&run, dir.join("lost")).unwrap();
    let output =
        binary().args(["train", "--resume", "--run", run.to_str().unwrap(), "--generations", "3"]).output().unwrap();
    let text = String::from_utf8_lossy(&output.stdout).to_string() + &String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success() && text.contains("restored generation 2"), "{text}");
    assert!(text.contains("gen0003") && !text.contains("gen0002:"), "{text}");
    let gated_against = current.as_deref().unwrap_or("the tables");
    assert!(text.contains(&format!("against {gated_against}:")), "gen 3 gates against the restored player: {text}");
    assert_eq!(std::fs::read_to_string(run.join("metrics.jsonl")).unwrap().lines().count(), 3);
    std::fs::remove_dir_all(&run).unwrap();
    std::fs::rename(dir.join("lost"), &run).unwrap();

    // The net plays a move through `uci`.
    let net = run.join("nets/gen0002.nnue");
    let mut child = binary()
        .args(["uci", "--player", &format!("nnue(depth=3):{}", net.display())])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"uci\nisready\nposition startpos\ngo depth 3\nquit\n").unwrap();
    let output = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.lines().any(|line| line.starts_with("bestmove ")), "{text}");

    // `export --info` says what it is and where it comes from.
    let output = binary().args(["export", "--info", net.to_str().unwrap()]).output().unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success() && text.contains("format: xiangqi-zero-nnue"), "{text}");
    assert!(text.contains("generation 2") && text.contains("positions of its own games"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_nnue_configs_and_missing_nets_are_refused_in_one_line() {
    let dir = std::env::temp_dir().join(format!("xz-nnue-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("bad.toml");
    for (text, expected) in [
        ("name = \"bad\"\n[nnue]\ngames = 4\n", "unknown field `games`"),
        ("name = \"bad\"\n[nnue]\nscore_weight = 2.0\n", "score_weight must be 0 to 1"),
        ("name = \"bad\"\n[nnue]\nepochs = 0\n", "epochs must be at least 1"),
    ] {
        std::fs::write(&config, text).unwrap();
        let output = binary()
            .args(["train", "--config", config.to_str().unwrap(), "--run", dir.join("run").to_str().unwrap()])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{text}: {stderr}");
        assert!(stderr.contains(expected), "{text}: {stderr}");
    }
    for (spec, expected) in [("nnue:/nonexistent.nnue", "/nonexistent.nnue"), ("nnue(depth=x)", "needs a number")] {
        let output = binary().args(["eval", "--a", spec, "--b", "random", "--games", "2"]).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{spec}: {stderr}");
        assert!(stderr.contains(expected), "{spec}: {stderr}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

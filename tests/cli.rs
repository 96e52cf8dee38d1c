//! The command line as a user or a script drives it: output formats and exit codes.

mod common;

use std::process::Output;

use common::{assert_fails, run, TempDir};

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn perft_prints_the_total() {
    let output = run(&["perft", "--fen", "startpos", "--depth", "3"]);
    assert!(output.status.success());
    assert_eq!(stdout(&output), "Nodes searched: 79666\n");
}

#[test]
fn perft_divide_lists_sorted_moves_then_the_total() {
    let fen = "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1";
    let output = run(&["perft", "--fen", fen, "--depth", "2", "--divide"]);
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 31, "{text}");
    assert_eq!(*lines.last().unwrap(), "Nodes searched: 830");
    let moves: Vec<&str> = lines[..30].iter().map(|l| l.split(':').next().unwrap()).collect();
    let mut sorted = moves.clone();
    sorted.sort();
    assert_eq!(moves, sorted);
    let sum: u64 = lines[..30].iter().map(|l| l.split(": ").nth(1).unwrap().parse::<u64>().unwrap()).sum();
    assert_eq!(sum, 830);
}

#[test]
fn status_reports_result_reason_and_ply() {
    let fen = "3k5/R8/9/9/9/9/9/9/9/5K3 w - - 0 1";
    let cycle = ["a8a9", "d9d8", "a9a8", "d8d9"];
    let mut args = vec!["status", "--fen", fen, "--moves"];
    for _ in 0..2 {
        args.extend(cycle);
    }
    assert_eq!(stdout(&run(&args)), "0-1 perpetual-check 8\n");
    args.extend(["--repetition", "repeater-loses"]);
    assert_eq!(stdout(&run(&args)), "1-0 repetition 8\n");
    let draw: Vec<&str> = args[..args.len() - 2].iter().copied().chain(["--repetition", "draw"]).collect();
    assert_eq!(stdout(&run(&draw)), "1/2-1/2 repetition 8\n");
}

#[test]
fn status_of_the_start_and_of_a_mate() {
    assert_eq!(stdout(&run(&["status"])), "ongoing\n");
    assert_eq!(stdout(&run(&["status", "--moves", "h2e2", "h9g7"])), "ongoing\n");
    // Mates in one from tests/data/xiangqi-mates-public.jsonl; the second ends in
    // stalemate, which loses too.
    let mate = run(&["status", "--fen", "6b2/5k3/8r/4n1P2/9/9/p8/3KB4/9/9 b - - 6 40", "--moves", "i7d7"]);
    assert_eq!(stdout(&mate), "0-1 checkmate 1\n");
    let stalemate = run(&["status", "--fen", "4k4/2R6/9/9/4P1P1P/9/9/3KB3B/4A4/3A5 w - - 27 39", "--moves", "c8f8"]);
    assert_eq!(stdout(&stalemate), "1-0 stalemate 1\n");
}

#[test]
fn no_capture_limit_draws() {
    let fen = "3k5/9/9/9/9/9/9/9/9/5K3 w - - 118 80";
    assert_eq!(stdout(&run(&["status", "--fen", fen, "--moves", "f0f1"])), "ongoing\n");
    assert_eq!(stdout(&run(&["status", "--fen", fen, "--moves", "f0f1", "d9d8"])), "1/2-1/2 no-capture 2\n");
}

#[test]
fn bad_input_fails_with_one_line_and_code_two() {
    assert_fails(&["perft", "--fen", "not a fen", "--depth", "2"], "invalid position");
    assert_fails(&["perft", "--fen", "startpos", "--depth", "0"], "depth");
    assert_fails(&["perft", "--fen", "startpos", "--depth", "x"], "depth");
    assert_fails(&["perft", "--depth", "2", "--frobnicate"], "--frobnicate");
    assert_fails(&["status", "--moves", "h2e2", "h2e2"], "illegal move `h2e2`");
    assert_fails(&["status", "--moves", "zz"], "malformed move `zz`");
    assert_fails(&["status", "--repetition", "sometimes"], "sometimes");
    assert_fails(&["frobnicate"], "frobnicate");
    // A missing argument is named on the one line, not on a second one that is cut.
    assert_fails(&["perft"], "not provided: --depth <DEPTH>");
    assert_fails(&["export"], "not provided: --checkpoint <PATH>");
}

#[test]
fn moves_after_the_end_are_refused() {
    let fen = "6b2/5k3/8r/4n1P2/9/9/p8/3KB4/9/9 b - - 6 40";
    assert_fails(&["status", "--fen", fen, "--moves", "i7d7", "d2d1"], "already over");
}

#[test]
fn eval_refuses_a_repetition_rule_the_game_does_not_have() {
    assert_fails(
        &["eval", "--a", "random", "--b", "random", "--games", "2", "--repetition", "sometimes"],
        "repetition",
    );
    let banqi = ["eval", "--game", "banqi", "--a", "random", "--b", "random", "--games", "2", "--repetition", "asian"];
    assert_fails(&banqi, "Banqi has `draw` or `repeater-loses`");
}

#[test]
fn eval_says_when_games_outnumber_its_openings_and_they_repeat() {
    let dir = TempDir::new("eval-repeats");
    let openings = dir.join("one.txt");
    std::fs::write(&openings, "h2e2 h9g7\n").unwrap();
    let out = dir.join("games");
    let openings = openings.to_str().unwrap();
    let players = ["--a", "alphabeta:depth=1", "--b", "alphabeta:depth=1", "--max-plies", "30", "--openings", openings];
    let four = run(&[&["eval", "--games", "4", "--out", out.to_str().unwrap()][..], &players].concat());
    assert!(four.status.success(), "{}", String::from_utf8_lossy(&four.stderr));
    let note = "4 games from 1 openings: games beyond the first 2 repeat earlier starts";
    assert!(String::from_utf8_lossy(&four.stderr).contains(note), "{}", String::from_utf8_lossy(&four.stderr));
    // What the note says: deterministic players replay the first pair move for move.
    let games = std::fs::read_to_string(out.join("games.jsonl")).unwrap();
    let moves: Vec<serde_json::Value> =
        games.lines().map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap()["moves"].clone()).collect();
    assert_eq!(moves.len(), 4);
    assert_eq!(moves[2..], moves[..2]);
    let two = run(&[&["eval", "--games", "2"][..], &players].concat());
    assert!(two.status.success());
    assert!(!String::from_utf8_lossy(&two.stderr).contains("note:"), "{}", String::from_utf8_lossy(&two.stderr));
}

#[test]
fn eval_says_when_one_player_is_limited_by_time_alone() {
    let (timed, fixed) = ("alphabeta:ms=20", "alphabeta:depth=1");
    let play = |a: &str, b: &str, more: &[&str]| {
        let output = run(&[&["eval", "--a", a, "--b", b, "--games", "2", "--max-plies", "10"][..], more].concat());
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let note = "is limited by time alone (20 ms a move) and the other is not";
    let told = play(fixed, timed, &[]);
    assert!(told.contains(&format!("player B {note}")), "{told}");
    assert!(play(timed, fixed, &[]).contains(&format!("player A {note}")));
    // Equal kinds of budget, or one time for both: nothing to say.
    assert!(!play(fixed, fixed, &[]).contains("limited by time"));
    assert!(!play(timed, timed, &[]).contains("limited by time"));
    assert!(!play(fixed, timed, &["--movetime", "20"]).contains("limited by time"));
}

#[test]
fn a_match_at_one_time_names_its_players_by_it() {
    let output = run(&[
        "eval",
        "--a",
        "alphabeta:depth=1",
        "--b",
        "nnue",
        "--games",
        "2",
        "--max-plies",
        "6",
        "--movetime",
        "20",
    ]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let table = String::from_utf8_lossy(&output.stdout);
    assert!(table.contains("alphabeta:ms=20 ") && table.contains("nnue(ms=20) "), "{table}");
    assert!(!table.contains("depth=1") && !table.contains("ms=1000"), "{table}");
}

//! `perft` and `bench movegen` with `--game banqi`, as a user or a script drives them.

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xiangqi-zero")).args(args).output().expect("the binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn perft_from_the_start() {
    for (depth, nodes) in [("1", 448), ("2", 192_448), ("3", 78_989_568)] {
        let output = run(&["perft", "--game", "banqi", "--depth", depth]);
        assert!(output.status.success());
        assert_eq!(stdout(&output), format!("Nodes searched: {nodes}\n"));
    }
    let explicit = run(&["perft", "--game", "banqi", "--fen", "startpos", "--depth", "1"]);
    assert_eq!(stdout(&explicit), "Nodes searched: 448\n");
}

#[test]
fn divide_lists_each_flip_once_with_its_outcomes_summed() {
    let output = run(&["perft", "--game", "banqi", "--depth", "1", "--divide"]);
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 33, "{text}");
    assert_eq!(lines[0], "a1a1: 14");
    assert_eq!(lines[31], "d8d8: 14");
    assert_eq!(lines[32], "Nodes searched: 448");
    let state = "rG1p/1X1P/R3/NCm1/pMpm/PNg1/1n2/1GMR b g 5 65";
    let output = run(&["perft", "--game", "banqi", "--fen", state, "--depth", "3", "--divide"]);
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(*lines.last().unwrap(), "Nodes searched: 4863");
    let moves: Vec<&str> = lines[..lines.len() - 1].iter().map(|l| l.split(':').next().unwrap()).collect();
    assert_eq!(moves.len(), 16, "perft(1) of this state is 16: {text}");
    let mut sorted = moves.clone();
    sorted.sort();
    assert_eq!(moves, sorted);
    assert!(moves.contains(&"b7b7"), "the flip is listed once");
}

#[test]
fn malformed_states_fail_in_one_line_with_exit_2() {
    for state in ["XXXX/XXXX - - 0 0", "nonsense", "XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX - KGG 0 0", ""] {
        let output = run(&["perft", "--game", "banqi", "--fen", state, "--depth", "1"]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{state}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{state}: {stderr}");
        assert!(stderr.contains("invalid position"), "{state}: {stderr}");
    }
    // A Xiangqi FEN is no Banqi state, and the other way round.
    let xiangqi = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    assert_eq!(run(&["perft", "--game", "banqi", "--fen", xiangqi, "--depth", "1"]).status.code(), Some(2));
    let banqi = "XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX - KGGMMRRNNCCPPPPPkggmmrrnnccppppp 0 0";
    assert_eq!(run(&["perft", "--fen", banqi, "--depth", "1"]).status.code(), Some(2));
}

#[test]
fn bench_movegen_banqi_prints_nodes_per_second() {
    let output = run(&["bench", "movegen", "--game", "banqi", "--depth", "3", "--runs", "1"]);
    assert!(output.status.success());
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(lines[0].starts_with("movegen banqi perft(3) startpos: ") && lines[0].contains("M nodes/s"), "{text}");
    assert!(lines[1].contains("M positions made/s"), "{text}");
}

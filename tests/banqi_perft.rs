//! Banqi perft: the start position's counts, every line of the independent reference
//! data, and the fast perft against the generic one over the `Game` trait.

mod common;

use serde::Deserialize;
use xiangqi_zero::game::banqi::{perft as fast, Banqi, Board};
use xiangqi_zero::game::{perft, Game};

#[derive(Deserialize)]
struct Line {
    state: String,
    perft1: u64,
    perft2: u64,
    perft3: Option<u64>,
}

fn lines() -> Vec<Line> {
    common::read_jsonl("banqi-perft-public.jsonl")
}

#[test]
fn start_position_perft() {
    let start = Banqi::start();
    assert_eq!(start.perft(1), 448);
    assert_eq!(start.perft(2), 192_448);
    assert_eq!(start.perft(3), 78_989_568);
    assert_eq!(fast::perft(&Board::start(), 3), 78_989_568);
}

#[test]
fn generic_perft_agrees_at_the_start() {
    let start = Banqi::start();
    assert_eq!(perft::perft(&start, 2), 192_448);
    let divided = perft::divide(&start, 2);
    assert_eq!(divided.len(), 32, "each flip listed once");
    assert!(divided.iter().all(|(mv, count)| mv.len() == 4 && *count == 192_448 / 32));
}

#[test]
fn every_public_line() {
    let lines = lines();
    assert_eq!(lines.len(), 300);
    for line in &lines {
        let game = Banqi::from_text(&line.state).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(game.to_text(), line.state, "state text round-trips");
        assert_eq!(game.perft(1), line.perft1, "perft(1) of {}", line.state);
        assert_eq!(game.perft(2), line.perft2, "perft(2) of {}", line.state);
        if let Some(perft3) = line.perft3 {
            assert_eq!(game.perft(3), perft3, "perft(3) of {}", line.state);
        }
    }
}

#[test]
fn generic_perft_agrees_on_public_lines() {
    for line in lines().iter().step_by(7) {
        let game = Banqi::from_text(&line.state).expect("valid");
        assert_eq!(perft::perft(&game, 2), line.perft2, "{}", line.state);
        let divided: u64 = perft::divide(&game, 2).iter().map(|(_, count)| count).sum();
        assert_eq!(divided, line.perft2, "{}", line.state);
    }
}

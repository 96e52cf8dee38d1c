//! Perft against published counts (`tests/data/xiangqi-perft.jsonl`).

mod common;

use serde::Deserialize;
use xiangqi_zero::game::xiangqi::{perft, Board, Xiangqi};
use xiangqi_zero::game::Game;

#[derive(Deserialize)]
struct Entry {
    fen: String,
    depth: u32,
    nodes: u64,
}

fn entries() -> Vec<Entry> {
    common::read_jsonl("xiangqi-perft.jsonl")
}

/// Every published count up to `max_nodes` nodes.
fn check_up_to(min_nodes: u64, max_nodes: u64) {
    for entry in entries().iter().filter(|e| e.nodes >= min_nodes && e.nodes < max_nodes) {
        let game = Xiangqi::from_text(&entry.fen).unwrap();
        assert_eq!(game.perft(entry.depth), entry.nodes, "perft({}) of {}", entry.depth, entry.fen);
    }
}

#[test]
fn published_counts_below_ten_million() {
    check_up_to(0, 10_000_000);
}

#[test]
fn published_counts_ten_to_sixty_million() {
    check_up_to(10_000_000, 60_000_000);
}

#[test]
fn published_counts_above_sixty_million() {
    check_up_to(60_000_000, u64::MAX);
}

#[test]
fn start_position_to_depth_five() {
    let board = Board::start();
    let expected = [44, 1920, 79666, 3290240, 133312995];
    for (depth, &nodes) in (1..).zip(expected.iter()) {
        assert_eq!(perft::perft(&board, depth), nodes, "depth {depth}");
    }
}

#[test]
fn divide_sums_to_perft_and_is_sorted() {
    let game = Xiangqi::start();
    let counts = xiangqi_zero::game::perft::divide(&game, 3);
    assert_eq!(counts.len(), 44);
    assert_eq!(counts.iter().map(|(_, n)| n).sum::<u64>(), 79666);
    assert!(counts.windows(2).all(|w| w[0].0 < w[1].0));
}

//! How the benchmarks measure: medians of timed runs, rates, ratios to a peer, and the
//! positions they time.

use std::time::{Duration, Instant};

use xiangqi_zero::game::xiangqi::Xiangqi;
use xiangqi_zero::game::Game;

/// The median of `values` (the upper one of an even count), as every figure here.
pub(super) fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// The median over `runs` timed runs of `count`'s nodes per second.
pub(super) fn median_rate(runs: u32, count: impl Fn() -> u64) -> f64 {
    let rates: Vec<f64> = (0..runs)
        .map(|_| {
            let started = Instant::now();
            let nodes = count();
            nodes as f64 / started.elapsed().as_secs_f64()
        })
        .collect();
    median(rates)
}

/// `, 1.23x NAME` when the peer was measured, else nothing.
pub(super) fn versus(ours: f64, peer: Option<f64>, name: &str) -> String {
    peer.map_or(String::new(), |theirs| format!(", {:.2}x {name}", ours / theirs))
}

/// The median over `runs` runs of the positions per second of `step`, which handles
/// `batch` positions; each run repeats `step` for about half a second after a warm-up.
pub(super) fn timed_rate(runs: u32, batch: usize, mut step: impl FnMut()) -> f64 {
    step();
    let rates: Vec<f64> = (0..runs)
        .map(|_| {
            let started = Instant::now();
            let mut done = 0;
            while done == 0 || started.elapsed() < Duration::from_millis(500) {
                step();
                done += batch;
            }
            done as f64 / started.elapsed().as_secs_f64()
        })
        .collect();
    median(rates)
}

/// `count` positions along games of middle legal moves (restarting when one ends), as
/// self-play would meet them.
pub(super) fn reference_games(count: usize) -> Vec<Xiangqi> {
    let mut game = Xiangqi::start();
    let mut moves = Vec::new();
    let mut games = Vec::with_capacity(count);
    for _ in 0..count {
        games.push(game.clone());
        game.legal_moves(&mut moves);
        if moves.is_empty() || game.status().is_over() {
            game = Xiangqi::start();
        } else {
            game.play(moves[moves.len() / 2]);
        }
    }
    games
}

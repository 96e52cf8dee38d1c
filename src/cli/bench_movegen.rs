//! `bench movegen`: perft speed from the start position (Xiangqi, Banqi), and a UCI
//! engine's on the same perft in the same runs.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::bail;

use super::bench_peer::{Engine, Protocol};
use super::bench_stats::{median, median_rate, versus};
use xiangqi_zero::game::banqi;
use xiangqi_zero::game::xiangqi::{perft, Board};

/// Perft speed from the start position, and the engine's on the same perft in the same
/// runs (started once, with its answer timeout) when one is given.
pub(super) fn movegen(depth: u32, runs: u32, engine: Option<(PathBuf, Duration)>) -> anyhow::Result<()> {
    let board = Board::start();
    let mut peer = engine.map(|(path, timeout)| Engine::start(&path, Protocol::Uci, timeout)).transpose()?;
    // Each run times ours, then the engine's, so that both see the same machine.
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    let mut nodes = 0;
    for _ in 0..runs {
        let started = Instant::now();
        nodes = perft::perft(&board, depth);
        ours.push(nodes as f64 / started.elapsed().as_secs_f64());
        if let Some(engine) = &mut peer {
            let (counted, elapsed) = engine.perft(depth)?;
            if counted != nodes {
                bail!("{} counts {counted} nodes at perft({depth}) from the start, we count {nodes}", engine.name);
            }
            theirs.push(counted as f64 / elapsed.as_secs_f64());
        }
    }
    let ours = median(ours);
    let theirs = peer.as_ref().map(|_| median(theirs));
    let name = peer.as_ref().map_or("", |engine| engine.name.as_str());
    println!(
        "movegen perft({depth}) startpos: {:.1}M nodes/s (median of {runs}){}",
        ours / 1e6,
        versus(ours, theirs, name)
    );
    match theirs {
        Some(theirs) => println!(
            "movegen perft({depth}) startpos, {name} in the same runs: {:.1}M nodes/s (median of {runs}, {nodes} nodes as ours)",
            theirs / 1e6
        ),
        None => println!("movegen peer: none measured (pass --vs-engine PATH to compare with Pikafish)"),
    }
    Ok(())
}

/// Banqi perft speed. Leaves are counted in bulk (a flip counts once per piece it could
/// reveal), so the second line gives the positions actually made per second as well.
pub(super) fn banqi_movegen(depth: u32, runs: u32) {
    let board = banqi::Board::start();
    let median = median_rate(runs, || banqi::perft::perft(&board, depth));
    let leaves = banqi::perft::perft(&board, depth) as f64;
    let made: u64 = (1..depth).map(|d| banqi::perft::perft(&board, d)).sum();
    println!("movegen banqi perft({depth}) startpos: {:.1}M nodes/s (median of {runs})", median / 1e6);
    println!("movegen banqi perft({depth}) startpos: {:.1}M positions made/s", median * made as f64 / leaves / 1e6);
}

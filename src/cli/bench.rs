//! `bench`: speed figures, one per line.

use std::time::Instant;

use clap::{Args as ClapArgs, Subcommand};

use xiangqi_zero::game::xiangqi::{perft, Board};

/// Arguments of `bench`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    #[command(subcommand)]
    what: What,
}

#[derive(Subcommand, Debug)]
enum What {
    /// Nodes/s of perft from the start position on one thread (median of several runs).
    Movegen {
        /// Perft depth.
        #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=7))]
        depth: u32,
        /// Number of timed runs; the median is reported.
        #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=100))]
        runs: u32,
    },
}

/// Pikafish's perft speed on one core of the reference machines (nodes/s).
const PIKAFISH_NPS: f64 = 89e6;

/// Runs `bench`.
pub fn run(args: Args) -> anyhow::Result<()> {
    match args.what {
        What::Movegen { depth, runs } => movegen(depth, runs),
    }
    Ok(())
}

fn movegen(depth: u32, runs: u32) {
    let board = Board::start();
    let mut rates: Vec<f64> = (0..runs)
        .map(|_| {
            let started = Instant::now();
            let nodes = perft::perft(&board, depth);
            nodes as f64 / started.elapsed().as_secs_f64()
        })
        .collect();
    rates.sort_by(f64::total_cmp);
    let median = rates[rates.len() / 2];
    println!(
        "movegen perft({depth}) startpos: {:.1}M nodes/s (median of {runs}), {:.2}x Pikafish",
        median / 1e6,
        median / PIKAFISH_NPS
    );
}

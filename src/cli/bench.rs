//! `bench`: speed figures, one per line.

use std::time::{Duration, Instant};

use clap::{Args as ClapArgs, Subcommand};

use super::GameKind;
use xiangqi_zero::game::banqi;
use xiangqi_zero::game::xiangqi::{perft, Board, Xiangqi};
use xiangqi_zero::game::Game;
use xiangqi_zero::search::xiangqi::AlphaBeta;
use xiangqi_zero::search::Limits;

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
        /// The game.
        #[arg(long, value_enum, default_value_t = GameKind::Xiangqi)]
        game: GameKind,
        /// Perft depth (default 5 for Xiangqi, 4 for Banqi: about a second each).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=7))]
        depth: Option<u32>,
        /// Number of timed runs; the median is reported.
        #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=100))]
        runs: u32,
    },
    /// Alpha-beta nodes/s (quiescence nodes counted) from the start position on one
    /// thread at a fixed depth (median of several runs), and the depth reached in 1 s.
    Search {
        /// Depth of the timed searches.
        #[arg(long, default_value_t = 9, value_parser = clap::value_parser!(u32).range(1..=20))]
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
        What::Movegen { game: GameKind::Xiangqi, depth, runs } => movegen(depth.unwrap_or(5), runs),
        What::Movegen { game: GameKind::Banqi, depth, runs } => banqi_movegen(depth.unwrap_or(4), runs),
        What::Search { depth, runs } => search(depth, runs),
    }
    Ok(())
}

/// The median over `runs` timed runs of `count`'s nodes per second.
fn median_rate(runs: u32, count: impl Fn() -> u64) -> f64 {
    let mut rates: Vec<f64> = (0..runs)
        .map(|_| {
            let started = Instant::now();
            let nodes = count();
            nodes as f64 / started.elapsed().as_secs_f64()
        })
        .collect();
    rates.sort_by(f64::total_cmp);
    rates[rates.len() / 2]
}

fn movegen(depth: u32, runs: u32) {
    let board = Board::start();
    let median = median_rate(runs, || perft::perft(&board, depth));
    println!(
        "movegen perft({depth}) startpos: {:.1}M nodes/s (median of {runs}), {:.2}x Pikafish",
        median / 1e6,
        median / PIKAFISH_NPS
    );
}

/// Banqi perft speed. Leaves are counted in bulk (a flip counts once per piece it could
/// reveal), so the second line gives the positions actually made per second as well.
fn banqi_movegen(depth: u32, runs: u32) {
    let board = banqi::Board::start();
    let median = median_rate(runs, || banqi::perft::perft(&board, depth));
    let leaves = banqi::perft::perft(&board, depth) as f64;
    let made: u64 = (1..depth).map(|d| banqi::perft::perft(&board, d)).sum();
    println!("movegen banqi perft({depth}) startpos: {:.1}M nodes/s (median of {runs})", median / 1e6);
    println!("movegen banqi perft({depth}) startpos: {:.1}M positions made/s", median * made as f64 / leaves / 1e6);
}

/// ElephantEye's alpha-beta speed on one core of the reference machines (nodes/s,
/// quiescence nodes counted).
const ELEPHANTEYE_NPS: f64 = 4.5e6;

/// Alpha-beta speed from the start position, and the depth it reaches in one second.
fn search(depth: u32, runs: u32) {
    let game = Xiangqi::start();
    let mut searcher = AlphaBeta::new(16);
    let mut reports: Vec<_> = (0..runs)
        .map(|_| {
            // A cleared table per run, so every run searches the same tree.
            searcher.clear();
            searcher.search(&game, &Limits::depth(depth), &mut |_| {})
        })
        .collect();
    reports.sort_by(|a, b| (a.nodes as f64 / a.elapsed.as_secs_f64()).total_cmp(&(b.nodes as f64 / b.elapsed.as_secs_f64())));
    let (nodes, median) = {
        let report = &reports[reports.len() / 2];
        (report.nodes, report.nodes as f64 / report.elapsed.as_secs_f64())
    };
    println!(
        "search alphabeta depth {depth} startpos: {:.2}M nodes/s (median of {runs}, {nodes} nodes), {:.2}x ElephantEye",
        median / 1e6,
        median / ELEPHANTEYE_NPS
    );
    let mut reached = 0;
    searcher.clear();
    let report = searcher.search(&game, &Limits::movetime(Duration::from_secs(1)), &mut |r| reached = r.depth);
    println!("search alphabeta startpos in 1 s: depth {reached} ({} nodes)", report.nodes);
}

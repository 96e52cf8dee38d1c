//! `bench search`: alpha-beta speed from the start position and the depth one second
//! reaches, and an engine's at the same depth in the same runs.

use std::path::PathBuf;
use std::time::Duration;

use super::bench_peer::{Engine, Protocol};
use super::bench_stats::versus;
use xiangqi_zero::game::xiangqi::Rules;
use xiangqi_zero::game::xiangqi::Xiangqi;
use xiangqi_zero::game::Game;
use xiangqi_zero::matches::{builtin_openings, xiangqi_starts, OwnedOpening};
use xiangqi_zero::nnue::{Nnue, NnueEvaluation};
use xiangqi_zero::search::evaluation::Evaluation;
use xiangqi_zero::search::xiangqi::AlphaBeta;
use xiangqi_zero::search::Limits;

/// Alpha-beta speed from the start position, and the depth it reaches in one second;
/// and the engine's at the same depth in the same runs (a fresh process each run, with
/// its protocol and answer timeout) when one is given.
pub(super) fn search(depth: u32, runs: u32, engine: Option<(PathBuf, Protocol, Duration)>) -> anyhow::Result<()> {
    let game = Xiangqi::start();
    let mut searcher = AlphaBeta::new(16);
    // Each run times ours, then the engine's, so that both see the same machine; every
    // run searches the same tree (a cleared table, a fresh engine).
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    let mut name = String::new();
    for _ in 0..runs {
        searcher.clear();
        let report = searcher.search(&game, &Limits::depth(depth), &mut |_| {});
        ours.push((Some(report.nodes), report.elapsed));
        if let Some((path, protocol, timeout)) = &engine {
            let mut peer = Engine::start(path, *protocol, *timeout)?;
            theirs.push(peer.search(depth)?);
            name = std::mem::take(&mut peer.name);
        }
    }
    let (our_elapsed, counted) = median_search(ours);
    let (our_nodes, our_rate) = counted.unwrap_or_default();
    let theirs = engine.as_ref().map(|_| median_search(theirs));
    println!(
        "search alphabeta depth {depth} startpos: {:.2}M nodes/s (median of {runs}, {our_nodes} nodes in {} ms){}",
        our_rate / 1e6,
        our_elapsed.as_millis(),
        versus(our_rate, theirs.and_then(|t| t.1).map(|t| t.1), &name)
    );
    match theirs {
        Some((elapsed, Some((nodes, rate)))) => println!(
            "search {name} depth {depth} startpos in the same runs: {:.2}M nodes/s (median of {runs}, {nodes} nodes in {} ms)",
            rate / 1e6,
            elapsed.as_millis()
        ),
        Some((elapsed, None)) => println!(
            "search {name} depth {depth} startpos in the same runs: {} ms to depth {depth} (median of {runs}); it printed no node count, so no nodes/s ratio",
            elapsed.as_millis()
        ),
        None => println!(
            "search peer: none measured (pass --vs-engine PATH [--protocol ucci] to compare with Pikafish or ElephantEye)"
        ),
    }
    let mut reached = 0;
    searcher.clear();
    let report = searcher.search(&game, &Limits::movetime(Duration::from_secs(1)), &mut |r| reached = r.depth);
    println!("search alphabeta startpos in 1 s: depth {reached} ({} nodes)", report.nodes);
    Ok(())
}

/// Nodes/s of the alpha-beta with the NNUE in `file` and with the hand-written tables,
/// each searching every built-in opening's position to `depth` in turn, run after run
/// (medians of `runs`); and the NNUE's share of the tables' speed.
pub(super) fn nnue_search(file: &std::path::Path, depth: u32, runs: u32) -> anyhow::Result<()> {
    let net = std::sync::Arc::new(Nnue::load(file).map_err(|e| anyhow::anyhow!(e))?);
    let openings: Vec<OwnedOpening> = builtin_openings().iter().map(OwnedOpening::from).collect();
    let positions: Vec<Xiangqi> = xiangqi_starts(&openings, Rules::default())
        .map_err(|e| anyhow::anyhow!(e))?
        .into_iter()
        .map(|start| start.game)
        .collect();
    let (mut tables, mut nnue) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        tables.push(time_positions(AlphaBeta::new(16), &positions, depth));
        nnue.push(time_positions(AlphaBeta::with_evaluation(NnueEvaluation::new(net.clone()), 16), &positions, depth));
    }
    let median = |mut rates: Vec<(u64, Duration)>| {
        rates.sort_by(|a, b| (a.0 as f64 / a.1.as_secs_f64()).total_cmp(&(b.0 as f64 / b.1.as_secs_f64())));
        let (nodes, elapsed) = rates[rates.len() / 2];
        (nodes, elapsed, nodes as f64 / elapsed.as_secs_f64())
    };
    let ((t_nodes, t_time, t_rate), (n_nodes, n_time, n_rate)) = (median(tables), median(nnue));
    println!(
        "search alphabeta depth {depth}, {} opening positions: hand-written tables {:.2}M nodes/s ({t_nodes} nodes in {} ms), \
         NNUE {:.2}M nodes/s ({n_nodes} nodes in {} ms): {:.0}% of the tables' speed (medians of {runs}, by turns)",
        positions.len(),
        t_rate / 1e6,
        t_time.as_millis(),
        n_rate / 1e6,
        n_time.as_millis(),
        100.0 * n_rate / t_rate
    );
    Ok(())
}

/// Nodes and time of `searcher` searching each of `positions` to `depth` (its table
/// cleared before each).
fn time_positions<E: Evaluation>(mut searcher: AlphaBeta<E>, positions: &[Xiangqi], depth: u32) -> (u64, Duration) {
    positions.iter().fold((0, Duration::ZERO), |(nodes, elapsed), game| {
        searcher.clear();
        let report = searcher.search(game, &Limits::depth(depth), &mut |_| {});
        (nodes + report.nodes, elapsed + report.elapsed)
    })
}

/// The median run of a search bench, given each run's node count (if it printed one) and
/// time: by nodes/s when every run counted its nodes (that run's time, nodes and
/// nodes/s), else by time alone.
fn median_search(mut runs: Vec<(Option<u64>, Duration)>) -> (Duration, Option<(u64, f64)>) {
    let rate = |(nodes, elapsed): (u64, Duration)| nodes as f64 / elapsed.as_secs_f64();
    let counted: Option<Vec<(u64, Duration)>> = runs.iter().map(|&(nodes, elapsed)| Some((nodes?, elapsed))).collect();
    match counted {
        Some(mut counted) => {
            counted.sort_by(|&a, &b| rate(a).total_cmp(&rate(b)));
            let (nodes, elapsed) = counted[counted.len() / 2];
            (elapsed, Some((nodes, rate((nodes, elapsed)))))
        }
        None => {
            runs.sort_by_key(|run| run.1);
            (runs[runs.len() / 2].1, None)
        }
    }
}

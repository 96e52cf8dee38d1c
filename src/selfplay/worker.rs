//! A generation's self-play: worker threads, each a [`Driver`] advancing many games at
//! once with its own copy of the network evaluator, together playing a set number of
//! games and writing their samples as shards. Threads: see [`on_worker_threads`].

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use super::collector::{Collector, Tally};
use super::job::SelfPlayJob;
use super::progress::{SelfPlayProgress, SelfPlayReport};
use super::settings::SelfPlaySettings;
use super::shard::ShardError;
use super::threads::on_worker_threads;
use crate::mcts::{Driver, Evaluator, SearchConfig};
use crate::nn::Encoding;

/// What one worker did.
struct WorkerDone {
    tally: Tally,
    simulations: u64,
    stopped: bool,
}

/// Plays `job.games` games of self-play with `evaluator` (a network's, or a built-in
/// heuristic's; cloned for each worker) under
/// `search` and `settings`, writing them to `job.out_dir` as shards named
/// `{prefix}-{unix millis}-{host}-{pid}-{worker}-{seq}.npz`, each with its games as `.pgn`
/// beside it, and adding to `progress` as it goes.
///
/// Once `stop` turns true the workers start no more moves, write every finished game
/// still waiting and return (games in flight are lost); the report then says `stopped`.
/// A shard that cannot be written stops every worker and is the error returned. A game
/// over before its first move counts towards `job.games` but is not written (it has no
/// sample), so the report's `games` can fall short of `job.games` only then or on a stop.
pub fn play_games<G: Encoding, E: Evaluator<G> + Clone + Send + Sync>(
    evaluator: E,
    search: &SearchConfig,
    settings: &SelfPlaySettings,
    job: &SelfPlayJob<G>,
    stop: &AtomicBool,
    progress: &SelfPlayProgress,
) -> Result<SelfPlayReport, ShardError> {
    let started = Instant::now();
    crate::storage::create_dir(&job.out_dir)
        .map_err(|e| ShardError::Write { path: job.out_dir.clone(), why: e.to_string() })?;
    let workers = settings.workers().min(usize::try_from(job.games).unwrap_or(usize::MAX));
    let failed = AtomicBool::new(false);
    let done = on_worker_threads(workers, |worker| {
        let games = job.games / workers as u64 + u64::from((worker as u64) < job.games % workers as u64);
        let result = run_worker(evaluator.clone(), search, settings, job, worker, games, stop, &failed, progress);
        if result.is_err() {
            failed.store(true, Ordering::Relaxed);
        }
        result
    });
    let mut report = SelfPlayReport { seconds: started.elapsed().as_secs_f64(), ..SelfPlayReport::default() };
    let mut plies = 0;
    for worker in done {
        let WorkerDone { tally, simulations, stopped } = worker?;
        report.games += tally.games;
        report.samples += tally.samples;
        plies += tally.plies;
        report.first_wins += tally.results[0];
        report.draws += tally.results[1];
        report.second_wins += tally.results[2];
        report.moves += tally.moves;
        report.simulations += simulations;
        report.stopped |= stopped;
    }
    report.mean_plies = if report.games == 0 { 0.0 } else { plies as f64 / report.games as f64 };
    Ok(report)
}

/// Worker `worker`'s share: `games` games, until done, stopped, or another worker failed.
#[allow(clippy::too_many_arguments)] // the run's settings, passed through from `play_games`
fn run_worker<G: Encoding, E: Evaluator<G>>(
    evaluator: E,
    search: &SearchConfig,
    settings: &SelfPlaySettings,
    job: &SelfPlayJob<G>,
    worker: usize,
    games: u64,
    stop: &AtomicBool,
    failed: &AtomicBool,
    progress: &SelfPlayProgress,
) -> Result<WorkerDone, ShardError> {
    let new_game = Arc::clone(&job.new_game);
    let seed = job.seed ^ (worker as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let mut driver = Driver::new(search.clone(), evaluator, settings.parallel_games, seed, move |rng| new_game(rng));
    driver.limit_games(games);
    driver.set_max_plies(settings.max_plies);
    let mut collector = Collector::<G>::new(job, worker, settings);
    let mut stopped = false;
    loop {
        if stop.load(Ordering::Relaxed) || failed.load(Ordering::Relaxed) {
            stopped = true;
            break;
        }
        let before = driver.simulations();
        let going = driver.step(&mut |event| collector.take(event, progress));
        SelfPlayProgress::add(&progress.simulations, driver.simulations() - before);
        if collector.waiting() >= settings.shard_samples {
            collector.write(progress)?;
        }
        if !going {
            break;
        }
    }
    collector.write(progress)?;
    Ok(WorkerDone { tally: collector.tally, simulations: driver.simulations(), stopped })
}

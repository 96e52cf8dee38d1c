//! `bench mcts`: simulations per second of one search, with an evaluator of known cost.

use std::time::{Duration, Instant};

use super::bench_stats::{median_rate, timed_rate};
use xiangqi_zero::game::xiangqi::Xiangqi;
use xiangqi_zero::game::Game;

/// A real middlegame (Black to move, 41 legal moves) for `bench mcts`.
const MCTS_MIDDLEGAME: &str = "r1bak4/n3a3r/8b/2pc4n/P7P/2P1p4/5Cp1R/4B1N2/c2CA4/RN1AK4 b - - 6 34";

/// An evaluator that spins for a fixed time per position (flat priors, value 0): a
/// stand-in for a network whose cost is known.
struct Spinning(Duration);

impl<G: Game> xiangqi_zero::mcts::Evaluator<G> for Spinning {
    fn evaluate(&mut self, batch: &mut xiangqi_zero::mcts::Batch<G>) {
        for i in 0..batch.len() {
            let started = Instant::now();
            batch.priors_mut(i).fill(1.0);
            batch.set_value(i, xiangqi_zero::mcts::Wdl::DRAW);
            while started.elapsed() < self.0 {
                std::hint::spin_loop();
            }
        }
    }
}

/// MCTS speed (see `What::Mcts`).
pub(super) fn mcts(sims: u32, runs: u32, batch: usize, cost_us: u64) -> anyhow::Result<()> {
    use xiangqi_zero::mcts::{Batch, Budget, Driver, Evaluator, Search, SearchConfig, UniformEvaluator};

    let game = Xiangqi::from_text(MCTS_MIDDLEGAME)?;
    let config = SearchConfig::default();
    // One search object, reset for each run: its tree's memory is reused, as in play.
    let search = std::cell::RefCell::new(Search::new(game.clone(), config.clone(), 1));
    let rate = median_rate(runs, || {
        let mut search = search.borrow_mut();
        search.reset(game.clone());
        search.run(&mut UniformEvaluator::new(), &Budget::simulations(sims)).simulations as u64
    });
    println!(
        "mcts tree xiangqi middlegame: {:.0}k simulations/s (evaluator costing nothing, batch {}, {sims} per search, median of {runs}), {:.2}x the 300k aim",
        rate / 1e3,
        config.batch_size,
        rate / 300e3
    );

    let cost = Duration::from_micros(cost_us);
    let mut positions = Batch::new();
    for _ in 0..batch {
        positions.push(&game);
    }
    let mut spinning = Spinning(cost);
    // Self-play as training runs it, one game per batch slot.
    let config = SearchConfig { batch_size: batch, ..SearchConfig::training() };
    let mut driver = Driver::new(config, Spinning(cost), batch, 1, |_| Xiangqi::start());
    driver.set_max_plies(200);
    // Each run times the evaluator alone, then the driver, so that both see the same
    // machine; the median run by ratio is reported.
    let mut runs: Vec<(f64, f64)> = (0..runs)
        .map(|_| {
            let evaluator_rate = timed_rate(1, batch, || spinning.evaluate(&mut positions));
            let (started, before) = (Instant::now(), driver.simulations());
            while started.elapsed() < Duration::from_millis(1000) {
                driver.step(&mut |_| {});
            }
            ((driver.simulations() - before) as f64 / started.elapsed().as_secs_f64(), evaluator_rate)
        })
        .collect();
    runs.sort_by(|a, b| (a.0 / a.1).total_cmp(&(b.0 / b.1)));
    let (driver_rate, evaluator_rate) = runs[runs.len() / 2];
    println!(
        "mcts driver xiangqi self-play, {batch} games, batch {batch}, evaluator {cost_us} us/position: {:.3}x the evaluator's positions/s ({:.0} simulations/s vs {:.0}; aim 0.9)",
        driver_rate / evaluator_rate,
        driver_rate,
        evaluator_rate
    );
    Ok(())
}

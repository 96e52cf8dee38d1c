//! A first estimate of a run's time, before any generation is timed: a moment of each
//! kind of self-play and a few training steps on this machine, scaled to the run's
//! generations by a typical game length.
//!
//! It is rough (game lengths vary with the nets; evaluations are counted by the net's
//! moves alone), so [`super::Forecast`] uses it only for what the run has not yet timed
//! and says so.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use burn::tensor::Device;

use super::config::Config;
use super::game::TrainableGame;
use super::net_evaluator::net_evaluator;
use super::{Batch, Trainer};
use crate::mcts::Evaluator;
use crate::nn::Net;
use crate::selfplay::{play_games, SelfPlayJob, SelfPlayProgress};

/// How long each kind of self-play is watched.
const SELFPLAY_PROBE: Duration = Duration::from_millis(700);

/// Training steps timed (after one untimed step that warms the allocator).
const TRAIN_STEPS: u32 = 2;

/// What one searched move and one trained sample cost on this machine.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpeedProbe {
    /// Seconds per move of a bootstrap generation's self-play (the material count).
    pub bootstrap_move: f64,
    /// Seconds per move of the net's self-play, at the config's mean simulations per move.
    pub net_move: f64,
    /// Seconds per sample of training.
    pub train_sample: f64,
    /// A self-play game's length in plies, until the run has timed its own
    /// ([`TrainableGame::TYPICAL_PLIES`]).
    pub plies: f64,
}

impl SpeedProbe {
    /// Measures this machine with `model` (the run's newest net) on `device`, under
    /// `config`: self-play of each kind the run has (about a second in all, in a
    /// scratch directory removed after) and a few training steps of a net of its shape.
    pub fn measure<G: TrainableGame>(config: &Config, model: &Net, device: &Device) -> Result<SpeedProbe, String> {
        let bootstrap_move = if config.run.bootstrap_generations > 0 {
            let search = config.run.bootstrap_search(&config.search);
            seconds_per_move::<G, _>(config, config.run.bootstrap_evaluator(), &search)?
        } else {
            0.0
        };
        let net_move = seconds_per_move::<G, _>(config, net_evaluator::<G>(model, device, config), &config.search)?;
        let train_sample = seconds_per_sample::<G>(config, model, device);
        Ok(SpeedProbe { bootstrap_move, net_move, train_sample, plies: G::TYPICAL_PLIES })
    }

    /// The self-play and training seconds of one generation of `config` (a bootstrap one
    /// when `bootstrap`), for games of `plies` plies.
    pub fn generation_seconds(&self, config: &Config, bootstrap: bool, plies: f64) -> f64 {
        let moves = config.run.games_per_generation as f64 * plies;
        let search = if bootstrap { config.run.bootstrap_search(&config.search) } else { config.search.clone() };
        let recorded = if bootstrap || config.selfplay.record_cheap { 1.0 } else { full_share(&search) };
        let steps = config.train.steps_for((moves * recorded) as u64);
        let per_move = if bootstrap { self.bootstrap_move } else { self.net_move };
        moves * per_move + (steps * config.train.batch_size as u64) as f64 * self.train_sample
    }

    /// The seconds of one of the run's evaluations, for games of `plies` plies: the net's
    /// moves in its matches against the ladder (and its opponent's, where that is a net
    /// too), and, with `rating` (no `ladder.json` yet), the ladder's own round robin
    /// between nets. Alpha-beta and material players are counted as free.
    pub fn evaluation_seconds(&self, config: &Config, plies: f64, rating: bool) -> f64 {
        let evaluation = &config.evaluation;
        let is_net = |name: &String| name.starts_with("gen") || name.starts_with("net");
        let nets = evaluation.ladder.iter().filter(|name| is_net(name)).count();
        let mut net_sides = evaluation.ladder.len() + nets;
        if rating {
            // Each net rung meets every other rung; a pairing of two nets has two net sides.
            net_sides += nets * (evaluation.ladder.len() - 1);
        }
        let per_simulation = self.net_move / mean_simulations(&config.search);
        let net_moves = net_sides as f64 * f64::from(evaluation.games) * plies / 2.0;
        net_moves * f64::from(evaluation.simulations) * per_simulation
    }
}

/// The share of moves that get a full search.
fn full_share(search: &crate::mcts::SearchConfig) -> f64 {
    match search.cheap_simulations {
        Some(_) => f64::from(search.full_search_probability),
        None => 1.0,
    }
}

/// The mean simulations of a searched move.
fn mean_simulations(search: &crate::mcts::SearchConfig) -> f64 {
    let full = full_share(search);
    let cheap = search.cheap_simulations.unwrap_or(search.simulations);
    (full * search.simulations as f64 + (1.0 - full) * cheap as f64).max(1.0)
}

/// Seconds per move of self-play by `evaluator` under `search`, on the config's workers,
/// watched for [`SELFPLAY_PROBE`].
fn seconds_per_move<G: TrainableGame, E: Evaluator<G> + Clone + Send + Sync>(
    config: &Config,
    evaluator: E,
    search: &crate::mcts::SearchConfig,
) -> Result<f64, String> {
    let scratch = std::env::temp_dir().join(format!("xiangqi-zero-speed-probe-{}", std::process::id()));
    let job = SelfPlayJob {
        games: (config.selfplay.workers() * config.selfplay.parallel_games) as u64,
        new_game: G::new_game(config)?,
        out_dir: scratch.clone(),
        prefix: "probe".to_string(),
        seed: config.seed,
    };
    let stop = AtomicBool::new(false);
    let progress = SelfPlayProgress::new();
    let started = Instant::now();
    let played = std::thread::scope(|scope| {
        scope.spawn(|| {
            while started.elapsed() < SELFPLAY_PROBE && !stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(10));
            }
            stop.store(true, Ordering::Relaxed);
        });
        let played = play_games(evaluator, search, &config.selfplay, &job, &stop, &progress);
        stop.store(true, Ordering::Relaxed);
        played
    });
    let seconds = started.elapsed().as_secs_f64();
    let _ = std::fs::remove_dir_all(&scratch);
    played.map_err(|e| e.to_string())?;
    let moves = progress.moves.load(Ordering::Relaxed).max(1);
    Ok(seconds / moves as f64)
}

/// Seconds per trained sample: [`TRAIN_STEPS`] steps of a fresh net of `model`'s shape on
/// a batch of the config's size (the time depends on neither the weights nor the samples).
fn seconds_per_sample<G: TrainableGame>(config: &Config, model: &Net, device: &Device) -> f64 {
    let size = config.train.batch_size;
    let batch = Batch {
        size,
        planes: vec![0.0; size * G::INPUT_SIZE],
        policy: vec![1.0 / G::POLICY_SIZE as f32; size * G::POLICY_SIZE],
        policy_weight: vec![1.0; size],
        value: [1.0, 0.0, 0.0].repeat(size),
        reply: vec![1.0 / G::POLICY_SIZE as f32; size * G::POLICY_SIZE],
        reply_weight: vec![1.0; size],
    };
    let mut trainer = Trainer::new(Net::new(model.config, &device.clone().autodiff()), &config.train);
    let rate = config.train.learning_rate;
    trainer.train_step(batch.clone(), rate);
    let started = Instant::now();
    for _ in 0..TRAIN_STEPS {
        trainer.train_step(batch.clone(), rate);
    }
    started.elapsed().as_secs_f64() / (TRAIN_STEPS as usize * size) as f64
}

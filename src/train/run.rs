//! The generation loop of `train`: self-play a generation with the newest net, train on
//! the replay window, save the net, now and then measure it in the arena, and write the
//! metrics and plots — all of it in a [`RunDir`], resumable after a kill at any moment.
//!
//! A generation's state is committed last (`state.json`), after its net, optimiser state
//! and metrics are on disk; a resumed run redoes at most the generation in progress,
//! keeping the games it had already written (its shards are counted, not replayed).

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use burn::tensor::Device;

use super::config::{Config, FIRST_NET_RUNG};
use super::forecast::Forecast;
use super::game::TrainableGame;
use super::ladder::{evaluate_net, Evaluation};
use super::metrics::{append_metrics, read_metrics, truncate_metrics, GenerationMetrics};
use super::net_evaluator::net_evaluator;
use super::plot::draw_plots;
use super::progress_bar::bar;
use super::run_dir::{generation_name, RunDir, RunState};
use super::run_error::{fail, RunError};
use super::snapshot::write_snapshot;
use super::speed_probe::SpeedProbe;
use super::start::{start, Start};
use super::{TrainReport, Trainer, Window};
use crate::nn::Net;
use crate::selfplay::{play_games, read_shard, SampleShape, SelfPlayJob, SelfPlayProgress, SelfPlayReport, ShardError};
use crate::storage;

/// How `train` was asked to run.
pub struct RunOptions<'a> {
    /// Train until this generation is complete.
    pub generations: u32,
    /// Where the net trains (self-play runs on the CPU forward pass unless it is a GPU).
    pub device: Device,
    /// Set by Ctrl-C: finish the file being written and return.
    pub stop: &'a AtomicBool,
    /// When the caller will set `stop` (`train --minutes`): the time left is counted to
    /// it where the run would last longer.
    pub deadline: Option<Instant>,
    /// Draw progress bars (on a terminal).
    pub progress: bool,
    /// What a new run starts from instead of random weights and a bootstrap (`train
    /// --from`, `--games-from`).
    pub start: Option<Start<'a>>,
    /// Where the run's snapshot is replaced after each generation ([`write_snapshot`]);
    /// `None` writes none.
    pub snapshot: Option<&'a Path>,
}

/// How a run ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RunEnd {
    /// Every generation asked for is complete.
    Complete {
        /// The last generation.
        generation: u32,
    },
    /// Stopped by Ctrl-C; `--resume` goes on.
    Stopped {
        /// The last complete generation.
        generation: u32,
    },
}

/// Runs (or resumes) the run of `config` in `dir` until `options.generations` are complete.
pub fn run<G: TrainableGame>(config: &Config, dir: &RunDir, options: &RunOptions) -> Result<RunEnd, RunError> {
    dir.create().map_err(fail)?;
    let shape = config.network.net_config::<G>();
    let autodiff = options.device.clone().autodiff();
    // Checked before anything is written: a run from a trained net has no random one.
    let ladder_fits = |from_trained: bool| {
        if from_trained && config.evaluation.ladder.iter().any(|rung| rung == FIRST_NET_RUNG) {
            return Err(RunError(format!(
                "evaluation.ladder: `{FIRST_NET_RUNG}` is a random net, and this run started from a trained one: leave it out"
            )));
        }
        Ok(())
    };
    let (mut trainer, mut state) = match dir.read_state().map_err(fail)? {
        Some(state) => {
            ladder_fits(state.first > 0)?;
            let g = state.generation;
            let trained = dir.trained_model(g).map_err(fail)?;
            let trainer = Trainer::load::<G>(&trained, &dir.optimizer(g), state.step, shape, &config.train, &autodiff)
                .map_err(fail)?;
            // Lines of a generation that was in progress when the run was killed.
            truncate_metrics(&dir.metrics(), g).map_err(fail)?;
            (trainer, state)
        }
        None => {
            ladder_fits(options.start.is_some())?;
            let (trainer, state) = match options.start {
                Some(from) => start::<G>(config, dir, from, &autodiff, (options.stop, options.progress))?,
                None => (Trainer::new(Net::new(shape, &autodiff), &config.train), RunState::default()),
            };
            trainer.save(&dir.model(state.generation), &dir.optimizer(state.generation)).map_err(fail)?;
            dir.write_state(&state).map_err(fail)?;
            (trainer, state)
        }
    };
    dir.write_config(&config.to_toml().map_err(fail)?).map_err(fail)?;
    let new_game = G::new_game(config).map_err(RunError)?;
    let sample_shape = SampleShape::of::<G>();
    let mut window = Window::new(&dir.games(), sample_shape);
    let mut published = Net::load::<G>(&dir.model(state.generation), Some(shape), &options.device).map_err(fail)?;
    let probe = first_estimate::<G>(config, dir, &published, options)?;
    // The run's budget in hours on its own clock, where it has a time limit.
    let budget_hours = options
        .deadline
        .map(|deadline| state.hours + deadline.saturating_duration_since(Instant::now()).as_secs_f64() / 3600.0);
    while state.generation < options.generations {
        if options.stop.load(Ordering::SeqCst) {
            return Ok(RunEnd::Stopped { generation: state.generation });
        }
        let started = Instant::now();
        let g = state.generation + 1;
        let prefix = generation_name(g);

        // Self-play: a bootstrap generation's games by the teacher (the material search), a
        // later one's by the net; games a killed session already wrote count.
        let bootstrap = state.first == 0 && g <= config.run.bootstrap_generations;
        let (done_games, done_samples) = shards_of(&dir.games(), &prefix, sample_shape);
        let job = SelfPlayJob {
            games: config.run.games_per_generation.saturating_sub(done_games),
            new_game: new_game.clone(),
            out_dir: dir.games(),
            prefix,
            seed: config.seed.wrapping_add(u64::from(g) << 32).wrapping_add(done_games),
        };
        let selfplay = if bootstrap {
            play_part(&job, options, |job, progress| {
                let search = config.run.bootstrap_search(&config.search);
                play_games(config.run.bootstrap_evaluator(), &search, &config.selfplay, job, options.stop, progress)
            })?
        } else {
            let evaluator = net_evaluator::<G>(&published, &options.device, config);
            play_part(&job, options, |job, progress| {
                play_games(evaluator, &config.search, &config.selfplay, job, options.stop, progress)
            })?
        };
        if selfplay.stopped {
            return Ok(RunEnd::Stopped { generation: state.generation });
        }

        // Train on the window of every shard there (other machines' too).
        let update = window.refresh(&config.train).map_err(fail)?;
        // A run that went on from a trained net, or was restored from its snapshot, trains
        // once its window holds `window_min` samples: its first generations' samples alone,
        // each trained on `sample_reuse` times in one generation, overfit the net and undo
        // its training.
        let restarted = state.first > 0 || state.lost_samples > 0;
        let filling = restarted && update.window_samples < config.train.window_min;
        let steps = if filling { 0 } else { config.train.steps_for(done_samples + selfplay.samples) };
        // The share of its budget the run has spent since it started: of its generations,
        // or of its time where that runs out first.
        let generations = f64::from(g - state.first) / f64::from(options.generations - state.first);
        let course = budget_hours.map_or(generations, |budget| {
            let hours = state.hours + started.elapsed().as_secs_f64() / 3600.0 - state.first_hours;
            generations.max(hours / (budget - state.first_hours).max(f64::MIN_POSITIVE))
        });
        let bar = bar(options.progress, steps, "train");
        let training = trainer.train::<G>(&window, steps, course, options.stop, &bar);
        bar.finish_and_clear();
        if options.stop.load(Ordering::SeqCst) {
            return Ok(RunEnd::Stopped { generation: state.generation });
        }
        published = publish::<G>(config, dir, (state.first, g), &trainer, &options.device)?;

        // Measure it now and then, and always at the end.
        let left = options.deadline.map(|deadline| deadline.saturating_duration_since(Instant::now()));
        let evaluate = evaluates(g, options.generations, config.evaluation.every, left, started.elapsed());
        let evaluation = if evaluate { Some(evaluate_net::<G>(config, dir, g, options.progress)?) } else { None };

        let hours = state.hours + started.elapsed().as_secs_f64() / 3600.0;
        let total_samples = update.total_samples + state.lost_samples;
        let mut metrics =
            generation_metrics(g, hours, total_samples, update.window_samples, &selfplay, &training, evaluation);
        metrics.bootstrap = bootstrap;
        metrics.setup = setup_line(config);
        append_metrics(&dir.metrics(), &metrics).map_err(fail)?;
        state = RunState { generation: g, step: trainer.step(), hours, total_samples, ..state };
        dir.write_state(&state).map_err(fail)?;
        if let Some(path) = options.snapshot {
            write_snapshot(dir, &state, config.train.average_generations, path).map_err(fail)?;
        }
        let all = read_metrics(&dir.metrics()).map_err(fail)?;
        if let Err(error) = draw_plots(&all, &dir.plots()) {
            eprintln!("warning: {error}");
        }
        if g < options.generations {
            let forecast =
                Forecast::after(&all, config, options.generations, probe.as_ref().map(|p| (p, !dir.has_ladder())))
                    .within(options.deadline);
            println!("{} | {forecast}", summary_line(&metrics));
        } else {
            println!("{}", summary_line(&metrics));
        }
    }
    Ok(RunEnd::Complete { generation: state.generation })
}

/// Whether generation `g` of a run to `last` is evaluated, with evaluations `every` so
/// many generations (0: only the last), `left` the time to the run's time limit if it has
/// one, and `took` what generation `g` took: the last generation is, and with `every` above
/// 0, those on its grid and the last one the limit leaves room for (another as long would
/// not be done by then), so that a `--minutes` run ends measured.
fn evaluates(g: u32, last: u32, every: u32, left: Option<Duration>, took: Duration) -> bool {
    let last_in_time = left.is_some_and(|left| left < took);
    g == last || (every > 0 && (g.is_multiple_of(every) || last_in_time))
}

/// Saves the trainer after generation `g` and the generation's net, which self-play,
/// evaluation and play use: the trainer's own, or with `[train] average_generations = n`
/// the mean of the trainer's nets after generations `g − n + 1 ..= g`, none before the
/// run's `first` (and never the random net of generation 0), the trainer's own then kept
/// beside it. Returns that net, on `device`.
fn publish<G: TrainableGame>(
    config: &Config,
    dir: &RunDir,
    (first, g): (u32, u32),
    trainer: &Trainer,
    device: &Device,
) -> Result<Net, RunError> {
    let n = config.train.average_generations;
    if n <= 1 {
        trainer.save(&dir.model(g), &dir.optimizer(g)).map_err(fail)?;
        return Ok(trainer.model());
    }
    trainer.save(&dir.trainer_model(g), &dir.optimizer(g)).map_err(fail)?;
    let own = trainer.model();
    let mut earlier = Vec::new();
    for k in g.saturating_sub(n - 1).max(first).max(1)..g {
        let path = dir.trained_model(k).map_err(fail)?;
        earlier.push(Net::load::<G>(&path, Some(own.config), device).map_err(fail)?);
    }
    let mean = Net::average(&own, &earlier).map_err(fail)?;
    mean.save(&dir.model(g)).map_err(fail)?;
    Ok(mean)
}

/// When the run's metrics cannot yet forecast its remaining time, measures this machine
/// with `model` and prints the estimate; the probe, for the generations' forecasts.
fn first_estimate<G: TrainableGame>(
    config: &Config,
    dir: &RunDir,
    model: &Net,
    options: &RunOptions,
) -> Result<Option<SpeedProbe>, RunError> {
    let done = read_metrics(&dir.metrics()).map_err(fail)?;
    let timed = Forecast::after(&done, config, options.generations, None);
    if done.last().is_some_and(|m| m.generation >= options.generations)
        || (timed.seconds.is_some() && timed.untimed_evaluations == 0)
    {
        return Ok(None);
    }
    let probe = SpeedProbe::measure::<G>(config, model, &options.device).map_err(fail)?;
    let rating = !dir.has_ladder();
    let forecast = Forecast::after(&done, config, options.generations, Some((&probe, rating))).within(options.deadline);
    println!(
        "  {forecast}: from a few seconds' probe of this machine's speed; each generation's line below refines it"
    );
    Ok(Some(probe))
}

/// Plays `job`'s games with `play` under a progress bar, unless there are none.
fn play_part<G: TrainableGame>(
    job: &SelfPlayJob<G>,
    options: &RunOptions,
    play: impl FnOnce(&SelfPlayJob<G>, &SelfPlayProgress) -> Result<SelfPlayReport, ShardError> + Send,
) -> Result<SelfPlayReport, RunError> {
    if job.games == 0 {
        return Ok(SelfPlayReport::default());
    }
    with_selfplay_bar(options.progress, job.games, |progress| play(job, progress)).map_err(fail)
}

/// Games and samples in the shards of `games` whose names start with `prefix`
/// (unreadable shards count for nothing: the window warns about them).
fn shards_of(games: &Path, prefix: &str, shape: SampleShape) -> (u64, u64) {
    let Ok(files) = storage::list(games) else { return (0, 0) };
    let mut totals = (0, 0);
    for file in files {
        if file.name.starts_with(&format!("{prefix}-")) && file.name.ends_with(".npz") {
            if let Ok(samples) = read_shard(&games.join(&file.name), shape) {
                totals.0 += samples.games();
                totals.1 += samples.len() as u64;
            }
        }
    }
    totals
}

/// Runs `play` with a bar showing games, samples, moves/s, simulations/s and the mean
/// game length, refreshed from the workers' counters.
fn with_selfplay_bar<T>(visible: bool, games: u64, play: impl FnOnce(&SelfPlayProgress) -> T + Send) -> T
where
    T: Send,
{
    let progress = SelfPlayProgress::new();
    let bar = bar(visible, games, "self-play");
    let done = AtomicBool::new(false);
    let started = Instant::now();
    let result = std::thread::scope(|scope| {
        scope.spawn(|| {
            while !done.load(Ordering::SeqCst) {
                let load = |counter: &std::sync::atomic::AtomicU64| counter.load(Ordering::Relaxed);
                let (finished, samples, moves) =
                    (load(&progress.games), load(&progress.samples), load(&progress.moves));
                let seconds = started.elapsed().as_secs_f64().max(1e-9);
                bar.set_position(finished);
                bar.set_message(format!(
                    "{samples} samples, {:.0} moves/s, {:.0} sims/s, {:.0} plies/game",
                    moves as f64 / seconds,
                    load(&progress.simulations) as f64 / seconds,
                    samples as f64 / finished.max(1) as f64
                ));
                std::thread::sleep(Duration::from_millis(200));
            }
        });
        // Set however `play` ends: a panic in a worker must not leave the scope waiting
        // for the bar's thread forever.
        let _stop_bar = SetOnDrop(&done);
        play(&progress)
    });
    bar.finish_and_clear();
    result
}

/// Sets its flag when dropped, unwinding included.
struct SetOnDrop<'a>(&'a AtomicBool);

impl Drop for SetOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// One generation's line of `metrics.jsonl`.
fn generation_metrics(
    generation: u32,
    hours: f64,
    total_samples: u64,
    window_samples: u64,
    selfplay: &SelfPlayReport,
    training: &TrainReport,
    evaluation: Option<Evaluation>,
) -> GenerationMetrics {
    let (elo, ladder) = evaluation.map_or((Vec::new(), None), |e| (e.matches, e.ladder));
    GenerationMetrics {
        generation,
        hours,
        games: selfplay.games,
        samples: selfplay.samples,
        total_samples,
        window_samples,
        selfplay_seconds: selfplay.seconds,
        moves_per_second: selfplay.moves_per_second(),
        simulations_per_second: selfplay.simulations_per_second(),
        mean_game_plies: selfplay.mean_plies,
        first_wins: selfplay.first_wins,
        draws: selfplay.draws,
        second_wins: selfplay.second_wins,
        train_steps: training.steps,
        train_samples_per_second: training.samples_per_second,
        loss: training.loss,
        policy_loss: training.policy_loss,
        value_loss: training.value_loss,
        reply_loss: training.reply_loss,
        soft_loss: training.soft_loss,
        policy_entropy: training.policy_entropy,
        value_accuracy: training.value_accuracy,
        learning_rate: training.learning_rate,
        train_seconds: training.seconds,
        elo,
        ladder,
        bootstrap: false,
        setup: String::new(),
    }
}

/// The run as the plots name it: config, net shape, cores and device.
fn setup_line(config: &Config) -> String {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let device = if config.device == "cpu" { "CPU only".to_string() } else { format!("GPU {}", config.device) };
    format!("{} · {}×{} net · {cores} cores, {device}", config.name, config.network.blocks, config.network.channels)
}

/// The line printed after each generation.
fn summary_line(m: &GenerationMetrics) -> String {
    let training = match m.train_steps {
        0 => format!("no training: the window holds {} samples", m.window_samples),
        steps => format!(
            "{steps} steps, loss {:.3} (policy {:.3}, value {:.3}{}{}), value acc {:.0}%",
            m.loss,
            m.policy_loss,
            m.value_loss,
            m.reply_loss.map_or(String::new(), |reply| format!(", reply {reply:.3}")),
            m.soft_loss.map_or(String::new(), |soft| format!(", soft {soft:.3}")),
            100.0 * m.value_accuracy
        ),
    };
    let mut line = format!(
        "{}: {} games ({:.0} plies, {}-{}-{}), {} samples, {:.0} sims/s | {training} | {:.2} h",
        generation_name(m.generation),
        m.games,
        m.mean_game_plies,
        m.first_wins,
        m.draws,
        m.second_wins,
        m.samples,
        m.simulations_per_second,
        m.hours
    );
    for elo in &m.elo {
        line += &format!(" | vs {}: +{}={}-{}", elo.opponent, elo.wins, elo.draws, elo.losses);
    }
    if let Some(ladder) = &m.ladder {
        line += &format!(" | {ladder}");
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_generation_and_the_grid_are_evaluated() {
        let minute = Duration::from_secs(60);
        let evaluated = |every| (1..=12).filter(|&g| evaluates(g, 12, every, None, minute)).collect::<Vec<_>>();
        assert_eq!(evaluated(4), [4, 8, 12]);
        assert_eq!(evaluated(0), [12]);
    }

    #[test]
    fn a_time_limit_has_the_last_generation_it_leaves_room_for_evaluated() {
        let minute = Duration::from_secs(60);
        // Room for another one-minute generation: only the grid.
        assert!(!evaluates(5, 1000, 4, Some(2 * minute), minute));
        // No room: this is the run's last, evaluated.
        assert!(evaluates(5, 1000, 4, Some(minute / 2), minute));
        // Unless evaluations are off (a learning check's run: all its time to training).
        assert!(!evaluates(5, 1000, 0, Some(minute / 2), minute));
    }
}

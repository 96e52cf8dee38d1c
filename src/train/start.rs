//! How a new run starts when it does not start from random weights and the material
//! count's bootstrap: from a trained net of its own shape or grown to it (`train --from`,
//! [`Net::grow`]), or from another
//! run's games (`train --games-from`), on which a net of the config's shape — a larger one,
//! say — first trains before it plays. The second is KataGo's way of moving a run to a
//! bigger net: the new net learns the old run's search targets instead of replaying its
//! history.

use std::collections::HashSet;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use burn::tensor::Device;

use super::config::Config;
use super::game::TrainableGame;
use super::progress_bar::bar;
use super::run_dir::{RunDir, RunState};
use super::run_error::{fail, RunError};
use super::{Trainer, Window};
use crate::nn::{Net, NetConfig, NetSource};
use crate::selfplay::SampleShape;
use crate::storage;

/// What a new run starts from, instead of random weights and a bootstrap.
#[derive(Clone, Copy)]
pub enum Start<'a> {
    /// A trained net of the config's shape, or of a smaller trunk with the same heads,
    /// grown to the config's ([`Net::grow`]): the run goes on from the generation and
    /// hours its file records, with a fresh optimiser and an empty replay window.
    Net(&'a NetSource),
    /// Another run of the same game: its shards are copied into the new run's `games/`,
    /// and a net of the config's shape trains on the window they fill (each sample
    /// `sample_reuse` times on average) before it plays. The run goes on from that run's
    /// generation and hours, the first training's time added.
    Games(&'a RunDir),
}

/// The trainer and state a new run in `dir` starts with, from `start`, its net on the
/// training device `autodiff`. A `stop` during the first training on another run's games
/// saves nothing (the copied games stay, and the same command starts again).
pub(super) fn start<G: TrainableGame>(
    config: &Config,
    dir: &RunDir,
    start: Start,
    autodiff: &Device,
    (stop, progress): (&AtomicBool, bool),
) -> Result<(Trainer, RunState), RunError> {
    match start {
        Start::Net(net) => {
            let (net, state) = from_net::<G>(config, net, autodiff)?;
            Ok((Trainer::new(net, &config.train), state))
        }
        Start::Games(other) => from_games::<G>(config, dir, other, autodiff, (stop, progress)),
    }
}

/// The net `start`, of the config's shape or grown to it, as the net of its own
/// generation, with its hours of training (as its file records them; else generation 1
/// and 0 hours).
fn from_net<G: TrainableGame>(
    config: &Config,
    start: &NetSource,
    autodiff: &Device,
) -> Result<(Net, RunState), RunError> {
    let (net, info) = start.load_onto::<G>(autodiff).map_err(fail)?;
    let shape = config.network.net_config::<G>();
    let heads = [
        ("a reply policy", info.config.reply_policy, shape.reply_policy),
        ("a soft policy", info.config.soft_policy, shape.soft_policy),
    ];
    for (head, _, wanted) in heads.into_iter().filter(|(_, had, wanted)| had != wanted) {
        let (now, then) = if wanted { ("a fresh", "without") } else { ("no", "with") };
        println!("  the net{start}, trained {then} {head} head, goes on with {now} one");
    }
    let mut net = net.with_training_heads(&shape);
    let from = net.config;
    let (blocks, channels) = (shape.blocks, shape.channels);
    if from != shape {
        let grows = NetConfig { blocks, channels, ..from } == shape
            && blocks >= info.config.blocks
            && channels >= info.config.channels;
        if !grows {
            return Err(RunError(format!(
                "--from: the net{start} is not the net the config's [network] describes ({}×{} against {}×{}, or other heads)",
                from.blocks, from.channels, blocks, channels
            )));
        }
        net = net.grow(blocks, channels, config.seed).map_err(fail)?;
        println!(
            "  the {}×{} net{start} grows to {blocks}×{channels}, computing what it did (Net2Net)",
            info.config.blocks, info.config.channels
        );
    }
    // A net that records no generation (from elsewhere) counts as one generation trained:
    // a run from it neither bootstraps nor calls it the random net of generation 0.
    let generation = info.provenance.generation.unwrap_or(1);
    let hours = info.provenance.hours.unwrap_or(0.0);
    Ok((net, RunState { generation, hours, first: generation, first_hours: hours, ..RunState::default() }))
}

/// A new net of the config's shape trained on the games of the run in `other`, copied
/// into `dir`, as the net of that run's last generation.
fn from_games<G: TrainableGame>(
    config: &Config,
    dir: &RunDir,
    other: &RunDir,
    autodiff: &Device,
    (stop, progress): (&AtomicBool, bool),
) -> Result<(Trainer, RunState), RunError> {
    let started = Instant::now();
    let name = other.root().display();
    let theirs = other
        .read_state()
        .map_err(fail)?
        .filter(|state| state.generation > 0)
        .ok_or_else(|| RunError(format!("--games-from: {name} holds no run with a complete generation")))?;
    let their_game = Config::load(&other.config()).map_err(fail)?.game;
    if their_game != config.game {
        return Err(RunError(format!(
            "--games-from: {name} is a {} run, the config trains a {} net",
            their_game.as_str(),
            config.game.as_str()
        )));
    }
    let copied = copy_shards(&other.games(), &dir.games())?;
    let mut window = Window::new(&dir.games(), SampleShape::of::<G>());
    let update = window.refresh(&config.train).map_err(fail)?;
    let settings = &config.train;
    let steps = settings.steps_to_reuse(update.window_samples);
    println!(
        "  the new {}×{} net trains on the newest {} of the {} samples of {name} ({copied} shards copied): {steps} steps",
        config.network.blocks, config.network.channels, update.window_samples, update.total_samples
    );
    let mut trainer = Trainer::new(Net::new(config.network.net_config::<G>(), autodiff), settings);
    let bar = bar(progress, steps, "train");
    let report = trainer.train::<G>(&window, steps, 0.0, stop, &bar);
    bar.finish_and_clear();
    if stop.load(Ordering::SeqCst) {
        return Err(RunError(format!(
            "stopped during the new net's first training on the games of {name}: nothing was saved \
             (the copied games stay in {}); the same command starts it again",
            dir.games().display()
        )));
    }
    println!(
        "  trained {} steps in {:.0} s: loss {:.3} (policy {:.3}, value {:.3}); it plays as generation {}",
        report.steps, report.seconds, report.loss, report.policy_loss, report.value_loss, theirs.generation
    );
    let hours = theirs.hours + started.elapsed().as_secs_f64() / 3600.0;
    let state = RunState {
        generation: theirs.generation,
        step: trainer.step(),
        hours,
        total_samples: update.total_samples,
        first: theirs.generation,
        first_hours: hours,
        lost_samples: 0,
    };
    Ok((trainer, state))
}

/// Copies the shards (`*.npz`) of the games directory `from` that `to` lacks; how many.
fn copy_shards(from: &Path, to: &Path) -> Result<usize, RunError> {
    let present: HashSet<String> = storage::list(to).map_err(fail)?.into_iter().map(|file| file.name).collect();
    let mut copied = 0;
    for file in storage::list(from).map_err(fail)? {
        if file.name.ends_with(".npz") && !present.contains(&file.name) {
            let bytes = storage::read(&from.join(&file.name)).map_err(fail)?;
            storage::write(&to.join(&file.name), &bytes).map_err(fail)?;
            copied += 1;
        }
    }
    Ok(copied)
}

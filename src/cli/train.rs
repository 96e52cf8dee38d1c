//! `train`: the generation loop of a run (self-play → train → save → evaluate), and
//! `selfplay --run`, self-play alone for a run directory.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{anyhow, bail};
use clap::Args as ClapArgs;

use xiangqi_zero::config::{Config, GameName};
use xiangqi_zero::game::banqi::Banqi;
use xiangqi_zero::game::xiangqi::Xiangqi;
use xiangqi_zero::nn::device::device;
use xiangqi_zero::train::{contribute, run, RunDir, RunEnd, RunOptions};

/// Set by Ctrl-C (or SIGTERM): the run finishes the file it is writing and exits 0.
static STOP: AtomicBool = AtomicBool::new(false);

/// Arguments of `train`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// The training config (TOML); with `--resume --run DIR` the run's own copy is used.
    #[arg(long)]
    config: Option<PathBuf>,
    /// The run directory (default `checkpoints/<config name>`).
    #[arg(long)]
    run: Option<PathBuf>,
    /// Continue the run in the run directory.
    #[arg(long)]
    resume: bool,
    /// Train until this many generations are complete (default: the config's).
    #[arg(long)]
    generations: Option<u32>,
    /// `cpu`, or a GPU index in a build with `--features cuda` or `wgpu` (default: the config's).
    #[arg(long)]
    device: Option<String>,
}

/// Arguments of `selfplay`.
#[derive(ClapArgs, Debug)]
pub struct SelfPlayArgs {
    /// The run directory whose newest net plays and whose `games/` receives the shards.
    #[arg(long)]
    run: PathBuf,
    /// Stop after this many games (default: until Ctrl-C).
    #[arg(long)]
    games: Option<u64>,
    /// `cpu`, or a GPU index in a build with a GPU feature.
    #[arg(long, default_value = "cpu")]
    device: String,
}

/// Runs `train`.
pub fn run_train(args: Args) -> anyhow::Result<()> {
    let config = match (&args.config, &args.run) {
        (Some(path), _) => Config::load(path)?,
        (None, Some(run)) if args.resume => Config::load(&RunDir::new(run).config())?,
        _ => bail!("--config FILE is needed (or --resume --run DIR)"),
    };
    let dir = RunDir::new(args.run.clone().unwrap_or_else(|| PathBuf::from("checkpoints").join(&config.name)));
    match dir.read_state()? {
        Some(state) if !args.resume => bail!(
            "{} already holds a run at generation {}: pass --resume to continue it, or choose another --run",
            dir.root().display(),
            state.generation
        ),
        Some(_) => {
            let stored = Config::load(&dir.config())?;
            if stored.game != config.game || stored.network != config.network {
                bail!(
                    "{}: the run trains a {} net of {}×{}, the config asks for a {} net of {}×{}",
                    dir.config().display(),
                    stored.game.as_str(),
                    stored.network.blocks,
                    stored.network.channels,
                    config.game.as_str(),
                    config.network.blocks,
                    config.network.channels
                );
            }
        }
        None => {}
    }
    let generations = args.generations.unwrap_or(config.run.generations);
    let options = RunOptions {
        generations,
        device: device(args.device.as_deref().unwrap_or(&config.device)).map_err(|e| anyhow!(e))?,
        stop: &STOP,
        progress: std::io::IsTerminal::is_terminal(&std::io::stderr()),
    };
    catch_interrupts();
    println!(
        "training `{}`: {} net of {}×{}, {} generations of {} games, in {}",
        config.name,
        config.game.as_str(),
        config.network.blocks,
        config.network.channels,
        generations,
        config.run.games_per_generation,
        dir.root().display()
    );
    let end = match config.game {
        GameName::Xiangqi => run::<Xiangqi>(&config, &dir, &options),
        GameName::Banqi => run::<Banqi>(&config, &dir, &options),
    }?;
    match end {
        RunEnd::Complete { generation } => {
            println!(
                "done: generation {generation}; metrics in {}, plots in {}",
                dir.metrics().display(),
                dir.plots().display()
            )
        }
        RunEnd::Stopped { generation } => {
            println!("stopped after generation {generation}; `train --resume --run {}` goes on", dir.root().display())
        }
    }
    Ok(())
}

/// Runs `selfplay`.
pub fn run_selfplay(args: SelfPlayArgs) -> anyhow::Result<()> {
    let dir = RunDir::new(args.run);
    let config = Config::load(&dir.config())?;
    let options = RunOptions {
        generations: 0,
        device: device(&args.device).map_err(|e| anyhow!(e))?,
        stop: &STOP,
        progress: false,
    };
    catch_interrupts();
    let played = match config.game {
        GameName::Xiangqi => contribute::<Xiangqi>(&config, &dir, &options, args.games),
        GameName::Banqi => contribute::<Banqi>(&config, &dir, &options, args.games),
    }?;
    println!("{played} games played into {}", dir.games().display());
    Ok(())
}

/// Ctrl-C and SIGTERM set `STOP`; a second one exits at once.
fn catch_interrupts() {
    let _ = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        eprintln!("stopping: finishing the file being written (Ctrl-C again to quit at once)");
    });
}

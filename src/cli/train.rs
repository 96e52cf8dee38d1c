//! `train`: the generation loop of a run (self-play → train → save → evaluate), and
//! `selfplay --run`, self-play alone for a run directory.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail};
use clap::Args as ClapArgs;

use xiangqi_zero::game::banqi::Banqi;
use xiangqi_zero::game::xiangqi::Xiangqi;
use xiangqi_zero::nn::device::device;
use xiangqi_zero::nn::NetSource;
use xiangqi_zero::players::net_spec_name;
use xiangqi_zero::train::config::{Config, GameName};
use xiangqi_zero::train::nnue_config::NnueConfig;
use xiangqi_zero::train::{
    contribute, default_snapshot, has_snapshot, read_nnue_state, restore_nnue_snapshot, restore_snapshot, run,
    run_nnue, NnueRunOptions, RunDir, RunEnd, RunOptions, Start, CHECKPOINTS,
};

/// Set by Ctrl-C (or SIGTERM): the run finishes the file it is writing and exits 0.
static STOP: AtomicBool = AtomicBool::new(false);

/// Arguments of `train`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// The training config (TOML); with `--resume --run DIR` the run's own copy is used.
    #[arg(long)]
    config: Option<PathBuf>,
    /// The run directory, a path or an object store's URL (s3://, gs://, az://; default
    /// `checkpoints/<config name>`).
    #[arg(long)]
    run: Option<PathBuf>,
    /// Continue the run in the run directory.
    #[arg(long)]
    resume: bool,
    /// Train until this many generations are complete (default: the config's).
    #[arg(long)]
    generations: Option<u32>,
    /// Stop after this many minutes (fractions allowed), as Ctrl-C does: the run
    /// finishes the file it is writing, and `--resume` goes on.
    #[arg(long, value_parser = positive_minutes)]
    minutes: Option<f64>,
    /// `cpu`, or a GPU index in a build with `--features cuda` or `wgpu` (default: the config's).
    #[arg(long)]
    device: Option<String>,
    /// Start a new run from this trained net (a file, or `shipped` for the game's shipped
    /// net) instead of random weights: the run goes on from its generation and hours, with
    /// no bootstrap, a fresh optimiser and an empty replay window. A net with a smaller
    /// trunk than the config's is grown to it first, computing what it did.
    #[arg(long, value_name = "NET", conflicts_with = "games_from")]
    from: Option<String>,
    /// Start a new run from another run's games (a run directory of the same game): they
    /// are copied into the new run, and a net of the config's shape (a larger one, say)
    /// trains on them before it plays; the run goes on from that run's generation and hours.
    #[arg(long, value_name = "RUN")]
    games_from: Option<PathBuf>,
    /// The run's snapshot (default `<run>.snapshot`, beside the run directory): replaced
    /// after every generation with what `--resume` needs without the samples, a few MB;
    /// `--resume` into a run directory that is gone restores the run from it.
    #[arg(long, value_name = "FILE")]
    snapshot: Option<PathBuf>,
}

/// Arguments of `selfplay`.
#[derive(ClapArgs, Debug)]
pub struct SelfPlayArgs {
    /// The run directory (a path, or an object store's URL: s3://, gs://, az://) whose
    /// newest net plays and whose `games/` receives the shards.
    #[arg(long)]
    run: PathBuf,
    /// Stop after this many games (default: until Ctrl-C).
    #[arg(long)]
    games: Option<u64>,
    /// Worker threads (default: the run's `[selfplay] threads`; 0: one per core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(0..=1024))]
    threads: Option<u16>,
    /// `cpu`, or a GPU index in a build with a GPU feature.
    #[arg(long, default_value = "cpu")]
    device: String,
}

/// Runs `train`.
pub fn run_train(args: Args) -> anyhow::Result<()> {
    if let (true, Some(run)) = (args.resume, &args.run) {
        restore_if_gone(&RunDir::new(run), args.snapshot.as_deref())?;
    }
    if let Some(config) = nnue_config(&args)? {
        return run_nnue_train(&args, &config);
    }
    let config = match (&args.config, &args.run) {
        (Some(path), _) => Config::load(path)?,
        (None, Some(run)) if args.resume => {
            let run = RunDir::new(run);
            run.check_is_run()?;
            Config::load(&run.config())?
        }
        _ => bail!("--config FILE is needed (or --resume --run DIR)"),
    };
    let dir = RunDir::new(args.run.clone().unwrap_or_else(|| PathBuf::from(CHECKPOINTS).join(&config.name)));
    let state = dir.read_state()?;
    match state {
        Some(_) if args.from.is_some() || args.games_from.is_some() => {
            let option = if args.from.is_some() { "--from" } else { "--games-from" };
            bail!("{option} starts a new run, and {} already holds one: choose another --run", dir.root().display())
        }
        Some(state) if !args.resume => bail!(
            "{} already holds a run at generation {}: pass --resume to continue it, or choose another --run",
            dir.root().display(),
            state.generation
        ),
        // A config given beside the run must train the run's net (without one, the run's own is used).
        Some(_) if args.config.is_some() => {
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
        Some(_) | None => {}
    }
    let net = args.from.as_deref().map(|net| match net {
        "shipped" => NetSource::Shipped,
        file => NetSource::File(PathBuf::from(file)),
    });
    let other = args.games_from.as_ref().map(RunDir::new);
    let start = net.as_ref().map(Start::Net).or(other.as_ref().map(Start::Games));
    let generations = args.generations.unwrap_or(config.run.generations);
    let snapshot = args.snapshot.clone().unwrap_or_else(|| default_snapshot(&dir));
    let options = RunOptions {
        generations,
        device: device(args.device.as_deref().unwrap_or(&config.device)).map_err(|e| anyhow!(e))?,
        stop: &STOP,
        deadline: args.minutes.map(stop_after),
        progress: std::io::IsTerminal::is_terminal(&std::io::stderr()),
        start,
        snapshot: Some(&snapshot),
    };
    catch_interrupts();
    // A resumed run that went on from a trained net plays its own net from the start.
    let went_on =
        state.filter(|state| state.first > 0).map(|state| format!("going on from its generation {}", state.first));
    let from = match (&args.from, &args.games_from) {
        (Some(net), _) => Some(format!("going on from `{net}`")),
        (None, Some(run)) => Some(format!("after a first training on the games of `{}`", run.display())),
        (None, None) => went_on,
    };
    println!("{}", plan(&config, dir.root(), generations, args.minutes, from.as_deref()));
    let end = match config.game {
        GameName::Xiangqi => run::<Xiangqi>(&config, &dir, &options),
        GameName::Banqi => run::<Banqi>(&config, &dir, &options),
    }?;
    match end {
        RunEnd::Complete { generation } => println!("{}", next_steps(&config, &dir, generation)),
        RunEnd::Stopped { generation } => {
            println!("stopped after generation {generation}; `train --resume --run {}` goes on", dir.root().display())
        }
    }
    Ok(())
}

/// The NNUE config `args` name (`--config`, or the run's own with `--resume --run`), if
/// it is one.
fn nnue_config(args: &Args) -> anyhow::Result<Option<NnueConfig>> {
    let path = match (&args.config, &args.run) {
        (Some(path), _) => path.clone(),
        (None, Some(run)) if args.resume => run.join("config.toml"),
        _ => return Ok(None),
    };
    NnueConfig::load_if_nnue(&path).map_err(|e| anyhow!(e))
}

/// Runs `train` for an NNUE config.
fn run_nnue_train(args: &Args, config: &NnueConfig) -> anyhow::Result<()> {
    if args.from.is_some() || args.games_from.is_some() {
        bail!("--from and --games-from are for policy-value runs; an NNUE run starts from the hand-written tables");
    }
    let dir = args.run.clone().unwrap_or_else(|| PathBuf::from(CHECKPOINTS).join(&config.name));
    let snapshot = args.snapshot.clone().unwrap_or_else(|| default_snapshot(&RunDir::new(&dir)));
    // With `--run`, `run_train` restored it already (the run's config comes from it).
    if args.resume && args.run.is_none() {
        restore_if_gone(&RunDir::new(&dir), args.snapshot.as_deref())?;
    }
    let state = read_nnue_state(&dir).map_err(|e| anyhow!(e))?;
    if let (Some(state), false) = (&state, args.resume) {
        bail!(
            "{} already holds a run at generation {}: pass --resume to continue it, or choose another --run",
            dir.display(),
            state.generation
        );
    }
    let generations = args.generations.map_or(config.nnue.generations, |g| g as usize);
    let n = &config.nnue;
    println!(
        "training the NNUE `{}`: {generations} generations of {} games searched to depth {} (the first {} plies at random), \
         {} epochs on the newest {} positions, each new net gated by {} games at depth {} against the current player\n  \
         results in {}: nets/, metrics.jsonl, positions.bin; its snapshot {}",
        config.name,
        n.games_per_generation,
        n.depth,
        n.random_plies,
        n.epochs,
        n.window,
        n.gate_games,
        n.gate_depth,
        dir.display(),
        snapshot.display()
    );
    catch_interrupts();
    if let Some(minutes) = args.minutes {
        stop_after(minutes);
    }
    let options = NnueRunOptions {
        generations,
        stop: &STOP,
        progress: std::io::IsTerminal::is_terminal(&std::io::stderr()),
        snapshot: Some(&snapshot),
    };
    let generation = run_nnue(config, &dir, &options).map_err(|e| anyhow!(e))?;
    let state = read_nnue_state(&dir).map_err(|e| anyhow!(e))?.unwrap_or_default();
    match &state.current {
        Some(net) => println!(
            "generation {generation}: the current net is {net}; play it: xiangqi-zero play --black nnue:{}",
            dir.join("nets").join(net).display()
        ),
        None => println!("generation {generation}: no net has beaten the hand-written tables yet"),
    }
    if generation < generations {
        println!("stopped; `train --resume --run {}` goes on", dir.display());
    }
    Ok(())
}

/// Restores the run in `dir` from its snapshot (`snapshot`, else the default one beside
/// it) when the directory holds no run; an explicit snapshot that is not there is an error.
fn restore_if_gone(dir: &RunDir, snapshot: Option<&Path>) -> anyhow::Result<()> {
    // A run, or something that is no run directory (a file, say: refused below).
    if !matches!(dir.read_state(), Ok(None)) {
        return Ok(());
    }
    let path = snapshot.map_or_else(|| default_snapshot(dir), Path::to_path_buf);
    if !has_snapshot(&path) {
        if snapshot.is_some() {
            bail!("{}: no such snapshot", path.display());
        }
        return Ok(());
    }
    if let Some(state) = restore_nnue_snapshot(&path, dir.root()).map_err(|e| anyhow!(e))? {
        println!(
            "restored generation {} of the NNUE run from {} into {}: its positions refill by the next generation's games",
            state.generation,
            path.display(),
            dir.root().display()
        );
        return Ok(());
    }
    let state = restore_snapshot(&path, dir)?;
    println!(
        "restored generation {} of the run from {} into {}: its replay window refills by self-play before it trains again",
        state.generation,
        path.display(),
        dir.root().display()
    );
    Ok(())
}

/// A `--minutes` value: a positive number of minutes.
fn positive_minutes(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(minutes) if minutes > 0.0 && minutes <= 1e7 => Ok(minutes),
        _ => Err(format!("`{text}` is not a number of minutes above 0")),
    }
}

/// Sets `STOP` `minutes` from now, as Ctrl-C would; the time it will.
fn stop_after(minutes: f64) -> Instant {
    let limit = Duration::from_secs_f64(minutes * 60.0);
    std::thread::spawn(move || {
        std::thread::sleep(limit);
        if !STOP.swap(true, Ordering::SeqCst) {
            eprintln!("time is up ({minutes} min): finishing the file being written");
        }
    });
    Instant::now() + limit
}

/// What the run will do and where its results go, printed before it starts.
/// `from`: how the run starts other than from random weights and a bootstrap.
fn plan(config: &Config, root: &Path, generations: u32, minutes: Option<f64>, from: Option<&str>) -> String {
    let bootstrap = config.run.bootstrap_generations.min(generations);
    let players = match (from, bootstrap) {
        (Some(start), _) => format!("the net plays every generation's games, {start}"),
        (None, 0) => "the net plays every generation's games".to_string(),
        (None, 1) if generations == 1 => "the material count plays (bootstrap)".to_string(),
        (None, 1) => format!("generation 1: the material count plays (bootstrap); 2–{generations}: the net"),
        (None, b) if b == generations => format!("generations 1–{b}: the material count plays (bootstrap)"),
        (None, b) if b + 1 == generations => {
            format!("generations 1–{b}: the material count plays (bootstrap); {generations}: the net")
        }
        (None, b) => {
            format!("generations 1–{b}: the material count plays (bootstrap); {}–{generations}: the net", b + 1)
        }
    };
    let every = config.evaluation.every;
    let evaluated = if every > 0 && every < generations {
        format!("every {every} generations and after the last")
    } else {
        "after the last generation".to_string()
    };
    let limit = minutes.map_or(String::new(), |minutes| format!(", for at most {minutes} min"));
    format!(
        "training `{}`: a {} net of {}×{}, {generations} generations of {} self-play games{limit}\n  \
         {players}\n  \
         the net is placed on the Elo ladder ({}) {evaluated}\n  \
         results in {}: models/, plots/ (losses, elo, selfplay), metrics.jsonl; \
         a line per generation below, with the time left",
        config.name,
        config.game.as_str(),
        config.network.blocks,
        config.network.channels,
        config.run.games_per_generation,
        config.evaluation.ladder.join(", "),
        root.display()
    )
}

/// The commands a user most likely wants once the run is complete, with its paths.
fn next_steps(config: &Config, dir: &RunDir, generation: u32) -> String {
    let net = net_spec_name(&NetSource::File(dir.model(generation)), &config.search.for_play(800));
    let game = match config.game {
        GameName::Xiangqi => "",
        GameName::Banqi => "--game banqi ",
    };
    format!(
        "done: generation {generation}; metrics in {}, plots in {}\n\
         next:\n  \
         play the net in the terminal:  cargo run --release -- play {game}--black '{net}'\n  \
         play it in the browser:        cargo run --release -- serve --engine 'net={net}'\n  \
         train it further:              cargo run --release -- train --resume --run {} --generations {}",
        dir.metrics().display(),
        dir.plots().display(),
        dir.root().display(),
        generation + config.run.generations
    )
}

/// Runs `selfplay`.
pub fn run_selfplay(args: SelfPlayArgs) -> anyhow::Result<()> {
    let dir = RunDir::new(args.run);
    dir.check_is_run()?;
    let mut config = Config::load(&dir.config())?;
    if let Some(threads) = args.threads {
        config.selfplay.threads = usize::from(threads);
    }
    let options = RunOptions {
        generations: 0,
        device: device(&args.device).map_err(|e| anyhow!(e))?,
        stop: &STOP,
        deadline: None,
        progress: false,
        start: None,
        snapshot: None,
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

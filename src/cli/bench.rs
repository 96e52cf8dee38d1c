//! `bench`: speed figures, one per line.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::bail;
use clap::{Args as ClapArgs, Subcommand};

use super::bench_nn;
use super::bench_peer::{pytorch_peer, Engine, Protocol, PyTorchJob};
use super::bench_stats::{median, median_rate, reference_games, timed_rate, versus};
use super::GameKind;
use xiangqi_zero::game::banqi;
use xiangqi_zero::game::xiangqi::{perft, Board, Xiangqi};
use xiangqi_zero::game::Game;
use xiangqi_zero::mcts::SearchConfig;
use xiangqi_zero::nn::bf16::has_bf16;
use xiangqi_zero::nn::NetConfig;
use xiangqi_zero::nn::Precision;
use xiangqi_zero::search::xiangqi::AlphaBeta;
use xiangqi_zero::search::Limits;
use xiangqi_zero::train::config::{Config, GameName};

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
        /// A UCI engine (Pikafish) timed on the same perft in the same runs, its node
        /// count checked against ours: its median nodes/s and our ratio to it (Xiangqi).
        #[arg(long, value_name = "PATH")]
        vs_engine: Option<PathBuf>,
        /// Seconds the engine may take to answer any one command.
        #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=3600))]
        engine_timeout: u64,
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
        /// A UCI or UCCI engine (Pikafish, ElephantEye) searching the start position to
        /// the same depth in the same runs, fresh each run: its median nodes/s and our
        /// ratio to it (its time to depth alone if it prints no node count).
        #[arg(long, value_name = "PATH")]
        vs_engine: Option<PathBuf>,
        /// The engine's protocol.
        #[arg(long, value_enum, default_value_t = Protocol::Uci)]
        protocol: Protocol,
        /// Seconds the engine may take to answer any one command.
        #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=3600))]
        engine_timeout: u64,
    },
    /// A net on Xiangqi input (the 6×64 reference unless told): forward positions/s at
    /// batch 1, 16, 64 and 256 for burn's flex backend and for our CPU forward pass (in
    /// fp32, and in bf16 where the CPU has it), with its share of the CPU's peak, and
    /// training samples/s at batch 256 (Adam). Each against the same net on the same
    /// threads in the same run: ONNX Runtime on its ONNX export, run by turns with ours,
    /// when python3 has onnxruntime (`scripts/onnxruntime-reference.py`), and PyTorch when
    /// it has torch (`scripts/pytorch-reference.py`). Threads: rayon's global pool (set
    /// RAYON_NUM_THREADS).
    Nn {
        /// Number of timed rounds (ours and ONNX Runtime's by turns); the median is reported.
        #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u32).range(1..=100))]
        runs: u32,
        /// Residual blocks of the net (4 for the self-play configs' net).
        #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(1..=64))]
        blocks: u32,
        /// Channels of its trunk (32 for the self-play configs' net).
        #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=1024))]
        channels: u32,
    },
    /// Training samples/s of a net (the 6×64 reference at batch 256 unless told; Adam): the raw step on
    /// one prepared batch (against PyTorch's, measured in the same run when python3 has
    /// torch), and the trainer fed by the loader from shards of real positions, with
    /// their ratio (aim 0.9). Threads: rayon's global pool.
    Train {
        /// Number of timed runs; the median run (by ratio) is reported.
        #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=100))]
        runs: u32,
        /// Training steps per timed run, for each of the two.
        #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=10_000))]
        steps: u64,
        /// Residual blocks of the net trained.
        #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(1..=64))]
        blocks: u32,
        /// Channels of its trunk.
        #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=1024))]
        channels: u32,
        /// Samples per training step.
        #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..=8192))]
        batch: u32,
        /// The convolutions' products: `fp32`, or `bf16` (`[train] precision`, where the CPU has it).
        #[arg(long, default_value = "fp32", value_parser = ["fp32", "bf16"])]
        precision: String,
    },
    /// MCTS: simulations/s of one search with an evaluator that costs nothing (one
    /// thread, a Xiangqi middlegame: the tree's own cost), and the multi-game driver's
    /// simulations/s over its evaluator's own positions/s at the same batch size, with an
    /// evaluator that spins for a fixed time per position (1.0 = the search is free).
    Mcts {
        /// Simulations per timed search.
        #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u32).range(1..))]
        sims: u32,
        /// Number of timed runs; the median is reported.
        #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=100))]
        runs: u32,
        /// The driver's batch size (it plays as many games at once).
        #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=4096))]
        batch: u32,
        /// The spinning evaluator's cost per position, in microseconds.
        #[arg(long, default_value_t = 50)]
        cost_us: u64,
    },
    /// Self-play of the 6×64 reference net (random weights) on Xiangqi with the training
    /// search settings, or of a config's net with its self-play search (`--config`):
    /// simulations/s over the net's own positions/s at the same batch on the same threads
    /// (1.0 = everything but the forward pass is free), median of the runs' ratios.
    Selfplay {
        /// The evaluator's batch size (each worker plays as many games at once).
        #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=4096))]
        batch: u32,
        /// Simulations of a full search (cheap searches: the training preset's, at most this).
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..))]
        sims: u32,
        /// Worker threads (0 = one per core, the default of self-play).
        #[arg(long, default_value_t = 0)]
        threads: usize,
        /// Number of timed runs; the median is reported.
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=100))]
        runs: u32,
        /// Seconds of self-play per run.
        #[arg(long, default_value_t = 5.0)]
        seconds: f64,
        /// A Xiangqi config whose net size, `[search]` (the rules' help and root search
        /// included) and games at once are measured instead; `--batch` and `--sims` are
        /// then the config's.
        #[arg(long, conflicts_with_all = ["batch", "sims"])]
        config: Option<PathBuf>,
        /// A trained net of the config's size (safetensors) playing instead of random
        /// weights: a trained net's searches reach other leaves.
        #[arg(long, requires = "config")]
        model: Option<PathBuf>,
    },
    /// `serve` under load: one local game watched by many spectators over real WebSocket
    /// connections on loopback; the time from a move's frame to its `state` frame at each
    /// spectator, median and p99 over all spectators and moves.
    Web {
        /// Spectators connected.
        #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=5000))]
        spectators: u32,
        /// Moves played, each once every spectator has the previous one.
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=100))]
        moves: u32,
    },
}

/// Runs `bench`.
pub fn run(args: Args) -> anyhow::Result<()> {
    match args.what {
        What::Movegen { game: GameKind::Xiangqi, depth, runs, vs_engine, engine_timeout } => {
            let engine = vs_engine.map(|path| (path, Duration::from_secs(engine_timeout)));
            movegen(depth.unwrap_or(5), runs, engine)?
        }
        What::Movegen { game: GameKind::Banqi, vs_engine: Some(_), .. } => {
            bail!("--vs-engine compares Xiangqi perft only")
        }
        What::Movegen { game: GameKind::Banqi, depth, runs, .. } => banqi_movegen(depth.unwrap_or(4), runs),
        What::Search { depth, runs, vs_engine, protocol, engine_timeout } => {
            let engine = vs_engine.map(|path| (path, protocol, Duration::from_secs(engine_timeout)));
            search(depth, runs, engine)?
        }
        What::Nn { runs, blocks, channels } => {
            bench_nn::nn(runs, NetConfig::new::<Xiangqi>(blocks as usize, channels as usize))
        }
        What::Train { runs, steps, blocks, channels, batch, precision } => {
            let precision = if precision == "bf16" { Precision::Bf16 } else { Precision::F32 };
            let config = NetConfig::new::<Xiangqi>(blocks as usize, channels as usize);
            train(runs, steps, config, batch as usize, precision)?
        }
        What::Mcts { sims, runs, batch, cost_us } => mcts(sims, runs, batch as usize, cost_us)?,
        What::Selfplay { batch, sims, threads, runs, seconds, config, model } => {
            let setup = match config {
                Some(path) => SelfplaySetup::from_config(&path, model)?,
                None => SelfplaySetup::reference(batch as usize, sims),
            };
            selfplay(setup, threads, runs, seconds)?
        }
        What::Web { spectators, moves } => web(spectators as usize, moves as usize)?,
    }
    Ok(())
}

/// Perft speed from the start position, and the engine's on the same perft in the same
/// runs (started once, with its answer timeout) when one is given.
fn movegen(depth: u32, runs: u32, engine: Option<(PathBuf, Duration)>) -> anyhow::Result<()> {
    let board = Board::start();
    let mut peer = engine.map(|(path, timeout)| Engine::start(&path, Protocol::Uci, timeout)).transpose()?;
    // Each run times ours, then the engine's, so that both see the same machine.
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    let mut nodes = 0;
    for _ in 0..runs {
        let started = Instant::now();
        nodes = perft::perft(&board, depth);
        ours.push(nodes as f64 / started.elapsed().as_secs_f64());
        if let Some(engine) = &mut peer {
            let (counted, elapsed) = engine.perft(depth)?;
            if counted != nodes {
                bail!("{} counts {counted} nodes at perft({depth}) from the start, we count {nodes}", engine.name);
            }
            theirs.push(counted as f64 / elapsed.as_secs_f64());
        }
    }
    let ours = median(ours);
    let theirs = peer.as_ref().map(|_| median(theirs));
    let name = peer.as_ref().map_or("", |engine| engine.name.as_str());
    println!(
        "movegen perft({depth}) startpos: {:.1}M nodes/s (median of {runs}){}",
        ours / 1e6,
        versus(ours, theirs, name)
    );
    match theirs {
        Some(theirs) => println!(
            "movegen perft({depth}) startpos, {name} in the same runs: {:.1}M nodes/s (median of {runs}, {nodes} nodes as ours)",
            theirs / 1e6
        ),
        None => println!("movegen peer: none measured (pass --vs-engine PATH to compare with Pikafish)"),
    }
    Ok(())
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

/// Alpha-beta speed from the start position, and the depth it reaches in one second;
/// and the engine's at the same depth in the same runs (a fresh process each run, with
/// its protocol and answer timeout) when one is given.
fn search(depth: u32, runs: u32, engine: Option<(PathBuf, Protocol, Duration)>) -> anyhow::Result<()> {
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

/// Training speed of the reference net (see `What::Train`).
fn train(runs: u32, steps: u64, config: NetConfig, batch_size: usize, precision: Precision) -> anyhow::Result<()> {
    use std::sync::atomic::AtomicBool;
    use xiangqi_zero::nn::{Encoding, Net};
    use xiangqi_zero::selfplay::{write_shard, SampleShape, Samples, Targets};
    use xiangqi_zero::train::{make_batch, OptimizerKind, TrainSettings, Trainer, Window};

    if precision == Precision::Bf16 && !has_bf16() {
        bail!("this CPU has no bf16 products (AMX with AVX512-BF16): `--precision fp32`");
    }
    let settings = TrainSettings {
        optimizer: OptimizerKind::Adam,
        learning_rate: 1e-3,
        batch_size,
        precision,
        ..TrainSettings::default()
    };
    // Shards of real positions, a policy over up to eight legal moves each, in a
    // temporary games directory.
    let dir = std::env::temp_dir().join(format!("xiangqi-zero-bench-train-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let mut moves = Vec::new();
    for (shard, games) in reference_games(4096).chunks(1024).enumerate() {
        let mut samples = Samples::new(SampleShape::of::<Xiangqi>());
        let mut planes = vec![0.0; Xiangqi::INPUT_SIZE];
        for (i, game) in games.iter().enumerate() {
            game.encode(&mut planes);
            game.legal_moves(&mut moves);
            let chosen = &moves[..moves.len().min(8)];
            let policy: Vec<(usize, f32)> =
                chosen.iter().map(|&mv| (game.move_label(mv), 1.0 / chosen.len() as f32)).collect();
            let targets = Targets { outcome: [0.0, 1.0, 0.0], root: [0.3, 0.4, 0.3], full: i % 4 != 0, ply: 0 };
            samples.push(&planes, &policy, targets);
        }
        write_shard(&dir.join(format!("gen{shard:04}-bench.npz")), &samples)?;
    }
    let mut window = Window::new(&dir, SampleShape::of::<Xiangqi>());
    window.refresh(&settings)?;
    let _ = std::fs::remove_dir_all(&dir);

    let device = burn::tensor::Device::flex().autodiff();
    let net = Net::new(config, &device);
    let weights = burn::module::Module::num_params(&net) as u64;
    let mut trainer = Trainer::new(net, &settings);
    let batch = make_batch::<Xiangqi>(&window, &settings, &mut rand::rng());
    let (stop, bar) = (AtomicBool::new(false), indicatif::ProgressBar::hidden());
    let threads = rayon::current_num_threads();
    println!(
        "train: {config}, {weights} weights, batch {}, Adam, {} products, {threads} thread(s), {} samples in the window",
        settings.batch_size,
        precision.name(),
        window.len()
    );
    let job = PyTorchJob {
        config: &config,
        threads,
        runs,
        forward_batches: &[],
        train_batch: settings.batch_size,
        weight_decay: settings.weight_decay,
    };
    let pytorch = pytorch_peer(&job, weights).map(|p| p.train);
    if let Some(rate) = pytorch {
        println!("train PyTorch step batch {}: {rate:.0} samples/s", settings.batch_size);
    }
    trainer.train_step(batch.clone(), 1e-3);
    // Each run times the raw step on one prepared batch, then the trainer fed by the
    // loader, so that both see the same machine; the median run by ratio is reported.
    let mut runs: Vec<(f64, f64)> = (0..runs)
        .map(|_| {
            let started = Instant::now();
            for _ in 0..steps {
                trainer.train_step(batch.clone(), 1e-3);
            }
            let raw = (steps as usize * settings.batch_size) as f64 / started.elapsed().as_secs_f64();
            (raw, trainer.train::<Xiangqi>(&window, steps, &stop, &bar).samples_per_second)
        })
        .collect();
    runs.sort_by(|a, b| (a.1 / a.0).total_cmp(&(b.1 / b.0)));
    let (raw, fed) = runs[runs.len() / 2];
    println!("train raw step batch {}: {raw:.0} samples/s{}", settings.batch_size, versus(raw, pytorch, "PyTorch"));
    println!(
        "train trainer+loader from shards batch {}: {fed:.0} samples/s, {:.3}x the raw step (aim 0.9)",
        settings.batch_size,
        fed / raw
    );
    Ok(())
}

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
fn mcts(sims: u32, runs: u32, batch: usize, cost_us: u64) -> anyhow::Result<()> {
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

/// What `bench selfplay` measures: a net (random weights), the self-play search and the
/// games each worker plays at once.
struct SelfplaySetup {
    net: NetConfig,
    search: SearchConfig,
    games: usize,
    /// A trained net's weights; random ones when `None`.
    model: Option<PathBuf>,
}

impl SelfplaySetup {
    /// The 6×64 reference net under the training preset, `sims` simulations a full search
    /// (cheap searches the preset's, at most that), `batch` games at once.
    fn reference(batch: usize, sims: u32) -> Self {
        let training = SearchConfig::training();
        let search = SearchConfig {
            simulations: sims,
            cheap_simulations: training.cheap_simulations.map(|cheap| cheap.min(sims)),
            batch_size: batch,
            ..training
        };
        SelfplaySetup { net: NetConfig::new::<Xiangqi>(6, 64), search, games: batch, model: None }
    }

    /// The net size, self-play search and games at once of the Xiangqi config at `path`,
    /// with `model`'s weights where given.
    fn from_config(path: &std::path::Path, model: Option<PathBuf>) -> anyhow::Result<Self> {
        let config = Config::load(path)?;
        if config.game != GameName::Xiangqi {
            bail!("{}: `bench selfplay` measures Xiangqi configs", path.display());
        }
        let net = config.network.net_config::<Xiangqi>();
        Ok(SelfplaySetup { net, search: config.search, games: config.selfplay.parallel_games, model })
    }
}

/// Self-play speed against the network's (see `What::Selfplay`).
fn selfplay(setup: SelfplaySetup, threads: usize, runs: u32, seconds: f64) -> anyhow::Result<()> {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;

    use burn::tensor::Device;
    use xiangqi_zero::mcts::Guided;
    use xiangqi_zero::nn::{CpuNet, Encoding, Inference, Net, NetEvaluator};
    use xiangqi_zero::selfplay::{on_worker_threads, play_games, SelfPlayJob, SelfPlayProgress, SelfPlaySettings};

    let SelfplaySetup { net: config, search, games, model } = setup;
    let (batch, sims) = (search.batch_size, search.simulations);
    let net = match &model {
        Some(path) => Net::load::<Xiangqi>(path, Some(config), &Device::flex())?,
        None => Net::new(config, &Device::flex()),
    };
    let net = CpuNet::new(&net);
    let settings = SelfPlaySettings { threads, parallel_games: games, ..SelfPlaySettings::default() };
    settings.validate().map_err(anyhow::Error::msg)?;
    let workers = settings.workers();
    let dir = std::env::temp_dir().join(format!("xiangqi-zero-bench-selfplay-{}", std::process::id()));
    let job = SelfPlayJob {
        games: u64::MAX,
        new_game: Arc::new(|_: &mut rand::rngs::StdRng| Xiangqi::start()),
        out_dir: dir.clone(),
        prefix: "bench".to_string(),
        seed: 1,
    };
    // The start position's encoding, as many times as a batch holds.
    let mut planes = vec![0.0; Xiangqi::INPUT_SIZE];
    Xiangqi::start().encode(&mut planes);
    let input = planes.repeat(batch);
    let run_for = Duration::from_secs_f64(seconds);
    // Each run times the net alone on the workers' threads, then self-play, so that both
    // see the same machine; the median run by ratio is reported.
    let mut results: Vec<(f64, f64)> = Vec::new();
    for _ in 0..runs {
        let started = Instant::now();
        let done: usize = on_worker_threads(workers, |_| {
            let mut net = net.clone();
            let (mut policy, mut value) = (vec![0.0; batch * config.policy_size], vec![0.0; batch * 3]);
            let mut done = 0;
            while started.elapsed() < run_for / 2 {
                net.forward(&input, batch, &mut policy, &mut value);
                done += batch;
            }
            done
        })
        .into_iter()
        .sum();
        let net_rate = done as f64 / started.elapsed().as_secs_f64();
        let stop = AtomicBool::new(false);
        let report = std::thread::scope(|scope| {
            scope.spawn(|| {
                std::thread::sleep(run_for);
                stop.store(true, Ordering::Relaxed);
            });
            let evaluator = Guided::new(NetEvaluator::new(Inference::Cpu(net.clone())), &search);
            play_games(evaluator, &search, &settings, &job, &stop, &SelfPlayProgress::new())
        })?;
        results.push((report.simulations_per_second(), net_rate));
    }
    let _ = std::fs::remove_dir_all(&dir);
    let weights = model.map_or("random weights".to_string(), |path| path.display().to_string());
    results.sort_by(|a, b| (a.0 / a.1).total_cmp(&(b.0 / b.1)));
    let (selfplay_rate, net_rate) = results[results.len() / 2];
    println!(
        "selfplay xiangqi {}×{} net ({weights}), {workers} worker(s) of {} thread(s), {games} games at once, batch {batch}, {sims} simulations, {:?} root: {:.3}x the net's positions/s ({selfplay_rate:.0} simulations/s vs {net_rate:.0}, median of {runs}; aim 0.9)",
        config.blocks,
        config.channels,
        (rayon::current_num_threads() / workers).max(1),
        search.root,
        selfplay_rate / net_rate
    );
    Ok(())
}

/// Move-to-spectator latency of `serve` (see `What::Web`).
fn web(spectators: usize, moves: usize) -> anyhow::Result<()> {
    let latencies = xiangqi_zero::web::load::measure(spectators, moves).map_err(|e| anyhow::anyhow!(e))?;
    println!(
        "web broadcast to {spectators} spectators: median {:.2} ms, p99 {:.2} ms ({} arrivals over {moves} moves)",
        latencies.quantile(0.5).as_secs_f64() * 1e3,
        latencies.quantile(0.99).as_secs_f64() * 1e3,
        latencies.samples.len()
    );
    Ok(())
}

//! `bench`: speed figures, one per line.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::bail;
use clap::{Args as ClapArgs, Subcommand};

use super::bench_mcts::mcts;
use super::bench_movegen::{banqi_movegen, movegen};
use super::bench_nn;
use super::bench_peer::Protocol;
use super::bench_search::{nnue_search, search};
use super::bench_selfplay::{selfplay, SelfplaySetup};
use super::bench_train::train;
use super::bench_web::web;
use super::GameKind;
use xiangqi_zero::game::xiangqi::Xiangqi;
use xiangqi_zero::nn::NetConfig;
use xiangqi_zero::nn::Precision;

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
        /// An NNUE file: the alpha-beta with it and with the hand-written tables, by turns,
        /// over the built-in openings' positions to the same depth: both nodes/s and the ratio.
        #[arg(long, value_name = "FILE")]
        nnue: Option<PathBuf>,
    },
    /// A net on Xiangqi input (the 6×64 reference unless told): forward positions/s at
    /// batch 1, 16, 64 and 256 for burn's flex backend and for our CPU forward pass (in
    /// fp32, in bf16 where the CPU has AMX, in int8 where it has AVX512-VNNI), with its
    /// share of the CPU's peak, and training samples/s at batch 256 (Adam). Each against
    /// the same net on the same threads in the same run, at the same precision: ONNX
    /// Runtime on its ONNX export (fp32, and int8 by its own static quantization), run by
    /// turns with ours, when python3 has onnxruntime (and `onnx` for int8;
    /// `scripts/onnxruntime-reference.py`), and PyTorch fp32 when it has torch
    /// (`scripts/pytorch-reference.py`). Threads: rayon's global pool (set
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
    /// search settings, or of a config's net with its self-play search (`--config`), in
    /// each precision the CPU runs (fp32; bf16 with AMX; int8 with VNNI), by turns:
    /// simulations/s, their ratio to fp32's, and over the net's own positions/s at the same
    /// batch on the same threads (1.0 = everything but the forward pass is free), median of
    /// the runs' ratios.
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
        What::Search { depth, runs, nnue: Some(file), .. } => nnue_search(&file, depth, runs)?,
        What::Search { depth, runs, vs_engine, protocol, engine_timeout, nnue: None } => {
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

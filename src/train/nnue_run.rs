//! An NNUE run's loop, generation by generation: the current player (the hand-written
//! tables at first, then the newest accepted net) plays games whose quiet positions are
//! labelled by its search and the results; a fresh net (its direct term the tables)
//! trains on the newest positions for a few passes; the new net plays the current player
//! at equal depth and becomes the current one if it scores above half. A fresh net each
//! generation, not the current one trained on: going on trained the older positions again
//! every generation, and the nets learnt them by heart (docs/experiments.md, 2026-12-06,
//! night).
//!
//! The run directory holds `config.toml`, `state.json` (the last complete generation and
//! the current net: the commit point), `positions.bin` (the labelled positions,
//! appended), `nets/genNNNN.nnue`, `metrics.jsonl` and `plots/nnue.png`. The state and
//! the current net are all `--resume` needs: without `positions.bin` the next
//! generation's games refill it.
//! The run's snapshot ([`write_nnue_snapshot`]) keeps just those, replaced each generation.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use burn::tensor::Device;
use indicatif::ProgressBar;

use super::nnue_config::NnueConfig;
use super::nnue_metrics::{append_nnue_metrics, read_nnue_metrics, truncate_nnue_metrics, NnueMetrics};
use super::nnue_snapshot::write_nnue_snapshot;
use super::nnue_state::{read_nnue_state, write_nnue_state};
use super::plot::draw_nnue_plots;
use super::progress_bar::bar;
use crate::atomic_write::write_atomically;
use crate::game::xiangqi::{Notation, Rules, Xiangqi};
use crate::matches::{builtin_openings, run_match, xiangqi_starts, Adjudication, MatchConfig, OwnedOpening, Score};
use crate::nnue::positions::{self, LabelledPosition};
use crate::nnue::selfplay::{play_games, GameSettings};
use crate::nnue::train::{train, EpochReport, TrainSettings};
use crate::nnue::{FloatNet, Nnue, NnueEvaluation};
use crate::players::{PlayerSpec, DEFAULT_HASH_MB};
use crate::search::evaluation::{Evaluation, PieceSquares};
use crate::search::Limits;

/// How a run is driven.
pub struct NnueRunOptions<'a> {
    /// Run until this many generations are complete.
    pub generations: usize,
    /// Set to stop after the phase under way.
    pub stop: &'a AtomicBool,
    /// Show progress bars.
    pub progress: bool,
    /// Where the run's snapshot is replaced after each generation ([`write_nnue_snapshot`]).
    pub snapshot: Option<&'a Path>,
}

/// The run directory's files.
struct Files {
    root: PathBuf,
}

impl Files {
    fn positions(&self) -> PathBuf {
        self.root.join("positions.bin")
    }
    fn net(&self, name: &str) -> PathBuf {
        self.root.join("nets").join(name)
    }
}

/// Runs (or resumes) the NNUE run of `config` in `dir` until `options.generations` are
/// complete or it is stopped; returns the last complete generation.
pub fn run_nnue(config: &NnueConfig, dir: &Path, options: &NnueRunOptions) -> Result<usize, String> {
    let files = Files { root: dir.to_path_buf() };
    let io = |path: &Path, e: std::io::Error| format!("{}: {e}", path.display());
    std::fs::create_dir_all(files.root.join("nets")).map_err(|e| io(&files.root, e))?;
    let config_path = files.root.join("config.toml");
    if !config_path.exists() {
        let text = toml::to_string(config).map_err(|e| e.to_string())?;
        write_atomically(&config_path, &text).map_err(|e| io(&config_path, e))?;
    }
    let mut state = read_nnue_state(dir)?.unwrap_or_default();
    // A generation cut short is played again from its start: what it wrote past the last
    // commit (positions, a metrics line) goes.
    let metrics_file = files.root.join("metrics.jsonl");
    if let Some(records) = state.positions {
        positions::truncate(&files.positions(), records)?;
    }
    truncate_nnue_metrics(&metrics_file, state.generation).map_err(|e| e.to_string())?;
    let settings = &config.nnue;
    let device = Device::flex().autodiff();
    while state.generation < options.generations && !options.stop.load(Ordering::SeqCst) {
        let generation = state.generation + 1;
        let started = Instant::now();
        let current = match &state.current {
            Some(name) => Some(Arc::new(Nnue::load(&files.net(name))?)),
            None => None,
        };

        // Games by the current player.
        let games = GameSettings {
            limits: Limits::depth(settings.depth),
            random_plies: settings.random_plies,
            max_plies: settings.max_plies,
            rules: Rules::default(),
        };
        let seed =
            config.seed.wrapping_mul(1_000_003).wrapping_add((generation * settings.games_per_generation) as u64);
        let games_bar = bar(options.progress, settings.games_per_generation as u64, "games");
        let new = match &current {
            Some(net) => {
                generate(&NnueEvaluation::new(net.clone()), &games, settings.games_per_generation, seed, &games_bar)
            }
            None => generate(&PieceSquares, &games, settings.games_per_generation, seed, &games_bar),
        };
        games_bar.finish_and_clear();
        positions::append(&files.positions(), &new)?;
        if options.stop.load(Ordering::SeqCst) {
            break;
        }

        // A fresh net trained on the newest positions.
        let mut window = positions::read(&files.positions())?;
        let written = window.len() as u64;
        if window.len() > settings.window {
            window.drain(..window.len() - settings.window);
        }
        let start = FloatNet::random(config.seed.wrapping_add(generation as u64));
        let train_settings = TrainSettings {
            batch_size: settings.batch_size,
            epochs: settings.epochs,
            learning_rate: settings.learning_rate,
            score_weight: settings.score_weight,
            seed: config.seed.wrapping_add(generation as u64),
        };
        let epochs_bar = bar(options.progress, settings.epochs as u64, "epochs");
        let mut last = None;
        let trained = train(&start, &window, &train_settings, &device, &mut |report: EpochReport| {
            epochs_bar.inc(1);
            epochs_bar.set_message(format!("loss {:.5}, held out {:.5}", report.loss, report.held_out_loss));
            last = Some(report);
        });
        epochs_bar.finish_and_clear();
        let last = last.expect("at least one epoch");
        let name = format!("gen{generation:04}.nnue");
        let provenance = format!(
            "xiangqi-zero NNUE run `{}`, generation {generation}: trained from the hand-written tables, {} passes \
             over {} positions of its own games (depth-{} searches, scores blended {}:{} with results)",
            config.name,
            settings.epochs,
            window.len(),
            settings.depth,
            settings.score_weight,
            1.0 - settings.score_weight,
        );
        Nnue::quantize(&trained, &provenance).save(&files.net(&name))?;

        // The gate: the new net against the current player, at equal depth.
        // Built, not parsed: the run's path may hold any character.
        let spec = |net: Option<&str>| -> PlayerSpec {
            let (limits, hash_mb) = (Limits::depth(settings.gate_depth), DEFAULT_HASH_MB);
            match net {
                Some(name) => PlayerSpec::Nnue { file: Some(files.net(name)), limits, hash_mb },
                None => PlayerSpec::AlphaBeta { limits, hash_mb },
            }
        };
        let score = gate(
            &spec(Some(&name)),
            &spec(state.current.as_deref()),
            settings.gate_games,
            config.seed,
            options.progress,
        )?;
        let accepted = score.points() > score.games() as f64 / 2.0;
        let metrics = NnueMetrics {
            generation,
            games: settings.games_per_generation,
            new_positions: new.len(),
            window: window.len(),
            loss: last.loss,
            held_out_loss: last.held_out_loss,
            gate: [score.wins, score.draws, score.losses],
            accepted,
            seconds: started.elapsed().as_secs_f64(),
        };
        println!(
            "gen{generation:04}: {} games, {} positions (window {}) | loss {:.5}, held out {:.5} | against {}: {}-{}-{} {} | {:.0} s",
            metrics.games,
            metrics.new_positions,
            metrics.window,
            metrics.loss,
            metrics.held_out_loss,
            state.current.as_deref().unwrap_or("the tables"),
            score.wins,
            score.draws,
            score.losses,
            if accepted { "accepted" } else { "kept the current" },
            metrics.seconds
        );
        append_nnue_metrics(&metrics_file, &metrics).map_err(|e| e.to_string())?;
        let drawn = read_nnue_metrics(&metrics_file).map_err(|e| e.to_string()).and_then(|all| {
            draw_nnue_plots(&all, &nnue_setup(config), &files.root.join("plots")).map_err(|e| e.to_string())
        });
        if let Err(error) = drawn {
            eprintln!("warning: the plot was not redrawn: {error}");
        }
        state.generation = generation;
        state.positions = Some(written);
        if accepted {
            state.current = Some(name);
        }
        write_nnue_state(&files.root, &state)?;
        if let Some(path) = options.snapshot {
            write_nnue_snapshot(&files.root, &state, path)?;
        }
    }
    Ok(state.generation)
}

/// The line naming an NNUE run under its plot.
pub fn nnue_setup(config: &NnueConfig) -> String {
    let settings = &config.nnue;
    format!(
        "{} · {} games a generation searched to depth {} · gates of {} games at depth {}",
        config.name, settings.games_per_generation, settings.depth, settings.gate_games, settings.gate_depth
    )
}

/// Plays the generation's games with `evaluation`, ticking `bar`.
fn generate<E: Evaluation + Sync>(
    evaluation: &E,
    settings: &GameSettings,
    games: usize,
    seed: u64,
    bar: &ProgressBar,
) -> Vec<LabelledPosition> {
    play_games(evaluation, settings, games, seed, &|| bar.inc(1))
}

/// The gating match of `new` against `current`: paired openings, both sides at their depth.
fn gate(new: &PlayerSpec, current: &PlayerSpec, games: u32, seed: u64, progress: bool) -> Result<Score, String> {
    let openings: Vec<OwnedOpening> = builtin_openings().iter().map(OwnedOpening::from).collect();
    let starts = xiangqi_starts(&openings, Rules::default())?;
    let config = MatchConfig {
        games,
        concurrency: rayon::current_num_threads(),
        movetime: None,
        sprt: None,
        out: None,
        resume: false,
        max_plies: 400,
        adjudication: Adjudication::default(),
        seed,
        progress,
        notation: Notation::Iccs,
    };
    Ok(run_match::<Xiangqi>(new, current, &starts, &config)?.score)
}

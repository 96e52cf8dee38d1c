//! Training: the net learns from the self-play samples of the run's `games/` directory,
//! generation after generation.
//!
//! - [`config::Config`]: the run's TOML config, every layer's settings in one file.
//! - [`TrainSettings`]: the `[train]` table — batch size, steps per generation, the
//!   optimiser and its learning-rate schedule, the window's growth.
//! - [`Window`]: the replay window, the newest shards of `games/`, kept in memory.
//! - [`make_batch`] / [`spawn_loader`]: random samples of the window under random
//!   symmetries as dense [`Batch`]es, prepared on a background thread.
//! - [`Optimizer`]: SGD or Adam, its state saved beside the model.
//! - [`Trainer`]: the net, its optimiser and the global step; trains and reports
//!   ([`TrainReport`]), saves and resumes.
//! - [`run`]: the generation loop in a [`RunDir`], each net measured on the run's ladder
//!   of fixed players (`ladder.json`); [`contribute`]: self-play alone for one.
//! - [`write_snapshot`] / [`restore_snapshot`]: the run without its samples in one small
//!   file, from which `train --resume` goes on on any machine.
//! - [`GenerationMetrics`] in `metrics.jsonl`, drawn by [`draw_plots`]; [`Forecast`]: the
//!   time a run has left, from the generations it has timed (and at first from a
//!   [`SpeedProbe`] of this machine); [`trained_nets`]: the newest
//!   net of each run in a folder, as `serve` offers them.
//! - [`run_nnue`]: an NNUE run's loop (games by the current alpha-beta player, training
//!   on their labelled positions, a gating match), under an [`nnue_config::NnueConfig`];
//!   [`write_nnue_snapshot`] / [`restore_nnue_snapshot`]: its snapshot.

mod archive;
pub mod config;
mod contribute;
mod export;
mod forecast;
mod game;
mod ladder;
mod loader;
pub mod metrics;
mod net_evaluator;
pub mod nnue_config;
mod nnue_metrics;
mod nnue_run;
mod nnue_snapshot;
mod nnue_state;
mod optimizer;
pub mod plot;
mod progress_bar;
mod run;
mod run_dir;
mod run_error;
mod settings;
mod snapshot;
mod speed_probe;
mod start;
mod trained;
mod trainer;
mod window;

pub use contribute::contribute;
pub use export::{export, ExportError, Exported, NetFormat};
pub use forecast::Forecast;
pub use game::{NewGame, TrainableGame};
pub use loader::{make_batch, spawn_loader, Batch};
pub use metrics::{
    append_metrics, read_metrics, truncate_metrics, EloResult, GenerationMetrics, LadderElo, MetricsError,
};
pub use nnue_metrics::{read_nnue_metrics, NnueMetrics};
pub use nnue_run::{nnue_setup, run_nnue, NnueRunOptions};
pub use nnue_snapshot::{restore_nnue_snapshot, write_nnue_snapshot};
pub use nnue_state::{read_nnue_state, NnueState};
pub use optimizer::{Optimizer, OptimizerError};
pub use plot::{draw_nnue_plots, draw_plots, PlotError};
pub use run::{run, RunEnd, RunOptions};
pub use run_dir::{generation_name, RunDir, RunDirError, RunState, CHECKPOINTS};
pub use run_error::RunError;
pub use settings::{OptimizerKind, Schedule, TrainSettings};
pub use snapshot::{default_snapshot, has_snapshot, restore_snapshot, write_snapshot};
pub use speed_probe::SpeedProbe;
pub use start::Start;
pub use trained::{trained_nets, TrainedNet};
pub use trainer::{TrainError, TrainReport, Trainer};
pub use window::{Window, WindowError, WindowUpdate};

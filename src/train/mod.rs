//! Training: the net learns from the self-play samples of the run's `games/` directory.
//!
//! - [`TrainSettings`]: the `[train]` table — batch size, steps per generation, the
//!   optimiser and its learning-rate schedule, the window's growth.
//! - [`Window`]: the replay window, the newest shards of `games/`, kept in memory.
//! - [`make_batch`] / [`spawn_loader`]: random samples of the window under random
//!   symmetries as dense [`Batch`]es, prepared on a background thread.
//! - [`Optimizer`]: SGD or Adam, its state saved beside the model.
//! - [`Trainer`]: the net, its optimiser and the global step; trains and reports
//!   ([`TrainReport`]), saves and resumes.

mod loader;
mod optimizer;
mod settings;
mod trainer;
mod window;

pub use loader::{make_batch, spawn_loader, Batch};
pub use optimizer::{Optimizer, OptimizerError};
pub use settings::{OptimizerKind, Schedule, TrainSettings};
pub use trainer::{TrainError, TrainReport, Trainer};
pub use window::{Window, WindowError, WindowUpdate};

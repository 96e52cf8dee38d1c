//! Self-play: workers that play many games at once through the MCTS driver with a
//! network evaluator ([`crate::nn::NetEvaluator`]), and the training samples they write as `.npz` shards.
//!
//! - [`play_games`]: a generation's games ([`SelfPlayJob`]) on worker threads under
//!   [`SelfPlaySettings`], live counts in [`SelfPlayProgress`], a [`SelfPlayReport`] at
//!   the end; every shard holds whole games, with the same games as PGN beside it.
//!   [`on_worker_threads`] sets up the workers' threads and rayon pools.
//! - [`Samples`]: positions (planes packed to bits), sparse search policies and targets,
//!   and the number of games they come from.
//! - [`write_shard`] / [`read_shard`]: those samples as a numpy-readable `.npz` file.

mod collector;
mod job;
mod progress;
mod samples;
mod settings;
mod shard;
mod threads;
mod worker;

pub use job::SelfPlayJob;
pub use progress::{SelfPlayProgress, SelfPlayReport};
pub use samples::{SampleShape, Samples, Targets, TARGET_COLUMNS};
pub use settings::SelfPlaySettings;
pub use shard::{read_shard, write_shard, ShardError};
pub use threads::on_worker_threads;
pub use worker::play_games;

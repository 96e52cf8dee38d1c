//! Self-play: workers that play many games at once through the MCTS driver with a
//! network evaluator, and the training samples they write as `.npz` shards.
//!
//! - [`Samples`]: positions (planes packed to bits), sparse search policies and targets.
//! - [`write_shard`] / [`read_shard`]: those samples as a numpy-readable `.npz` file.

mod samples;
mod shard;

pub use samples::{SampleShape, Samples, Targets, TARGET_COLUMNS};
pub use shard::{read_shard, write_shard, ShardError};

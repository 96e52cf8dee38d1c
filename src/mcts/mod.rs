//! Monte Carlo tree search: PUCT (or Gumbel) search over an arena of nodes, with exact
//! chance nodes for Banqi's flips and batched leaf evaluation.
//!
//! - [`Evaluator`]: a batch of positions in, a prior over each one's legal moves and a
//!   win/draw/loss value out — a network, or the built-in [`UniformEvaluator`] and
//!   [`MaterialEvaluator`].
//! - [`Search`]: one game's tree; gathers leaves under virtual loss into a [`Batch`],
//!   backs up their evaluations, keeps the chosen subtree when a move is played, and
//!   produces a [`SearchResult`] (per-move statistics, policy target, root value) and
//!   the move to play.
//! - [`Driver`]: many games on one thread, their leaves in one evaluator call.
//! - [`SearchConfig`]: every setting, serde-friendly, for the training config to embed.
//!
//! Depends on [`crate::game`] only.

mod config;
mod driver;
mod evaluator;
mod guided;
mod gumbel;
mod material;
mod node;
mod noise;
mod play_settings;
mod readout;
mod root;
mod search;
mod search_result;
mod select;
mod tree;
mod tree_stats;
mod uniform;

pub use config::{RootSelection, SearchConfig};
pub use driver::{Driver, Ending, Event, GameOver, MoveRecord};
pub use evaluator::{Batch, Evaluator, Wdl};
pub use guided::Guided;
pub use material::{Material, MaterialEvaluator};
pub use node::{Edge, Node, NodeKind, Proof};
pub(crate) use play_settings::non_negative;
pub use play_settings::PlaySettings;
pub use search::{Budget, Search};
pub use search_result::{MoveStats, SearchResult};
pub use uniform::UniformEvaluator;

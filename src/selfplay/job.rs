//! What a self-play run is asked for: its games, their start, where the shards go.

use std::path::PathBuf;
use std::sync::Arc;

use rand::rngs::StdRng;

use crate::game::Game;

/// The games a self-play run is to play, and where their shards go.
#[derive(Clone)]
pub struct SelfPlayJob<G: Game> {
    /// Games to play in all (split among the workers).
    pub games: u64,
    /// A game's start, given the worker's random generator (for random openings).
    pub new_game: Arc<dyn Fn(&mut StdRng) -> G + Send + Sync>,
    /// The directory the shards go to (the run's `games/`, on disk or in an object
    /// store); created if missing.
    pub out_dir: PathBuf,
    /// What shard names start with, e.g. `gen0003`.
    pub prefix: String,
    /// The seed of the games' random choices (each worker's derived from it).
    pub seed: u64,
}

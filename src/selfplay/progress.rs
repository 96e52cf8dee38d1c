//! What self-play has done: live counters the caller reads while the workers run, and
//! the report it gets at the end.

use std::sync::atomic::{AtomicU64, Ordering};

/// Counters the workers add to as they go, for a progress bar; read them with
/// [`SelfPlayProgress::snapshot`] or each field's `load`.
#[derive(Debug, Default)]
pub struct SelfPlayProgress {
    /// Games finished.
    pub games: AtomicU64,
    /// Samples of finished games (one per searched move).
    pub samples: AtomicU64,
    /// Moves searched, in finished games and in games still going.
    pub moves: AtomicU64,
    /// Search simulations run.
    pub simulations: AtomicU64,
    /// Shards written.
    pub shards: AtomicU64,
}

impl SelfPlayProgress {
    /// All counters at zero.
    pub fn new() -> SelfPlayProgress {
        SelfPlayProgress::default()
    }

    /// The counters now: games, samples, moves, simulations, shards.
    pub fn snapshot(&self) -> [u64; 5] {
        [&self.games, &self.samples, &self.moves, &self.simulations, &self.shards].map(|c| c.load(Ordering::Relaxed))
    }

    /// Adds `n` to `counter`.
    pub(super) fn add(counter: &AtomicU64, n: u64) {
        counter.fetch_add(n, Ordering::Relaxed);
    }
}

/// What a self-play run did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SelfPlayReport {
    /// Games finished and written.
    pub games: u64,
    /// Samples written (one per searched move of those games).
    pub samples: u64,
    /// Moves searched, games lost to a stop included.
    pub moves: u64,
    /// Search simulations run.
    pub simulations: u64,
    /// Wall-clock time.
    pub seconds: f64,
    /// Mean plies of the finished games.
    pub mean_plies: f64,
    /// Finished games the first player (Red in Xiangqi) won.
    pub first_wins: u64,
    /// Finished games drawn (the ply cap included).
    pub draws: u64,
    /// Finished games the second player won.
    pub second_wins: u64,
    /// Whether the stop flag ended the run before every game was played.
    pub stopped: bool,
}

impl SelfPlayReport {
    /// Moves searched per second.
    pub fn moves_per_second(&self) -> f64 {
        self.moves as f64 / self.seconds.max(1e-9)
    }

    /// Simulations per second.
    pub fn simulations_per_second(&self) -> f64 {
        self.simulations as f64 / self.seconds.max(1e-9)
    }
}

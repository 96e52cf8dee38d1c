//! An NNUE run's `metrics.jsonl`: one line per generation — its games and positions, the
//! fresh net's losses, and its gate against the current player.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::metrics::{append_line, keep_lines, read_lines, MetricsError};
use crate::matches::{elo_estimate, Score};

/// One generation's line in `metrics.jsonl`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NnueMetrics {
    /// The generation (1 for the first).
    pub generation: usize,
    /// Games played by the current player.
    pub games: usize,
    /// Labelled positions they gave.
    pub new_positions: usize,
    /// Positions the net trained on.
    pub window: usize,
    /// The training loss of the last pass.
    pub loss: f64,
    /// The loss on the positions held out of training.
    pub held_out_loss: f64,
    /// The gate, the new net against the current player: wins, draws, losses.
    pub gate: [u32; 3],
    /// Whether the new net became the current player.
    pub accepted: bool,
    /// Wall seconds of the generation.
    pub seconds: f64,
}

impl NnueMetrics {
    /// The gate's Elo of the new net over the current player, with its 95% interval
    /// (`None` without games).
    pub fn gate_elo(&self) -> Option<(f64, f64, f64)> {
        let [wins, draws, losses] = self.gate;
        elo_estimate(&Score { wins, draws, losses }).map(|e| (e.elo, e.lower, e.upper))
    }
}

/// Reads every line of an NNUE run's `metrics.jsonl` at `path` (none if it is missing).
pub fn read_nnue_metrics(path: &Path) -> Result<Vec<NnueMetrics>, MetricsError> {
    read_lines(path)
}

/// Drops the lines of generations after `generation` (a generation cut short) from an
/// NNUE run's `metrics.jsonl`.
pub fn truncate_nnue_metrics(path: &Path, generation: usize) -> Result<(), MetricsError> {
    keep_lines(path, |m: &NnueMetrics| m.generation <= generation)
}

/// Appends one generation's line to an NNUE run's `metrics.jsonl` (rewritten atomically).
pub fn append_nnue_metrics(path: &Path, metrics: &NnueMetrics) -> Result<(), MetricsError> {
    append_line(path, metrics)
}

//! A run's `metrics.jsonl`: one JSON object a line, one line a generation, with what
//! self-play, training and evaluation measured ([`GenerationMetrics`]).
//!
//! The file is rewritten whole and atomically on every append, so a kill at any moment
//! leaves the old file or the new one, never a torn last line. Floats that JSON cannot
//! hold — an Elo of ±∞ after a match won or lost outright, a NaN loss — are written as
//! `"inf"`, `"-inf"` and `null` (NaN) and read back as such, so such a line never makes
//! the file unreadable. Finite floats are written in their shortest exact form; one that
//! needs 16 or 17 significant digits may read back a unit off in its last bit (serde_json
//! parses floats fast rather than exactly by default).

use std::io;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::matches::ratings::{standing, Placement, Rung};
use crate::matches::stats::{elo_estimate, Score};
use crate::storage;

/// What one generation of a run measured: one line of `metrics.jsonl`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GenerationMetrics {
    /// The generation number (1 for the first).
    pub generation: u32,
    /// Training wall time since the run began, in hours, summed over resumed sessions.
    #[serde(with = "json_float")]
    pub hours: f64,
    /// Self-play games finished in this generation.
    pub games: u64,
    /// Training samples those games produced.
    pub samples: u64,
    /// Samples produced since the run began.
    pub total_samples: u64,
    /// Samples in the replay window trained on.
    pub window_samples: u64,
    /// Wall time of this generation's self-play, in seconds.
    #[serde(with = "json_float")]
    pub selfplay_seconds: f64,
    /// Moves played per second of self-play.
    #[serde(with = "json_float")]
    pub moves_per_second: f64,
    /// MCTS simulations per second of self-play.
    #[serde(with = "json_float")]
    pub simulations_per_second: f64,
    /// Mean length of this generation's games, in plies.
    #[serde(with = "json_float")]
    pub mean_game_plies: f64,
    /// Games won by the side that moved first.
    pub first_wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games won by the side that moved second.
    pub second_wins: u64,
    /// Optimiser steps taken in this generation.
    pub train_steps: u64,
    /// Samples trained on per second of training.
    #[serde(with = "json_float")]
    pub train_samples_per_second: f64,
    /// Mean total loss over this generation's steps.
    #[serde(with = "json_float")]
    pub loss: f64,
    /// Mean policy loss (cross-entropy against the search's visit distribution).
    #[serde(with = "json_float")]
    pub policy_loss: f64,
    /// Mean value loss.
    #[serde(with = "json_float")]
    pub value_loss: f64,
    /// Mean reply-policy loss, for a net that predicts the opponent's reply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reply_loss: Option<f64>,
    /// Mean soft-policy loss, for a net that predicts the flattened policy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub soft_loss: Option<f64>,
    /// Mean entropy of the network's policy, in nats.
    #[serde(with = "json_float")]
    pub policy_entropy: f64,
    /// Share of samples whose value target's most likely win/draw/loss the value head
    /// predicted, in [0, 1] (the target blends the game's outcome with the search's value
    /// by `root_value_weight`).
    #[serde(with = "json_float")]
    pub value_accuracy: f64,
    /// Learning rate at the generation's last step.
    #[serde(with = "json_float")]
    pub learning_rate: f64,
    /// Wall time of this generation's training, in seconds.
    #[serde(with = "json_float")]
    pub train_seconds: f64,
    /// Evaluation matches played after this generation; empty when none was.
    #[serde(default)]
    pub elo: Vec<EloResult>,
    /// Where the net stands on the run's ladder, when it was evaluated against one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ladder: Option<LadderElo>,
    /// Whether this generation's games were played by the material heuristic (a bootstrap
    /// generation) rather than by the net.
    #[serde(default)]
    pub bootstrap: bool,
    /// The run as the plots name it: config, net shape and machine, e.g.
    /// `xiangqi-tiny · 4×32 net · 2 cores, CPU only` (empty in older runs' lines).
    #[serde(default)]
    pub setup: String,
}

/// A net's Elo on the run's ladder (one scale, the first rung at 0), with the rungs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LadderElo {
    /// Its Elo and 95% interval (always finite: see [`crate::matches::ratings`]).
    #[serde(flatten)]
    pub placement: Placement,
    /// The rungs and their Elo.
    pub rungs: Vec<Rung>,
}

impl std::fmt::Display for LadderElo {
    /// `ladder Elo -518 [-647, -393], between gen0000 (-593) and mcts:sims=800,eval=material (-6)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Placement { elo, low, high } = self.placement;
        write!(f, "ladder Elo {elo:+.0} [{low:+.0}, {high:+.0}], {}", standing(elo, &self.rungs))
    }
}

/// The result of one evaluation match of a generation's network against an opponent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EloResult {
    /// The opponent as a player spec, e.g. `alphabeta:depth=1` or `gen0000`.
    pub opponent: String,
    /// Games played.
    pub games: u64,
    /// Games the network won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games the network lost.
    pub losses: u64,
    /// The network's Elo difference to the opponent (±∞ after a clean sweep; NaN with no game).
    #[serde(with = "json_float")]
    pub elo: f64,
    /// The lower end of the 95% interval.
    #[serde(with = "json_float")]
    pub low: f64,
    /// The upper end of the 95% interval.
    #[serde(with = "json_float")]
    pub high: f64,
}

impl EloResult {
    /// The result of `wins`, `draws` and `losses` against `opponent`, with the Elo difference
    /// and its 95% interval as [`elo_estimate`] computes them (NaN when no game was played).
    /// Counts beyond `u32::MAX` saturate there.
    pub fn from_score(opponent: impl Into<String>, wins: u64, draws: u64, losses: u64) -> EloResult {
        let count = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
        let estimate = elo_estimate(&Score::new(count(wins), count(draws), count(losses)));
        let (elo, low, high) = estimate.map_or((f64::NAN, f64::NAN, f64::NAN), |e| (e.elo, e.lower, e.upper));
        EloResult { opponent: opponent.into(), games: wins + draws + losses, wins, draws, losses, elo, low, high }
    }
}

/// Why `metrics.jsonl` could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum MetricsError {
    /// The file exists but could not be read.
    #[error("cannot read `{path}`: {source}")]
    Read {
        /// The metrics file.
        path: PathBuf,
        /// The I/O error.
        source: io::Error,
    },
    /// A line is not a generation's metrics.
    #[error("`{path}` line {line}: {source}")]
    Parse {
        /// The metrics file.
        path: PathBuf,
        /// The line's number, from 1.
        line: usize,
        /// What is wrong with it.
        source: serde_json::Error,
    },
    /// The file could not be written.
    #[error("cannot write `{path}`: {source}")]
    Write {
        /// The metrics file.
        path: PathBuf,
        /// The I/O error.
        source: io::Error,
    },
}

/// Reads a run's metrics, one generation a line; blank lines are skipped, and a missing
/// file is a run with no generation yet.
pub fn read_metrics(path: &Path) -> Result<Vec<GenerationMetrics>, MetricsError> {
    read_lines(path)
}

/// Reads a JSON-lines metrics file of any run kind, one record a line; blank lines are
/// skipped, and a missing file holds none.
pub(crate) fn read_lines<T: DeserializeOwned>(path: &Path) -> Result<Vec<T>, MetricsError> {
    read_text(path)?
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(index, line)| {
            serde_json::from_str(line).map_err(|source| MetricsError::Parse {
                path: path.to_path_buf(),
                line: index + 1,
                source,
            })
        })
        .collect()
}

/// Appends one generation's line to the metrics file (created if missing), rewriting the
/// file atomically: a kill at any moment leaves the old file or the new one whole.
/// The lines already there are kept byte for byte.
pub fn append_metrics(path: &Path, metrics: &GenerationMetrics) -> Result<(), MetricsError> {
    append_line(path, metrics)
}

/// [`append_metrics`] for a metrics file of any run kind.
pub(crate) fn append_line<T: Serialize>(path: &Path, metrics: &T) -> Result<(), MetricsError> {
    let mut text = read_text(path)?;
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    push_line(&mut text, path, metrics)?;
    write_text(path, &text)
}

/// Drops the lines of generations after `generation` (those of a generation that was in
/// progress when a run was killed), rewriting the file atomically if any is dropped.
pub fn truncate_metrics(path: &Path, generation: u32) -> Result<(), MetricsError> {
    keep_lines(path, |m: &GenerationMetrics| m.generation <= generation)
}

/// Keeps the lines of a metrics file of any run kind that `keep` accepts, rewriting the
/// file atomically if any is dropped.
pub(crate) fn keep_lines<T: Serialize + DeserializeOwned>(
    path: &Path,
    keep: impl Fn(&T) -> bool,
) -> Result<(), MetricsError> {
    let all: Vec<T> = read_lines(path)?;
    if all.iter().all(&keep) {
        return Ok(());
    }
    let mut text = String::new();
    for metrics in all.iter().filter(|m| keep(m)) {
        push_line(&mut text, path, metrics)?;
    }
    write_text(path, &text)
}

/// Appends `metrics` as one JSON line to `text`, the future contents of `path`.
fn push_line<T: Serialize>(text: &mut String, path: &Path, metrics: &T) -> Result<(), MetricsError> {
    let line = serde_json::to_string(metrics)
        .map_err(|source| MetricsError::Write { path: path.to_path_buf(), source: source.into() })?;
    text.push_str(&line);
    text.push('\n');
    Ok(())
}

/// Replaces the metrics file with `text`, atomically.
fn write_text(path: &Path, text: &str) -> Result<(), MetricsError> {
    storage::write(path, text.as_bytes()).map_err(|source| MetricsError::Write { path: path.to_path_buf(), source })
}

/// The file's text; empty when it does not exist.
fn read_text(path: &Path) -> Result<String, MetricsError> {
    let error = |source| MetricsError::Read { path: path.to_path_buf(), source };
    match storage::read(path) {
        Ok(bytes) => String::from_utf8(bytes).map_err(|e| error(io::Error::new(io::ErrorKind::InvalidData, e))),
        Err(source) if source.kind() == io::ErrorKind::NotFound => Ok(String::new()),
        Err(source) => Err(error(source)),
    }
}

/// An `f64` in JSON, non-finite values included: a finite number as a number, NaN as
/// `null`, ±∞ as the strings `"inf"` / `"-inf"`.
mod json_float {
    use serde::{de, Deserialize, Deserializer, Serializer};

    /// Writes `value` as a number, `null`, `"inf"` or `"-inf"`.
    pub fn serialize<S: Serializer>(value: &f64, serializer: S) -> Result<S::Ok, S::Error> {
        if value.is_nan() {
            serializer.serialize_none()
        } else if value.is_infinite() {
            serializer.serialize_str(if *value > 0.0 { "inf" } else { "-inf" })
        } else {
            serializer.serialize_f64(*value)
        }
    }

    /// The JSON forms [`serialize`] writes.
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Repr {
        Number(f64),
        Text(String),
        Null(()),
    }

    /// Reads a number, `null` (NaN), `"inf"` or `"-inf"`.
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<f64, D::Error> {
        match Repr::deserialize(deserializer)? {
            Repr::Number(value) => Ok(value),
            Repr::Null(()) => Ok(f64::NAN),
            Repr::Text(text) => match text.as_str() {
                "inf" => Ok(f64::INFINITY),
                "-inf" => Ok(f64::NEG_INFINITY),
                _ => Err(de::Error::custom(format!("expected a number, null, \"inf\" or \"-inf\", found \"{text}\""))),
            },
        }
    }
}

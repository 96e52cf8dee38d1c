//! A run directory: everything one training run writes, in one place, so that `--resume`,
//! `plot` and self-play on other machines find it.
//!
//! ```text
//! config.toml                the run's config (rewritten when a resume changes it)
//! state.json                 the last complete generation: the commit point of each one
//! models/genNNNN.safetensors the net after generation N (gen0000: random weights)
//! models/genNNNN.optimizer   the optimiser's state beside it
//! games/genNNNN-….npz        self-play sample shards played by net N−1 (and .pgn games)
//! metrics.jsonl              one line of figures per generation
//! plots/                     PNG plots of the metrics
//! ```

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::atomic::write_atomically;

/// The folder `train` puts run directories in unless told otherwise (`checkpoints/<name>`).
pub const CHECKPOINTS: &str = "checkpoints";

/// The state a run resumes from: written, atomically, after everything else of a
/// generation is on disk.
#[derive(Clone, Copy, PartialEq, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunState {
    /// The last complete generation (0: only the random net).
    pub generation: u32,
    /// Training steps taken so far.
    pub step: u64,
    /// Wall-clock hours spent so far, over all sessions.
    pub hours: f64,
    /// Samples self-play has written so far.
    pub total_samples: u64,
}

/// Why a run directory could not be used: one line naming the file.
#[derive(Debug, thiserror::Error)]
#[error("{}: {why}", path.display())]
pub struct RunDirError {
    /// The file or directory.
    pub path: PathBuf,
    /// What went wrong.
    pub why: String,
}

/// The paths of a run directory.
#[derive(Clone, Debug)]
pub struct RunDir {
    root: PathBuf,
}

impl RunDir {
    /// The run directory at `root` (nothing is created yet).
    pub fn new(root: impl Into<PathBuf>) -> RunDir {
        RunDir { root: root.into() }
    }

    /// The directory itself.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The run's copy of its config.
    pub fn config(&self) -> PathBuf {
        self.root.join("config.toml")
    }

    /// The resume state.
    pub fn state_file(&self) -> PathBuf {
        self.root.join("state.json")
    }

    /// The directory of the nets.
    pub fn models(&self) -> PathBuf {
        self.root.join("models")
    }

    /// The directory of the sample shards and PGN games.
    pub fn games(&self) -> PathBuf {
        self.root.join("games")
    }

    /// The metrics file.
    pub fn metrics(&self) -> PathBuf {
        self.root.join("metrics.jsonl")
    }

    /// The plots' directory.
    pub fn plots(&self) -> PathBuf {
        self.root.join("plots")
    }

    /// `ladder.json`: the evaluation ladder's rungs with their Elo, rated once.
    pub fn ladder(&self) -> PathBuf {
        self.root.join("ladder.json")
    }

    /// The net after `generation`.
    pub fn model(&self, generation: u32) -> PathBuf {
        self.models().join(format!("{}.safetensors", generation_name(generation)))
    }

    /// The optimiser's state after `generation`.
    pub fn optimizer(&self, generation: u32) -> PathBuf {
        self.models().join(format!("{}.optimizer", generation_name(generation)))
    }

    /// Checks that the directory holds a run (its config, state or metrics), so that a
    /// command given another directory, or a file, says so rather than acting on it.
    pub fn check_is_run(&self) -> Result<(), RunDirError> {
        let why = if !self.root.exists() {
            "no such run directory"
        } else if !self.root.is_dir() {
            "not a directory: give a run directory"
        } else if [self.config(), self.state_file(), self.metrics()].iter().any(|file| file.exists()) {
            return Ok(());
        } else {
            "not a run directory (no config.toml, state.json or metrics.jsonl)"
        };
        Err(RunDirError { path: self.root.clone(), why: why.to_string() })
    }

    /// Creates the directories.
    pub fn create(&self) -> Result<(), RunDirError> {
        for dir in [self.models(), self.games(), self.plots()] {
            std::fs::create_dir_all(&dir).map_err(|e| RunDirError { path: dir, why: e.to_string() })?;
        }
        Ok(())
    }

    /// The resume state, or `None` if no generation was ever completed here.
    pub fn read_state(&self) -> Result<Option<RunState>, RunDirError> {
        let path = self.state_file();
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(RunDirError { path, why: e.to_string() }),
        };
        serde_json::from_str(&text).map(Some).map_err(|e| RunDirError { path, why: format!("not a run state: {e}") })
    }

    /// Commits `state` (atomically).
    pub fn write_state(&self, state: &RunState) -> Result<(), RunDirError> {
        let path = self.state_file();
        let text = serde_json::to_string_pretty(state).expect("a run state is plain data") + "\n";
        write_atomically(&path, &text).map_err(|e| RunDirError { path, why: e.to_string() })
    }

    /// Writes the run's copy of its config (atomically).
    pub fn write_config(&self, text: &str) -> Result<(), RunDirError> {
        let path = self.config();
        write_atomically(&path, text).map_err(|e| RunDirError { path, why: e.to_string() })
    }

    /// The newest net of the run: its generation and file, from the state (or, for a
    /// run whose first generation is still going, generation 0's net).
    pub fn newest_model(&self) -> Result<(u32, PathBuf), RunDirError> {
        let generation = self.read_state()?.map_or(0, |state| state.generation);
        let path = self.model(generation);
        if !path.exists() {
            return Err(RunDirError { path, why: "no such net: is this a run directory?".to_string() });
        }
        Ok((generation, path))
    }
}

/// `genNNNN`: how files of a generation are named.
pub fn generation_name(generation: u32) -> String {
    format!("gen{generation:04}")
}

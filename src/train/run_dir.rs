//! A run directory: everything one training run writes, in one place, so that `--resume`,
//! `plot` and self-play on other machines find it. It is a local directory or a prefix in
//! an object store (`s3://bucket/runs/tiny`: [`crate::storage`]), with the same layout.
//!
//! ```text
//! config.toml                the run's config (rewritten when a resume changes it)
//! state.json                 the last complete generation: the commit point of each one
//! models/genNNNN.safetensors the net after generation N (gen0000: random weights)
//! models/genNNNN.optimizer   the optimiser's state beside it
//! models/genNNNN.trainer.safetensors  the trainer's own net, when genNNNN is a mean of
//!                            several generations' ([train] average_generations)
//! games/genNNNN-….npz        self-play sample shards played by net N−1 (and .pgn games)
//! metrics.jsonl              one line of figures per generation
//! plots/                     PNG plots of the metrics
//! ```

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::storage::{self, Kind};

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
    /// The generation the run started at: 0 for a random net, else the one it went on
    /// from (`train --from`: the trained net's; `--games-from`: that of the run whose games
    /// it first trained on).
    #[serde(default)]
    pub first: u32,
    /// The run's clock when it started: 0 for a random net, else the hours of the run it
    /// went on from.
    #[serde(default)]
    pub first_hours: f64,
    /// Samples the run wrote that its directory no longer holds: those of a run restored
    /// from its snapshot ([`super::restore_snapshot`]), counted in `total_samples`. While
    /// such a run's window is short of `window_min`, it refills it by self-play before it
    /// trains again.
    #[serde(default)]
    pub lost_samples: u64,
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

/// The paths of a run directory (each a path, or a URL in an object store).
#[derive(Clone, Debug)]
pub struct RunDir {
    root: PathBuf,
}

impl RunDir {
    /// The run directory at `root`, a path or an object store's URL (nothing is created yet).
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

    /// Whether `ladder.json` is there (the ladder was rated).
    pub fn has_ladder(&self) -> bool {
        storage::kind(&self.ladder()).is_ok_and(|kind| kind != Kind::Missing)
    }

    /// The net after `generation`.
    pub fn model(&self, generation: u32) -> PathBuf {
        self.models().join(format!("{}.safetensors", generation_name(generation)))
    }

    /// Where the trainer's own net after `generation` is kept when the generation's net is
    /// a mean of several (`[train] average_generations`).
    pub fn trainer_model(&self, generation: u32) -> PathBuf {
        self.models().join(format!("{}.trainer.safetensors", generation_name(generation)))
    }

    /// The trainer's own net after `generation`: [`RunDir::trainer_model`] where there
    /// is one, else the generation's net, which then is the trainer's.
    pub fn trained_model(&self, generation: u32) -> Result<PathBuf, RunDirError> {
        let own = self.trainer_model(generation);
        match storage::kind(&own) {
            Ok(Kind::Missing) => Ok(self.model(generation)),
            Ok(_) => Ok(own),
            Err(e) => Err(RunDirError { path: own, why: e.to_string() }),
        }
    }

    /// The optimiser's state after `generation`.
    pub fn optimizer(&self, generation: u32) -> PathBuf {
        self.models().join(format!("{}.optimizer", generation_name(generation)))
    }

    /// Checks that the directory holds a run (its config, state or metrics), so that a
    /// command given another directory, or a file, says so rather than acting on it.
    pub fn check_is_run(&self) -> Result<(), RunDirError> {
        let kind =
            |path: &Path| storage::kind(path).map_err(|e| RunDirError { path: path.to_path_buf(), why: e.to_string() });
        let why = match kind(&self.root)? {
            Kind::Missing => "no such run directory",
            Kind::File => "not a directory: give a run directory",
            Kind::Dir => {
                for file in [self.config(), self.state_file(), self.metrics()] {
                    if kind(&file)? != Kind::Missing {
                        return Ok(());
                    }
                }
                "not a run directory (no config.toml, state.json or metrics.jsonl)"
            }
        };
        Err(RunDirError { path: self.root.clone(), why: why.to_string() })
    }

    /// Creates the directories (in an object store there is nothing to create).
    pub fn create(&self) -> Result<(), RunDirError> {
        for dir in [self.models(), self.games(), self.plots()] {
            storage::create_dir(&dir).map_err(|e| RunDirError { path: dir, why: e.to_string() })?;
        }
        Ok(())
    }

    /// The resume state, or `None` if no generation was ever completed here.
    pub fn read_state(&self) -> Result<Option<RunState>, RunDirError> {
        let path = self.state_file();
        let bytes = match storage::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(RunDirError { path, why: e.to_string() }),
        };
        serde_json::from_slice(&bytes).map(Some).map_err(|e| RunDirError { path, why: format!("not a run state: {e}") })
    }

    /// Commits `state` (written whole).
    pub fn write_state(&self, state: &RunState) -> Result<(), RunDirError> {
        let text = serde_json::to_string_pretty(state).expect("a run state is plain data") + "\n";
        self.write(self.state_file(), &text)
    }

    /// Writes the run's copy of its config (whole).
    pub fn write_config(&self, text: &str) -> Result<(), RunDirError> {
        self.write(self.config(), text)
    }

    /// Replaces the run's file `path` with `text`, whole.
    fn write(&self, path: PathBuf, text: &str) -> Result<(), RunDirError> {
        storage::write(&path, text.as_bytes()).map_err(|e| RunDirError { path, why: e.to_string() })
    }

    /// The newest net of the run: its generation and file, from the state (or, for a
    /// run whose first generation is still going, generation 0's net).
    pub fn newest_model(&self) -> Result<(u32, PathBuf), RunDirError> {
        let generation = self.read_state()?.map_or(0, |state| state.generation);
        let path = self.model(generation);
        match storage::kind(&path) {
            Ok(Kind::Missing) => Err(RunDirError { path, why: "no such net: is this a run directory?".to_string() }),
            Ok(_) => Ok((generation, path)),
            Err(e) => Err(RunDirError { path, why: e.to_string() }),
        }
    }
}

/// `genNNNN`: how files of a generation are named.
pub fn generation_name(generation: u32) -> String {
    format!("gen{generation:04}")
}

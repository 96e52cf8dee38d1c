//! The trained nets a machine holds: the newest net of each run directory in a folder
//! (`checkpoints/`), with how strong it measured last — what `serve` offers beside its
//! built-in players (`web::trained_engine`).

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::metrics::read_metrics;
use super::run_dir::{generation_name, RunDir};

/// The newest net of one run.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainedNet {
    /// The run directory's name (`xiangqi-tiny`).
    pub run: String,
    /// The net's generation.
    pub generation: u32,
    /// The net's file.
    pub model: PathBuf,
    /// Its last evaluation in words (`ladder Elo -340 [-454, -230], between …`), if any.
    pub measured: Option<String>,
}

impl TrainedNet {
    /// The name players pick it by: `xiangqi-tiny-gen0012`.
    pub fn name(&self) -> String {
        format!("{}-{}", self.run, generation_name(self.generation))
    }
}

/// The newest net of every run directory directly in `folder` that has trained at least
/// one generation, the most recently trained run first. A folder that does not exist,
/// or a directory that is not a run, gives nothing.
pub fn trained_nets(folder: &Path) -> Vec<TrainedNet> {
    let Ok(entries) = std::fs::read_dir(folder) else { return Vec::new() };
    let mut found: Vec<(SystemTime, TrainedNet)> = entries
        .flatten()
        .filter_map(|entry| {
            let dir = RunDir::new(entry.path());
            let state = dir.read_state().ok()??;
            let model = dir.model(state.generation);
            if state.generation == 0 || !model.is_file() {
                return None;
            }
            let changed = std::fs::metadata(dir.state_file()).and_then(|m| m.modified()).ok()?;
            let metrics = read_metrics(&dir.metrics()).unwrap_or_default();
            let measured = metrics.iter().rev().find_map(|m| m.ladder.as_ref()).map(|ladder| ladder.to_string());
            let run = entry.file_name().to_string_lossy().into_owned();
            Some((changed, TrainedNet { run, generation: state.generation, model, measured }))
        })
        .collect();
    found.sort_by_key(|(changed, _)| std::cmp::Reverse(*changed));
    found.into_iter().map(|(_, net)| net).collect()
}

//! A run's snapshot: what `train --resume` needs to go on, without the samples, in one file
//! of a few MB that survives the machine (kept in git, say: the project's own long run keeps
//! `checkpoints/<name>.snapshot`). `train` replaces it after every generation.
//!
//! The file is a tar archive of run-directory files at their paths there: `config.toml`,
//! `metrics.jsonl`, `ladder.json` (once rated), the newest generation's net, the trainer's
//! own net and optimiser state, the trainer's nets of the generations before it that the
//! next generation's mean takes in (`[train] average_generations`), generation 0's net (a
//! ladder's `gen0000` rung), and `state.json`. Restored into an empty run directory, the
//! run goes on from the same generation, optimiser and mean; its replay window, empty
//! then, is refilled by self-play with the newest net before it trains again
//! ([`RunState::lost_samples`]).

use std::path::{Path, PathBuf};

use super::archive::{pack, unpack};
use super::run_dir::{RunDir, RunDirError, RunState};
use crate::storage::{self, Kind};

/// Where a run directory's snapshot goes unless told: beside it, `<run>.snapshot`.
pub fn default_snapshot(dir: &RunDir) -> PathBuf {
    let mut path = dir.root().as_os_str().to_owned();
    path.push(".snapshot");
    PathBuf::from(path)
}

/// Writes the snapshot of the run in `dir` at `state` (just committed) to `path`, whole,
/// where `average` is the config's `[train] average_generations`; returns its size in bytes.
pub fn write_snapshot(dir: &RunDir, state: &RunState, average: u32, path: &Path) -> Result<u64, RunDirError> {
    let g = state.generation;
    let mut files = vec![dir.config(), dir.metrics(), dir.ladder(), dir.model(0), dir.model(g), dir.optimizer(g)];
    // The trainer's nets the next generation's mean takes in: generations g + 2 − n ..= g.
    // (Without averaging, the trainer's net is the generation's net: one file, once.)
    for k in (g + 2).saturating_sub(average).max(state.first).max(1)..=g {
        let file = dir.trained_model(k)?;
        if !files.contains(&file) {
            files.push(file);
        }
    }
    let mut entries = Vec::new();
    for file in files {
        let bytes = match storage::read(&file) {
            Ok(bytes) => bytes,
            // A run that has not been rated yet has no ladder; one started from a
            // trained net has no generation 0.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && (file == dir.ladder() || file == dir.model(0)) => {
                continue;
            }
            Err(e) => return Err(RunDirError { path: file, why: e.to_string() }),
        };
        entries.push((relative(dir, &file), bytes));
    }
    // The state last: a reader of a truncated archive finds no commit point.
    let state_text = serde_json::to_string_pretty(state).expect("a run state is plain data") + "\n";
    entries.push(("state.json".into(), state_text.into_bytes()));
    let bytes = pack(&entries).map_err(|e| RunDirError { path: path.to_path_buf(), why: e.to_string() })?;
    storage::write(path, &bytes).map_err(|e| RunDirError { path: path.to_path_buf(), why: e.to_string() })?;
    Ok(bytes.len() as u64)
}

/// Unpacks the snapshot at `path` into `dir`, which must hold no run yet; returns the
/// state the run goes on from, its samples counted as lost.
pub fn restore_snapshot(path: &Path, dir: &RunDir) -> Result<RunState, RunDirError> {
    let error = |why: String| RunDirError { path: path.to_path_buf(), why };
    if let Some(state) = dir.read_state()? {
        return Err(RunDirError {
            path: dir.root().to_path_buf(),
            why: format!(
                "already holds a run (generation {}): restore a snapshot into another --run",
                state.generation
            ),
        });
    }
    let bytes = storage::read(path).map_err(|e| error(e.to_string()))?;
    let mut state = None;
    let mut files = Vec::new();
    for (name, content) in unpack(&bytes, &["models"]).map_err(error)? {
        if name == Path::new("state.json") {
            let read: RunState =
                serde_json::from_slice(&content).map_err(|e| error(format!("not a run state inside ({e})")))?;
            state = Some(read);
        } else {
            files.push((name, content));
        }
    }
    let mut state = state.ok_or_else(|| error("truncated: no state.json at its end".into()))?;
    if !files.iter().any(|(name, _)| name == Path::new("config.toml")) {
        return Err(error("not a snapshot (no config.toml)".into()));
    }
    dir.create()?;
    for (name, content) in files {
        let to = dir.root().join(name);
        storage::write(&to, &content).map_err(|e| RunDirError { path: to, why: e.to_string() })?;
    }
    state.lost_samples = state.total_samples;
    dir.write_state(&state)?;
    Ok(state)
}

/// Whether a snapshot is at `path`.
pub fn has_snapshot(path: &Path) -> bool {
    storage::kind(path).is_ok_and(|kind| kind == Kind::File)
}

/// `file` of `dir` as its path inside the run directory.
fn relative(dir: &RunDir, file: &Path) -> PathBuf {
    file.strip_prefix(dir.root()).expect("a run file is inside its directory").to_path_buf()
}

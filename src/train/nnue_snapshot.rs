//! An NNUE run's snapshot: `config.toml`, `metrics.jsonl`, the current net and
//! `state.json` (last: a truncated archive holds no commit point) in one tar file of a few
//! MB, replaced after every generation. Restored into an empty run directory, the run
//! goes on from the same generation and net; its positions, not kept, are refilled by the
//! next generation's games.

use std::path::Path;

use super::archive::{pack, unpack};
use super::nnue_config::NnueConfig;
use super::nnue_state::{nnue_state_text, parse_nnue_state, read_nnue_state, write_nnue_state, NnueState};
use crate::storage;

/// Writes the snapshot of the NNUE run in `dir` at `state` (just committed) to `path`;
/// returns its size in bytes.
pub fn write_nnue_snapshot(dir: &Path, state: &NnueState, path: &Path) -> Result<u64, String> {
    let mut names = vec!["config.toml".to_string(), "metrics.jsonl".to_string()];
    names.extend(state.current.iter().map(|net| format!("nets/{net}")));
    let mut files = Vec::new();
    for name in names {
        let file = dir.join(&name);
        let bytes = std::fs::read(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        files.push((name.into(), bytes));
    }
    files.push(("state.json".into(), nnue_state_text(state).into_bytes()));
    let bytes = pack(&files).map_err(|e| format!("{}: {e}", path.display()))?;
    storage::write(path, &bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(bytes.len() as u64)
}

/// Unpacks the snapshot at `path` into `dir`, which must hold no run yet, and returns the
/// state the run goes on from; `None`, writing nothing, if the snapshot is not an NNUE
/// run's (its config has no `[nnue]` table).
pub fn restore_nnue_snapshot(path: &Path, dir: &Path) -> Result<Option<NnueState>, String> {
    let error = |why: String| format!("{}: {why}", path.display());
    let bytes = storage::read(path).map_err(|e| error(e.to_string()))?;
    // A policy-value run's snapshot holds `models/`: read it far enough to tell.
    let files = unpack(&bytes, &["nets", "models"]).map_err(error)?;
    let file = |name: &str| files.iter().find(|(file, _)| file == Path::new(name)).map(|(_, bytes)| bytes);
    let config = file("config.toml").ok_or_else(|| error("not a snapshot (no config.toml)".into()))?;
    let config = String::from_utf8_lossy(config);
    if NnueConfig::parse_if_nnue(&config).map_err(error)?.is_none() {
        return Ok(None);
    }
    if let Some((name, _)) = files.iter().find(|(name, _)| name.starts_with("models")) {
        return Err(error(format!("not an NNUE run's snapshot (it holds `{}`)", name.display())));
    }
    let state = file("state.json").ok_or_else(|| error("truncated: no state.json at its end".into()))?;
    let state = parse_nnue_state(state).map_err(error)?;
    if let Some(net) = &state.current {
        file(&format!("nets/{net}")).ok_or_else(|| error(format!("truncated: no nets/{net}")))?;
    }
    if let Some(there) = read_nnue_state(dir)? {
        return Err(format!(
            "{} already holds a run (generation {}): restore a snapshot into another --run",
            dir.display(),
            there.generation
        ));
    }
    std::fs::create_dir_all(dir.join("nets")).map_err(|e| format!("{}: {e}", dir.display()))?;
    // The state last, as in the archive: the commit point.
    for (name, content) in files.iter().filter(|(name, _)| name != Path::new("state.json")) {
        let to = dir.join(name);
        std::fs::write(&to, content).map_err(|e| format!("{}: {e}", to.display()))?;
    }
    write_nnue_state(dir, &state)?;
    Ok(Some(state))
}

//! An NNUE run's commit point, `state.json`: the last complete generation and the
//! current player's net.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::atomic_write::write_atomically;

/// What `state.json` holds.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NnueState {
    /// The last complete generation.
    pub generation: usize,
    /// The current player's net (a file in `nets/`), or `None`: the hand-written tables.
    pub current: Option<String>,
    /// The positions `positions.bin` held when the generation was committed (`None` in a
    /// state written before they were counted): a generation cut short may have appended
    /// more, which its second playing would append again.
    #[serde(default)]
    pub positions: Option<u64>,
}

/// Reads the run's state in `dir` (`None`: no run there yet).
pub fn read_nnue_state(dir: &Path) -> Result<Option<NnueState>, String> {
    let path = dir.join("state.json");
    match std::fs::read(&path) {
        Ok(bytes) => parse_nnue_state(&bytes).map(Some).map_err(|e| format!("{}: {e}", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

/// The state in `bytes` (a `state.json`).
pub fn parse_nnue_state(bytes: &[u8]) -> Result<NnueState, String> {
    serde_json::from_slice(bytes).map_err(|e| format!("not an NNUE run's state ({e})"))
}

/// `state` as `state.json`'s text.
pub fn nnue_state_text(state: &NnueState) -> String {
    serde_json::to_string_pretty(state).expect("a run state is plain data") + "\n"
}

/// Commits `state` to `dir`'s `state.json`, whole or not at all.
pub fn write_nnue_state(dir: &Path, state: &NnueState) -> Result<(), String> {
    let path = dir.join("state.json");
    write_atomically(&path, &nnue_state_text(state)).map_err(|e| format!("{}: {e}", path.display()))
}

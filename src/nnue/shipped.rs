//! The NNUE that ships with the binary, which `nnue` with no file plays.

use super::net::Nnue;

/// The shipped NNUE, or why there is none.
pub fn shipped_nnue() -> Result<Nnue, String> {
    Err("no NNUE ships with this build yet: give a file, `nnue:FILE` (one `train --config \
         configs/xiangqi-nnue.toml` writes)"
        .to_string())
}

//! The NNUE that ships in the binary (`assets/nets/xiangqi.nnue`), which `nnue` with no
//! file plays. Its provenance is in its metadata (`export --info`).

use std::path::Path;
use std::sync::{Arc, OnceLock};

use super::net::Nnue;

/// The shipped file's bytes.
const SHIPPED: &[u8] = include_bytes!("../../assets/nets/xiangqi.nnue");

/// The shipped NNUE, read once and shared.
pub fn shipped_nnue() -> Result<Arc<Nnue>, String> {
    static NET: OnceLock<Result<Arc<Nnue>, String>> = OnceLock::new();
    NET.get_or_init(|| Nnue::from_bytes(Path::new("the shipped NNUE"), SHIPPED).map(Arc::new)).clone()
}

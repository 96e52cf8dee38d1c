//! Our players as an engine: the UCI/UCCI loop that xiangqi GUIs and the arena talk to.

mod go;
mod uci;

pub use go::{parse_go, GoCommand};
pub use uci::serve;

//! One ply of a game's history, as repetition rulings read it.

use super::{Board, Move};

/// One ply of the game's history.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ply {
    /// The board before the move.
    pub before: Board,
    /// The move played.
    pub mv: Move,
    /// Whether the move put the opponent's general in check.
    pub gives_check: bool,
    /// Whether the move captured.
    pub captured: bool,
    /// Plies without a capture before the move.
    pub since_capture: u32,
}

//! How a game is shown at the table: its board, its seats' names, what to announce.

use super::Style;
use crate::game::xiangqi::Notation;
use crate::game::{GameError, Player as Seat};
use crate::players::Playable;

/// A game the `play` session can show and play.
pub trait View: Playable {
    /// How moves are written, for `help`: `h2e2 (ICCS: …)`.
    const MOVE_HELP: &'static str;

    /// The board drawn in `style`, the squares of `last` (the last move) marked; lines
    /// ending in newlines.
    fn draw(&self, last: Option<Self::Move>, style: Style) -> String;

    /// The name of a seat: `Red`, `Black`; in Banqi `First` and `Second`, with the colour
    /// once a flip has decided it.
    fn seat_name(&self, seat: Seat) -> String;

    /// The text of `mv`, a move of the side to move, as the table shows it: in
    /// `notation` where the game has such notations (Xiangqi), else as the game writes it.
    fn move_text(&self, mv: Self::Move, _notation: Notation) -> String {
        mv.to_string()
    }

    /// Where a record of this game starts and the moves played before it came to the
    /// table, as records write them: the state text and no moves, unless the game keeps
    /// its history (Xiangqi: its start FEN and its moves in ICCS).
    fn record_start(&self) -> (String, Vec<String>) {
        (self.to_text(), Vec::new())
    }

    /// The legal move a line typed at the table names, or the line that says why none.
    fn read_move(&self, text: &str) -> Result<Self::Move, String> {
        self.parse_move(text).map_err(|error| match error {
            GameError::MalformedMove(_) => {
                format!("`{text}` is neither a move nor a command: moves are {}; type `help`", Self::MOVE_HELP)
            }
            _ => format!("`{text}` is not a legal move for {} in this position", self.seat_name(self.to_move())),
        })
    }

    /// A line to announce in this position, such as a check; `None` if nothing.
    fn alert(&self) -> Option<String>;

    /// The line that tells what the chance event of `mv` revealed (`b3 flips: 馬 (black)`),
    /// once `outcome` has been applied to this state.
    fn reveal(&self, mv: Self::Move, outcome: Self::Outcome, style: Style) -> String;
}

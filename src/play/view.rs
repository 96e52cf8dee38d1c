//! How a game is shown at the table: its board, its seats' names, what to announce.

use super::Style;
use crate::eval::Playable;
use crate::game::Player as Seat;

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

    /// A line to announce in this position, such as a check; `None` if nothing.
    fn alert(&self) -> Option<String>;

    /// The line that tells what the chance event of `mv` revealed (`b3 flips: 馬 (black)`),
    /// once `outcome` has been applied to this state.
    fn reveal(&self, mv: Self::Move, outcome: Self::Outcome, style: Style) -> String;
}

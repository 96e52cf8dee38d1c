//! `play`: a game at the terminal — humans type moves, engines answer, the board is
//! redrawn after each move.
//!
//! [`View`] is how a game is shown (its board, its seats' names, check, a flip's reveal);
//! [`session::play`] runs one game between humans and engines on a line-based input and
//! output. Drawing comes in two [`Style`]s: Chinese characters in ANSI colour for a
//! terminal, and FEN letters without escape codes for pipes and scripts.

mod banqi_view;
mod command;
mod ending;
mod glyph;
mod grid;
pub mod session;
mod style;
mod view;
mod xiangqi_view;

pub use ending::Ending;
pub use session::{play, PlayError, Setup};
pub use style::Style;
pub use view::View;

//! Moves given as text, played in turn from a position: the first text that names no
//! legal move stops the replay and is reported with its number.

use std::fmt;

use super::{fen, Notation, Xiangqi};
use crate::game::Game;

/// A move text that names no legal move where it stands, and why.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct BadMove {
    /// Its number in the sequence, from 1 (one per side's move).
    pub number: usize,
    /// The text as given.
    pub text: String,
    /// Why it names no legal move.
    pub why: String,
}

impl fmt::Display for BadMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "move {} `{}`: {}", self.number, self.text, self.why)
    }
}

impl std::error::Error for BadMove {}

impl Xiangqi {
    /// Plays the moves `texts` name in turn, read in `notation` (any of the three when
    /// `None`). At the first text that names no legal move the game is left after the
    /// moves before it and that text is returned with its number.
    pub fn play_texts<S: AsRef<str>>(&mut self, texts: &[S], notation: Option<Notation>) -> Result<(), BadMove> {
        for (index, text) in texts.iter().enumerate() {
            let text = text.as_ref();
            let mv = self.board().read_move(text, notation).map_err(|why| BadMove {
                number: index + 1,
                text: text.to_string(),
                why,
            })?;
            self.play(mv);
        }
        Ok(())
    }

    /// The moves played from the start of this game, each in `notation`.
    pub fn move_texts(&self, notation: Notation) -> Vec<String> {
        let (mut board, _) = fen::parse(&self.start_fen()).expect("a game's start FEN reads back");
        self.moves()
            .map(|mv| {
                let text = board.move_text(mv, notation);
                board.play(mv);
                text
            })
            .collect()
    }
}

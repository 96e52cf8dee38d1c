//! Moves and their text: from-square then to-square (`a1a2`); a flip is written with
//! the same square twice (`a1a1`), as on the computer-olympiad servers.

use std::fmt;

use super::Square;

/// A move: a step or capture from one square to another, or, when `from == to`, a flip
/// of the face-down piece there (or, in the chain-capture variant, ending a chain of
/// captures with the piece on that square).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub struct Move {
    /// The square the piece leaves (or the square flipped).
    pub from: Square,
    /// The square the piece arrives on, capturing what stood there (or `from` again).
    pub to: Square,
}

impl Move {
    /// The move from `from` to `to`.
    #[inline]
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }

    /// The flip of the face-down piece on `sq` (written `a1a1`).
    #[inline]
    pub const fn flip(sq: Square) -> Move {
        Move { from: sq, to: sq }
    }

    /// Whether the move names one square twice: a flip, or the end of a chain capture.
    #[inline]
    pub fn is_in_place(self) -> bool {
        self.from == self.to
    }

    /// Reads `a1a2` (files `a`–`d`, ranks `1`–`8`, upper case accepted, `a1-a2` too).
    pub fn parse(text: &str) -> Option<Move> {
        let bytes: Vec<u8> = text.trim().bytes().filter(|&b| b != b'-').map(|b| b.to_ascii_lowercase()).collect();
        match bytes[..] {
            [f1, r1, f2, r2] => Some(Move { from: Square::from_chars(f1, r1)?, to: Square::from_chars(f2, r2)? }),
            _ => None,
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

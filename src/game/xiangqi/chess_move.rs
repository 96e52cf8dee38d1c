//! Moves and their ICCS / UCCI text (`h2e2`: from-square then to-square, ranks 0–9).

use std::fmt;

use super::Square;

/// A move from one square to another. Whether it is legal depends on the position.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub struct Move {
    /// The square the piece leaves.
    pub from: Square,
    /// The square the piece arrives on (capturing what stood there).
    pub to: Square,
}

impl Move {
    /// The move from `from` to `to`.
    #[inline]
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }

    /// Reads ICCS text: `h2e2`, also `H2-E2` as ICCS is often printed. With
    /// `ranks_from_one`, ranks are numbered 1–10 (`h3e3`) as Fairy-Stockfish's UCI does.
    pub fn parse(text: &str, ranks_from_one: bool) -> Option<Move> {
        let cleaned: String = text.trim().chars().filter(|&c| c != '-').collect::<String>().to_ascii_lowercase();
        let bytes = cleaned.as_bytes();
        let split = bytes.iter().skip(1).position(|b| b.is_ascii_alphabetic())? + 1;
        let (from, to) = (square_text(&bytes[..split], ranks_from_one)?, square_text(&bytes[split..], ranks_from_one)?);
        (from != to).then_some(Move { from, to })
    }

    /// The move as text with ranks 1–10 (Fairy-Stockfish's UCI convention).
    pub fn to_ranks_from_one(self) -> String {
        let name = |sq: Square| format!("{}{}", (b'a' + sq.file()) as char, sq.rank() + 1);
        format!("{}{}", name(self.from), name(self.to))
    }

    /// The same move seen in a mirror down the middle file.
    pub const fn mirror(self) -> Move {
        Move { from: self.from.mirror(), to: self.to.mirror() }
    }
}

/// One square's text: a file letter then a rank number (0–9, or 1–10 when `ranks_from_one`).
fn square_text(bytes: &[u8], ranks_from_one: bool) -> Option<Square> {
    let (&file, digits) = bytes.split_first()?;
    if digits.is_empty() || digits.len() > 2 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let number: i32 = std::str::from_utf8(digits).ok()?.parse().ok()?;
    let rank = if ranks_from_one { number - 1 } else { number };
    if !(b'a'..=b'i').contains(&file) || (!ranks_from_one && digits.len() != 1) {
        return None;
    }
    Square::from_coords((file - b'a') as i32, rank)
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

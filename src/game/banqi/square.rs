//! Squares of the 4×8 Banqi board.

use std::fmt;

/// A square: files `a`–`d`, ranks `1`–`8` in text. The index is `rank * 4 + file` with
/// both counted from 0, so squares run a1, b1, c1, d1, a2, …, d8.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub struct Square(u8);

impl Square {
    /// Number of squares on the board.
    pub const COUNT: usize = 32;
    /// Number of files (a–d).
    pub const FILES: u8 = 4;
    /// Number of ranks (1–8).
    pub const RANKS: u8 = 8;

    /// The square at `file` (0–3) and `rank` (0–7, for ranks 1–8), or `None` off the board.
    pub const fn from_coords(file: i32, rank: i32) -> Option<Square> {
        if file >= 0 && file < 4 && rank >= 0 && rank < 8 {
            Some(Square((rank * 4 + file) as u8))
        } else {
            None
        }
    }

    /// The square with index `index` (0–31), or `None`.
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < Self::COUNT {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The square with index `index`, which must be below 32.
    #[inline]
    pub(crate) const fn new(index: u8) -> Square {
        debug_assert!(index < 32);
        Square(index)
    }

    /// The index `rank * 4 + file`, 0–31.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The square as a one-bit mask (bit `index`).
    #[inline]
    pub const fn bit(self) -> u32 {
        1 << self.0
    }

    /// File 0–3 (a–d).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % 4
    }

    /// Rank 0–7 (written 1–8).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / 4
    }

    /// The square `df` files right and `dr` ranks up, if on the board.
    pub const fn offset(self, df: i32, dr: i32) -> Option<Square> {
        Self::from_coords(self.file() as i32 + df, self.rank() as i32 + dr)
    }

    /// All 32 squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..32).map(Square)
    }

    /// Reads `a1`-style text (files `a`–`d`, ranks `1`–`8`).
    pub fn parse(text: &str) -> Option<Square> {
        match text.as_bytes() {
            &[file, rank] => Self::from_chars(file, rank),
            _ => None,
        }
    }

    /// The square named by a file letter and a rank digit.
    pub(crate) const fn from_chars(file: u8, rank: u8) -> Option<Square> {
        if file >= b'a' && file <= b'd' && rank >= b'1' && rank <= b'8' {
            Self::from_coords((file - b'a') as i32, (rank - b'1') as i32)
        } else {
            None
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// The squares of a 32-bit mask, lowest index first.
#[derive(Clone, Copy, Debug)]
pub struct Squares(pub u32);

impl Iterator for Squares {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Square(index))
    }
}

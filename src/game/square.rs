//! A square of a rectangular board of `FILES` × `RANKS` squares, shared by both games:
//! Xiangqi's 9×10 ([`crate::game::xiangqi::Square`], ranks written from `0`) and Banqi's
//! 4×8 ([`crate::game::banqi::Square`], ranks written from `1`).

use std::fmt;

/// A square: files `a`, `b`, … left to right, ranks from the first player's side, written
/// from the digit `FIRST_RANK`. The index is `rank * FILES + file`, both counted from 0.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub struct Square<const FILES: u8, const RANKS: u8, const FIRST_RANK: u8>(u8);

impl<const FILES: u8, const RANKS: u8, const FIRST_RANK: u8> Square<FILES, RANKS, FIRST_RANK> {
    /// Number of squares on the board.
    pub const COUNT: usize = FILES as usize * RANKS as usize;
    /// Number of files.
    pub const FILES: u8 = FILES;
    /// Number of ranks.
    pub const RANKS: u8 = RANKS;

    /// The square at `file` and `rank` (each counted from 0), or `None` off the board.
    #[inline]
    pub const fn from_coords(file: i32, rank: i32) -> Option<Self> {
        if file >= 0 && file < FILES as i32 && rank >= 0 && rank < RANKS as i32 {
            Some(Square((rank * FILES as i32 + file) as u8))
        } else {
            None
        }
    }

    /// The square with index `index`, or `None` past the last.
    pub const fn from_index(index: usize) -> Option<Self> {
        if index < Self::COUNT {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The square with index `index`, which must be below [`Self::COUNT`].
    #[inline]
    pub(crate) const fn new(index: u8) -> Self {
        debug_assert!((index as usize) < Self::COUNT);
        Square(index)
    }

    /// The index `rank * FILES + file`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file, counted from 0 (`a`).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % FILES
    }

    /// The rank, counted from 0.
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / FILES
    }

    /// The square `df` files right and `dr` ranks up, if on the board.
    pub const fn offset(self, df: i32, dr: i32) -> Option<Self> {
        Self::from_coords(self.file() as i32 + df, self.rank() as i32 + dr)
    }

    /// All squares in index order.
    pub fn all() -> impl Iterator<Item = Self> {
        (0..Self::COUNT as u8).map(Square)
    }

    /// Reads `e3`-style text: a file letter, then a rank digit.
    pub fn parse(text: &str) -> Option<Self> {
        match text.as_bytes() {
            &[file, rank] => Self::from_chars(file, rank),
            _ => None,
        }
    }

    /// The square named by a file letter and a rank digit.
    pub(crate) const fn from_chars(file: u8, rank: u8) -> Option<Self> {
        if file >= b'a' && rank >= b'0' + FIRST_RANK {
            Self::from_coords((file - b'a') as i32, (rank - b'0' - FIRST_RANK) as i32)
        } else {
            None
        }
    }
}

impl<const FILES: u8, const RANKS: u8, const FIRST_RANK: u8> fmt::Display for Square<FILES, RANKS, FIRST_RANK> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + FIRST_RANK)
    }
}

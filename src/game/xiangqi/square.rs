//! Squares of the 9×10 Xiangqi board.

use std::fmt;

/// A square: files `a`–`i` left to right from Red's side, ranks `0`–`9` with rank 0 Red's
/// back rank. The index is `rank * 9 + file`, so squares run a0, b0, …, i0, a1, …, i9.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub struct Square(u8);

impl Square {
    /// Number of squares on the board.
    pub const COUNT: usize = 90;
    /// Number of files (a–i).
    pub const FILES: u8 = 9;
    /// Number of ranks (0–9).
    pub const RANKS: u8 = 10;

    /// The square at `file` (0–8) and `rank` (0–9), or `None` off the board.
    pub const fn from_coords(file: i32, rank: i32) -> Option<Square> {
        if file >= 0 && file < 9 && rank >= 0 && rank < 10 {
            Some(Square((rank * 9 + file) as u8))
        } else {
            None
        }
    }

    /// The square with index `index` (0–89), or `None`.
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < Self::COUNT {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The square with index `index`, which must be below 90.
    pub(crate) const fn new(index: u8) -> Square {
        debug_assert!(index < 90);
        Square(index)
    }

    /// The index `rank * 9 + file`, 0–89.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File 0–8 (a–i).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % 9
    }

    /// Rank 0–9.
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / 9
    }

    /// The square `df` files right and `dr` ranks up, if on the board.
    pub const fn offset(self, df: i32, dr: i32) -> Option<Square> {
        Self::from_coords(self.file() as i32 + df, self.rank() as i32 + dr)
    }

    /// The square seen in a mirror down the middle file (a ↔ i).
    pub const fn mirror(self) -> Square {
        Square(self.rank() * 9 + 8 - self.file())
    }

    /// The square with the board turned half round (Red's and Black's view swapped).
    pub const fn rotate(self) -> Square {
        Square(89 - self.0)
    }

    /// All 90 squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..90).map(Square)
    }

    /// Reads `e3`-style text; ranks 0–9.
    pub fn parse(text: &str) -> Option<Square> {
        let bytes = text.as_bytes();
        if bytes.len() != 2 {
            return None;
        }
        Self::from_chars(bytes[0], bytes[1])
    }

    /// The square named by a file letter (`a`–`i`) and a rank digit (`0`–`9`).
    pub(crate) const fn from_chars(file: u8, rank: u8) -> Option<Square> {
        if file >= b'a' && file <= b'i' && rank.is_ascii_digit() {
            Self::from_coords((file - b'a') as i32, (rank - b'0') as i32)
        } else {
            None
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

//! Squares of the 9×10 Xiangqi board.

/// A square: files `a`–`i` left to right from Red's side, ranks `0`–`9` with rank 0 Red's
/// back rank. The index is `rank * 9 + file`, so squares run a0, b0, …, i0, a1, …, i9.
pub type Square = crate::game::square::Square<9, 10, 0>;

impl Square {
    /// The square seen in a mirror down the middle file (a ↔ i).
    pub const fn mirror(self) -> Square {
        Square::new(self.rank() * 9 + 8 - self.file())
    }

    /// The square with the board turned half round (Red's and Black's view swapped).
    pub const fn rotate(self) -> Square {
        Square::new(89 - self.index() as u8)
    }
}

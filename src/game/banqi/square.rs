//! Squares of the 4×8 Banqi board.

/// A square: files `a`–`d`, ranks `1`–`8` in text. The index is `rank * 4 + file` with
/// both counted from 0, so squares run a1, b1, c1, d1, a2, …, d8.
pub type Square = crate::game::square::Square<4, 8, 1>;

impl Square {
    /// The square as a one-bit mask (bit `index`).
    #[inline]
    pub const fn bit(self) -> u32 {
        1 << self.index()
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
        Some(Square::new(index))
    }
}

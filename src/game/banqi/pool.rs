//! The hidden pool: how many of each piece are still face-down. It is public
//! information — every player can count what has been revealed — so a flip's outcome
//! distribution is exact: piece `p` turns up with probability `count(p) / total`.
//! Which face-down square holds which piece is never dealt.

use std::fmt;

use rand::Rng;

use super::{Color, Kind, Piece};

/// Counts of the face-down pieces, four bits per piece (at most 5 of any piece).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Pool(u64);

/// Bit `4p` set for each piece index `p`: the low bit of every count.
const LOW_BITS: u64 = 0x0011_1111_1111_1111;
/// The count bits of Red's pieces (indices 0–6).
const RED_BITS: u64 = 0x0FFF_FFFF;

impl Pool {
    /// No piece hidden.
    pub const EMPTY: Pool = Pool(0);

    /// The full set of 32: per side 1 General, 2 each of Advisor, Elephant, Chariot,
    /// Horse and Cannon, and 5 Soldiers.
    pub const FULL: Pool = {
        let mut bits = 0u64;
        let mut p = 0;
        while p < 14 {
            bits |= (Piece::from_index(p).kind().full_count() as u64) << (4 * p);
            p += 1;
        }
        Pool(bits)
    };

    /// How many of `piece` are hidden.
    #[inline]
    pub const fn count(self, piece: Piece) -> u8 {
        (self.0 >> (4 * piece.index()) & 0xF) as u8
    }

    /// How many pieces are hidden in all.
    pub const fn total(self) -> u32 {
        let mut sum = 0;
        let mut p = 0;
        while p < 14 {
            sum += self.count(Piece::from_index(p)) as u32;
            p += 1;
        }
        sum
    }

    /// How many distinct pieces a flip could reveal (pieces with a non-zero count).
    #[inline]
    pub const fn kinds(self) -> u32 {
        let x = self.0;
        ((x | x >> 1 | x >> 2 | x >> 3) & LOW_BITS).count_ones()
    }

    /// Whether no piece is hidden.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether any piece of `color` is hidden.
    #[inline]
    pub const fn has_color(self, color: Color) -> bool {
        match color {
            Color::Red => self.0 & RED_BITS != 0,
            Color::Black => self.0 & !RED_BITS != 0,
        }
    }

    /// One more `piece` hidden; `None` if that would exceed a full set.
    pub fn with_added(self, piece: Piece) -> Option<Pool> {
        (self.count(piece) < piece.kind().full_count()).then_some(Pool(self.0 + (1 << (4 * piece.index()))))
    }

    /// One `piece` fewer; the count must be positive.
    #[inline]
    pub(crate) fn remove(&mut self, piece: Piece) {
        debug_assert!(self.count(piece) > 0);
        self.0 -= 1 << (4 * piece.index());
    }

    /// The pieces a flip could reveal with their counts, in text order (Red's first,
    /// highest rank first): the outcome distribution is `count / total`.
    pub fn outcomes(self) -> impl Iterator<Item = (Piece, u8)> {
        Piece::ALL.into_iter().map(move |piece| (piece, self.count(piece))).filter(|&(_, count)| count > 0)
    }

    /// The probability that a flip reveals `piece`: `count / total` (0 for an empty pool).
    pub fn probability(self, piece: Piece) -> f64 {
        match self.total() {
            0 => 0.0,
            total => self.count(piece) as f64 / total as f64,
        }
    }

    /// Draws the piece a flip reveals, each hidden piece equally likely (so piece `p`
    /// with probability `count(p) / total`); `None` for an empty pool. Pass a seeded RNG
    /// (e.g. `StdRng::seed_from_u64`) for reproducible play.
    pub fn sample<R: Rng + ?Sized>(self, rng: &mut R) -> Option<Piece> {
        let total = self.total();
        if total == 0 {
            return None;
        }
        let mut ticket = rng.random_range(0..total);
        for (piece, count) in self.outcomes() {
            if ticket < count as u32 {
                return Some(piece);
            }
            ticket -= count as u32;
        }
        unreachable!("the ticket is below the total")
    }

    /// Reads the pool's text: piece letters in any order, or `-` for an empty pool.
    pub fn parse(text: &str) -> Result<Pool, String> {
        if text == "-" {
            return Ok(Pool::EMPTY);
        }
        text.chars().try_fold(Pool::EMPTY, |pool, c| {
            let piece =
                Piece::from_letter(c).ok_or_else(|| format!("unexpected character `{c}` in the hidden pool"))?;
            pool.with_added(piece).ok_or_else(|| format!("too many `{c}` in the hidden pool"))
        })
    }

    /// How many hidden pieces each kind has for `color`, for a network's input planes.
    pub fn counts_of(self, color: Color) -> [u8; 7] {
        Kind::ALL.map(|kind| self.count(Piece::new(color, kind)))
    }
}

/// The pool's text: each hidden piece's letter, Red's then Black's, highest rank first
/// (`KGGMMRRNNCCPPPPPkggmmrrnnccppppp` for the full set), or `-` when empty.
impl fmt::Display for Pool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("-");
        }
        for (piece, count) in self.outcomes() {
            for _ in 0..count {
                write!(f, "{}", piece.letter())?;
            }
        }
        Ok(())
    }
}

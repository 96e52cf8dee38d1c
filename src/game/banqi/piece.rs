//! The seven kinds of piece in rank order, pieces, and who may capture whom.

use std::fmt;

pub use crate::game::Color;

/// The seven kinds of piece, highest rank first: General > Advisor > Elephant > Chariot
/// > Horse > Cannon > Soldier.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Kind {
    /// General (帥/將), letter `K`; one per side.
    General = 0,
    /// Advisor (仕/士), letter `G`; two per side.
    Advisor = 1,
    /// Elephant (相/象), letter `M`; two per side.
    Elephant = 2,
    /// Chariot (俥/車), letter `R`; two per side.
    Chariot = 3,
    /// Horse (傌/馬), letter `N`; two per side.
    Horse = 4,
    /// Cannon (炮/包), letter `C`; two per side. Steps like the others but captures
    /// only by jumping exactly one screen.
    Cannon = 5,
    /// Soldier (兵/卒), letter `P`; five per side.
    Soldier = 6,
}

impl Kind {
    /// All kinds, highest rank first.
    pub const ALL: [Kind; 7] =
        [Kind::General, Kind::Advisor, Kind::Elephant, Kind::Chariot, Kind::Horse, Kind::Cannon, Kind::Soldier];

    /// 0 (General) to 6 (Soldier): the rank order, highest first.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kind with index `index` (0–6).
    #[inline]
    pub const fn from_index(index: usize) -> Kind {
        Kind::ALL[index]
    }

    /// How many of this kind each side has in a full set.
    pub const fn full_count(self) -> u8 {
        match self {
            Kind::General => 1,
            Kind::Soldier => 5,
            _ => 2,
        }
    }

    /// The upper-case letter: `K G M R N C P`.
    pub const fn letter(self) -> char {
        ['K', 'G', 'M', 'R', 'N', 'C', 'P'][self as usize]
    }

    /// Whether a piece of this kind captures an adjacent face-up enemy of kind `victim`
    /// by stepping onto it: equal or lower rank, except that the General cannot take
    /// Soldiers and Soldiers take the General. The Cannon never captures this way.
    pub const fn captures_adjacent(self, victim: Kind) -> bool {
        match (self, victim) {
            (Kind::Cannon, _) => false,
            (Kind::General, Kind::Soldier) => false,
            (Kind::Soldier, Kind::General) => true,
            _ => self as u8 <= victim as u8,
        }
    }
}

/// A face-up piece: a colour and a kind.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Piece(u8);

impl Piece {
    /// Number of distinct pieces (2 colours × 7 kinds).
    pub const COUNT: usize = 14;

    /// All 14 pieces, Red's first, each colour in rank order (the pool's text order).
    pub const ALL: [Piece; 14] = {
        let mut all = [Piece(0); 14];
        let mut i = 0;
        while i < 14 {
            all[i] = Piece(i as u8);
            i += 1;
        }
        all
    };

    /// The piece of `color` and `kind`.
    #[inline]
    pub const fn new(color: Color, kind: Kind) -> Piece {
        Piece(color as u8 * 7 + kind as u8)
    }

    /// The piece with index `index` (0–13), as given by [`Piece::index`].
    #[inline]
    pub const fn from_index(index: usize) -> Piece {
        Piece::ALL[index]
    }

    /// `color * 7 + kind`, 0–13.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The piece's colour.
    #[inline]
    pub const fn color(self) -> Color {
        if self.0 < 7 {
            Color::Red
        } else {
            Color::Black
        }
    }

    /// The piece's kind.
    #[inline]
    pub const fn kind(self) -> Kind {
        Kind::from_index(self.0 as usize % 7)
    }

    /// The letter in the state text: upper case for Red, lower case for Black.
    pub const fn letter(self) -> char {
        let upper = self.kind().letter();
        match self.color() {
            Color::Red => upper,
            Color::Black => upper.to_ascii_lowercase(),
        }
    }

    /// The piece a state-text letter stands for (`K G M R N C P`, lower case for Black).
    pub fn from_letter(letter: char) -> Option<Piece> {
        let color = if letter.is_ascii_uppercase() { Color::Red } else { Color::Black };
        let kind = Kind::ALL.into_iter().find(|kind| kind.letter() == letter.to_ascii_uppercase())?;
        Some(Piece::new(color, kind))
    }
}

/// The piece's letter in the state text (`K`, `p`, …).
impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

//! Piece kinds and pieces (of the [`Color`]s both games share).

use std::num::NonZeroU8;

pub use crate::game::Color;

/// The seven kinds of piece.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Kind {
    /// General (帥/將), FEN `K`.
    King = 1,
    /// Advisor (仕/士), FEN `A`.
    Advisor = 2,
    /// Elephant (相/象), FEN `B` (or `E`).
    Elephant = 3,
    /// Horse (傌/馬), FEN `N` (or `H`).
    Horse = 4,
    /// Chariot (俥/車), FEN `R`.
    Rook = 5,
    /// Cannon (炮/砲), FEN `C`.
    Cannon = 6,
    /// Soldier (兵/卒), FEN `P`.
    Pawn = 7,
}

impl Kind {
    /// All kinds, king first.
    pub const ALL: [Kind; 7] =
        [Kind::King, Kind::Advisor, Kind::Elephant, Kind::Horse, Kind::Rook, Kind::Cannon, Kind::Pawn];

    /// How many of this kind each side has at the start.
    pub const fn start_count(self) -> usize {
        match self {
            Kind::King => 1,
            Kind::Pawn => 5,
            _ => 2,
        }
    }

    /// The upper-case FEN letter.
    pub const fn letter(self) -> char {
        match self {
            Kind::King => 'K',
            Kind::Advisor => 'A',
            Kind::Elephant => 'B',
            Kind::Horse => 'N',
            Kind::Rook => 'R',
            Kind::Cannon => 'C',
            Kind::Pawn => 'P',
        }
    }

    /// The kind named by a FEN letter of either case (`H` and `E` accepted).
    pub const fn from_letter(letter: char) -> Option<Kind> {
        Some(match letter.to_ascii_uppercase() {
            'K' => Kind::King,
            'A' => Kind::Advisor,
            'B' | 'E' => Kind::Elephant,
            'N' | 'H' => Kind::Horse,
            'R' => Kind::Rook,
            'C' => Kind::Cannon,
            'P' => Kind::Pawn,
            _ => return None,
        })
    }

    const fn from_bits(bits: u8) -> Kind {
        match bits {
            1 => Kind::King,
            2 => Kind::Advisor,
            3 => Kind::Elephant,
            4 => Kind::Horse,
            5 => Kind::Rook,
            6 => Kind::Cannon,
            _ => Kind::Pawn,
        }
    }
}

/// A piece: a colour and a kind, packed in one non-zero byte so that an empty square,
/// `Option<Piece>`, is a byte too.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece(NonZeroU8);

impl Piece {
    /// The piece of `color` and `kind`.
    #[inline]
    pub const fn new(color: Color, kind: Kind) -> Piece {
        match NonZeroU8::new((color as u8) << 3 | kind as u8) {
            Some(bits) => Piece(bits),
            None => unreachable!(),
        }
    }

    /// The piece's colour.
    #[inline]
    pub const fn color(self) -> Color {
        if self.0.get() & 8 == 0 {
            Color::Red
        } else {
            Color::Black
        }
    }

    /// The piece's kind.
    #[inline]
    pub const fn kind(self) -> Kind {
        Kind::from_bits(self.0.get() & 7)
    }

    /// A dense index 0–13 (Red's kinds then Black's), for tables.
    #[inline]
    pub const fn index(self) -> usize {
        (self.color() as usize) * 7 + (self.kind() as usize) - 1
    }

    /// The piece of dense index `index` (0–13, as [`Piece::index`] gives), if any.
    pub const fn from_index(index: usize) -> Option<Piece> {
        if index >= 14 {
            return None;
        }
        let color = if index < 7 { Color::Red } else { Color::Black };
        Some(Piece::new(color, Kind::from_bits((index % 7) as u8 + 1)))
    }

    /// The FEN letter: upper case for Red.
    pub const fn letter(self) -> char {
        match self.color() {
            Color::Red => self.kind().letter(),
            Color::Black => self.kind().letter().to_ascii_lowercase(),
        }
    }

    /// The piece in words: `red chariot`, `black soldier`.
    pub fn name(self) -> String {
        let kind = match self.kind() {
            Kind::King => "general",
            Kind::Advisor => "advisor",
            Kind::Elephant => "elephant",
            Kind::Horse => "horse",
            Kind::Rook => "chariot",
            Kind::Cannon => "cannon",
            Kind::Pawn => "soldier",
        };
        format!("{} {kind}", self.color().name())
    }

    /// The piece named by a FEN letter (`H`/`E` accepted).
    pub const fn from_letter(letter: char) -> Option<Piece> {
        match Kind::from_letter(letter) {
            Some(kind) => {
                let color = if letter.is_ascii_uppercase() { Color::Red } else { Color::Black };
                Some(Piece::new(color, kind))
            }
            None => None,
        }
    }
}

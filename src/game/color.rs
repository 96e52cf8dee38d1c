//! The two colours, Red and Black, of both games.

use crate::game::Player;

/// A side. In Xiangqi Red moves first and sits on ranks 0–4; in Banqi the first flip
/// decides which player gets which colour. Red's pieces are upper-case letters in
/// FEN and state texts.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Color {
    /// Red: upper-case letters; `w` (Xiangqi) or `r` (Banqi) to move.
    Red = 0,
    /// Black: lower-case letters; `b` to move.
    Black = 1,
}

impl Color {
    /// Both colours, Red first.
    pub const ALL: [Color; 2] = [Color::Red, Color::Black];

    /// The other colour.
    #[inline]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    /// 0 for Red, 1 for Black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The colour in words: `red`, `black`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Black => "black",
        }
    }

    /// The colour's letter in Banqi's state text: `r` or `b`.
    pub const fn letter(self) -> char {
        match self {
            Color::Red => 'r',
            Color::Black => 'b',
        }
    }

    /// The player this colour is in Xiangqi: Red plays first.
    pub const fn player(self) -> Player {
        match self {
            Color::Red => Player::First,
            Color::Black => Player::Second,
        }
    }

    /// The colour a player has in Xiangqi.
    pub const fn of_player(player: Player) -> Color {
        match player {
            Player::First => Color::Red,
            Player::Second => Color::Black,
        }
    }
}

//! Which pieces attack a square.

use super::tables::{
    on_own_half, ADVISOR_MOVES, ELEPHANT_MOVES, HORSE_ATTACKERS, HORSE_MOVES, KING_MOVES, PAWN_MOVES, RAYS,
};
use super::{Bitboard, Board, Color, Kind, Piece, Square};

/// Whether a general on `king` is attacked by `by`: by a chariot, cannon, horse or
/// soldier, or by the other general facing it on an open file (the flying general).
/// Advisors and elephants never leave their own half, so they cannot reach a general.
#[inline]
pub fn king_in_danger(squares: &[Option<Piece>; 90], king: Square, by: Color) -> bool {
    let rook = Some(Piece::new(by, Kind::Rook));
    let cannon = Some(Piece::new(by, Kind::Cannon));
    let general = Some(Piece::new(by, Kind::King));
    for (direction, ray) in RAYS[king.index()].iter().enumerate() {
        let line = ray.squares();
        let mut i = 0;
        while i < line.len() && squares[line[i].index()].is_none() {
            i += 1;
        }
        if i == line.len() {
            continue;
        }
        let first = squares[line[i].index()];
        if first == rook || (direction < 2 && first == general) {
            return true;
        }
        i += 1;
        while i < line.len() && squares[line[i].index()].is_none() {
            i += 1;
        }
        if i < line.len() && squares[line[i].index()] == cannon {
            return true;
        }
    }
    let horse = Some(Piece::new(by, Kind::Horse));
    if HORSE_ATTACKERS[king.index()]
        .pairs()
        .any(|(from, leg)| squares[from.index()] == horse && squares[leg.index()].is_none())
    {
        return true;
    }
    pawn_attacks(squares, king, by)
}

/// Whether a soldier of `by` attacks `target` (from behind it, or from the side once
/// across the river).
#[inline]
pub fn pawn_attacks(squares: &[Option<Piece>; 90], target: Square, by: Color) -> bool {
    let pawn = Some(Piece::new(by, Kind::Pawn));
    let forward = if by == Color::Red { -1 } else { 1 };
    [(0, forward), (1, 0), (-1, 0)]
        .into_iter()
        .filter_map(|(df, dr)| target.offset(df, dr))
        .any(|from| squares[from.index()] == pawn && PAWN_MOVES[by.index()][from.index()].targets().contains(&target))
}

/// The squares of `by`'s pieces that could move to `target` in one step, whether or not
/// that would leave their own general attacked.
pub fn attackers(board: &Board, target: Square, by: Color) -> Bitboard {
    let mut found = Bitboard::EMPTY;
    for from in board.occupied_by(by) {
        if from != target && reaches(board, from, target) {
            found.toggle(from);
        }
    }
    found
}

/// Whether the piece on `from` could move to `to` in one step, by the way pieces move
/// (ignoring what stands on `to` and whether the move would be legal).
pub fn reaches(board: &Board, from: Square, to: Square) -> bool {
    let Some(piece) = board.piece_at(from) else { return false };
    let color = piece.color();
    let empty = |sq: Square| board.piece_at(sq).is_none();
    match piece.kind() {
        Kind::Rook | Kind::Cannon => {
            let Some(ray) = RAYS[from.index()].iter().find(|ray| ray.squares().contains(&to)) else { return false };
            let between = ray.squares().iter().take_while(|&&sq| sq != to).filter(|&&sq| !empty(sq)).count();
            between == if piece.kind() == Kind::Rook { 0 } else { 1 }
        }
        Kind::Horse => HORSE_MOVES[from.index()].pairs().any(|(t, leg)| t == to && empty(leg)),
        Kind::Elephant => {
            on_own_half(to, color) && ELEPHANT_MOVES[from.index()].pairs().any(|(t, eye)| t == to && empty(eye))
        }
        Kind::Advisor => ADVISOR_MOVES[from.index()].targets().contains(&to),
        Kind::King => KING_MOVES[from.index()].targets().contains(&to),
        Kind::Pawn => PAWN_MOVES[color.index()][from.index()].targets().contains(&to),
    }
}

impl Board {
    /// Whether `color`'s general is attacked.
    #[inline]
    pub fn in_check(&self, color: Color) -> bool {
        king_in_danger(self.squares(), self.king(color), color.opponent())
    }
}

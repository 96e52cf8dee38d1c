//! Legal move generation: pseudo-legal moves by piece, then the few that could expose
//! one's own general are tried on a copy of the board.

use super::tables::{ADVISOR_MOVES, ELEPHANT_MOVES, HORSE_ATTACKERS, HORSE_MOVES, KING_MOVES, PAWN_MOVES, RAYS};
use super::{attacks, Bitboard, Board, Kind, Move, Piece, Square};

/// More than the most pseudo-legal moves any Xiangqi position has (119).
const CAPACITY: usize = 128;

/// A list of Xiangqi moves on the stack.
pub type MoveList = crate::game::move_list::MoveList<Move, CAPACITY>;

/// What a position's move filter needs to know about the mover's general: whether it is
/// in check, which squares' pieces shield it (leaving them may expose it), and which
/// empty squares a piece must not step onto (it would become an enemy cannon's screen).
struct KingSafety {
    in_check: bool,
    shields: Bitboard,
    screens: Bitboard,
}

impl Board {
    /// Adds every move of the side to move that obeys how the pieces move, including
    /// those that leave its own general attacked.
    pub fn pseudo_legal_moves(&self, list: &mut MoveList) {
        self.pseudo_legal::<false>(list);
    }

    /// Adds the pseudo-legal moves, or only the captures among them when `CAPTURES`.
    #[inline(always)]
    fn pseudo_legal<const CAPTURES: bool>(&self, list: &mut MoveList) {
        for from in self.occupied_by(self.side_to_move()) {
            self.piece_moves::<CAPTURES>(from, list);
        }
    }

    /// Adds the pseudo-legal moves of the mover's piece on `from` (only captures when
    /// `CAPTURES`).
    #[inline(always)]
    fn piece_moves<const CAPTURES: bool>(&self, from: Square, list: &mut MoveList) {
        let us = self.side_to_move();
        let own = self.occupied_by(us);
        // Squares a move may go to: not our own, and with an enemy on it for captures.
        let allowed = if CAPTURES { self.occupied_by(us.opponent()) } else { Bitboard(!own.0) };
        let squares = self.squares();
        let empty = |sq: Square| squares[sq.index()].is_none();
        let Some(piece) = squares[from.index()] else { return };
        match piece.kind() {
            Kind::Rook => {
                for ray in &RAYS[from.index()] {
                    for &to in ray.squares() {
                        if empty(to) {
                            if !CAPTURES {
                                list.push(Move::new(from, to));
                            }
                        } else {
                            if !own.contains(to) {
                                list.push(Move::new(from, to));
                            }
                            break;
                        }
                    }
                }
            }
            Kind::Cannon => {
                for ray in &RAYS[from.index()] {
                    let line = ray.squares();
                    let mut i = 0;
                    while i < line.len() && empty(line[i]) {
                        if !CAPTURES {
                            list.push(Move::new(from, line[i]));
                        }
                        i += 1;
                    }
                    i += 1;
                    while i < line.len() && empty(line[i]) {
                        i += 1;
                    }
                    if i < line.len() && !own.contains(line[i]) {
                        list.push(Move::new(from, line[i]));
                    }
                }
            }
            Kind::Horse => {
                for (to, leg) in HORSE_MOVES[from.index()].pairs() {
                    if empty(leg) && allowed.contains(to) {
                        list.push(Move::new(from, to));
                    }
                }
            }
            Kind::Elephant => {
                for (to, eye) in ELEPHANT_MOVES[from.index()].pairs() {
                    if empty(eye) && allowed.contains(to) {
                        list.push(Move::new(from, to));
                    }
                }
            }
            Kind::Advisor | Kind::King | Kind::Pawn => {
                let steps = match piece.kind() {
                    Kind::Advisor => &ADVISOR_MOVES[from.index()],
                    Kind::King => &KING_MOVES[from.index()],
                    _ => &PAWN_MOVES[us.index()][from.index()],
                };
                for &to in steps.targets() {
                    if allowed.contains(to) {
                        list.push(Move::new(from, to));
                    }
                }
            }
        }
    }

    /// Adds every legal move of the side to move.
    #[inline]
    pub fn legal_moves(&self, list: &mut MoveList) {
        let mut pseudo = MoveList::new();
        self.pseudo_legal_moves(&mut pseudo);
        let safety = self.king_safety();
        for &mv in pseudo.iter() {
            if self.is_safe(mv, &safety) {
                list.push(mv);
            }
        }
    }

    /// Adds every legal capture of the side to move (for quiescence search).
    #[inline]
    pub fn legal_captures(&self, list: &mut MoveList) {
        let mut pseudo = MoveList::new();
        self.pseudo_legal::<true>(&mut pseudo);
        let safety = self.king_safety();
        for &mv in pseudo.iter() {
            if self.is_safe(mv, &safety) {
                list.push(mv);
            }
        }
    }

    /// The number of legal moves (perft's last ply).
    #[inline]
    pub fn count_legal_moves(&self) -> usize {
        let mut pseudo = MoveList::new();
        self.pseudo_legal_moves(&mut pseudo);
        let safety = self.king_safety();
        pseudo.iter().filter(|&&mv| self.is_safe(mv, &safety)).count()
    }

    /// Whether the side to move has any legal move: piece by piece, stopping at the first
    /// piece with one (most positions need only the first piece's moves).
    #[inline]
    pub fn has_legal_move(&self) -> bool {
        let safety = self.king_safety();
        let mut pseudo = MoveList::new();
        self.occupied_by(self.side_to_move()).any(|from| {
            pseudo.clear();
            self.piece_moves::<false>(from, &mut pseudo);
            pseudo.iter().any(|&mv| self.is_safe(mv, &safety))
        })
    }

    /// Whether `mv` is legal: it must obey how the pieces move and leave one's own
    /// general unattacked.
    pub fn is_legal(&self, mv: Move) -> bool {
        let mut pseudo = MoveList::new();
        self.pseudo_legal_moves(&mut pseudo);
        pseudo.contains(&mv) && self.is_safe(mv, &self.king_safety())
    }

    /// Looks along the general's four lines (only the first three pieces on each can
    /// matter) and at its horse-leg squares once, so that most moves need no trial.
    #[inline]
    fn king_safety(&self) -> KingSafety {
        let us = self.side_to_move();
        let them = us.opponent();
        let king = self.king(us);
        let squares = self.squares();
        let rook = Some(Piece::new(them, Kind::Rook));
        let cannon = Some(Piece::new(them, Kind::Cannon));
        let general = Some(Piece::new(them, Kind::King));
        let mut safety = KingSafety { in_check: false, shields: Bitboard::EMPTY, screens: Bitboard::EMPTY };
        for (direction, ray) in RAYS[king.index()].iter().enumerate() {
            let line = ray.squares();
            let mut found = [0usize; 3];
            let mut count = 0;
            for (i, sq) in line.iter().enumerate() {
                if squares[sq.index()].is_some() {
                    found[count] = i;
                    count += 1;
                    if count == 3 {
                        break;
                    }
                }
            }
            let nth = |n: usize| if n < count { squares[line[found[n]].index()] } else { None };
            let slides = |piece| piece == rook || (direction < 2 && piece == general);
            let (first, second, third) = (nth(0), nth(1), nth(2));
            safety.in_check |= slides(first) || second == cannon;
            if slides(second) || third == cannon {
                safety.shields.toggle(line[found[0]]);
            }
            if third == cannon {
                safety.shields.toggle(line[found[1]]);
            }
            if first == cannon {
                for &sq in &line[..found[0]] {
                    safety.screens.toggle(sq);
                }
            }
        }
        let horse = Some(Piece::new(them, Kind::Horse));
        for (from, leg) in HORSE_ATTACKERS[king.index()].pairs() {
            if squares[from.index()] == horse {
                if squares[leg.index()].is_none() {
                    safety.in_check = true;
                } else if !safety.shields.contains(leg) {
                    safety.shields.toggle(leg);
                }
            }
        }
        safety.in_check |= attacks::pawn_attacks(squares, king, them);
        safety
    }

    /// Whether the pseudo-legal `mv` leaves the mover's general unattacked. Only moves
    /// of the general, moves while in check, moves of a shield and moves onto a cannon's
    /// open line are tried out on a copy of the board; all others are safe.
    #[inline]
    fn is_safe(&self, mv: Move, safety: &KingSafety) -> bool {
        let us = self.side_to_move();
        let king = self.king(us);
        let quiet =
            !safety.in_check && mv.from != king && !safety.shields.contains(mv.from) && !safety.screens.contains(mv.to);
        if quiet {
            return true;
        }
        let mut squares = *self.squares();
        squares[mv.to.index()] = squares[mv.from.index()].take();
        let king = if mv.from == king { mv.to } else { king };
        !attacks::king_in_danger(&squares, king, us.opponent())
    }
}

//! Legal move generation: pseudo-legal moves by piece, then the few that could expose
//! one's own general are tried on a copy of the board.

use std::ops::Deref;

use super::tables::{ADVISOR_MOVES, ELEPHANT_MOVES, HORSE_MOVES, KING_MOVES, PAWN_MOVES, RAYS};
use super::{attacks, Bitboard, Board, Kind, Move, Square};

/// More than the most pseudo-legal moves any Xiangqi position has (119).
const CAPACITY: usize = 128;

/// A list of moves on the stack.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; CAPACITY],
    len: usize,
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub fn new() -> MoveList {
        let null = Move::new(Square::new(0), Square::new(0));
        MoveList { moves: [null; CAPACITY], len: 0 }
    }

    #[inline]
    fn push(&mut self, mv: Move) {
        self.moves[self.len] = mv;
        self.len += 1;
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl Deref for MoveList {
    type Target = [Move];

    #[inline]
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

/// For each square of a general, the squares whose piece leaving might expose it: its
/// file and rank (chariots, cannons, the other general) and its four diagonal neighbours
/// (the legs of horses that attack it).
static EXPOSING: [Bitboard; 90] = {
    let mut table = [Bitboard::EMPTY; 90];
    let mut k = 0;
    while k < 90 {
        let king = Square::new(k as u8);
        let mut s = 0;
        while s < 90 {
            let sq = Square::new(s as u8);
            let diagonal = sq.file().abs_diff(king.file()) == 1 && sq.rank().abs_diff(king.rank()) == 1;
            if sq.file() == king.file() || sq.rank() == king.rank() || diagonal {
                table[k].0 |= 1 << s;
            }
            s += 1;
        }
        k += 1;
    }
    table
};

/// For each square of a general, its file and rank: a piece arriving there on an empty
/// square may become a cannon's screen.
static LINES: [Bitboard; 90] = {
    let mut table = [Bitboard::EMPTY; 90];
    let mut k = 0;
    while k < 90 {
        let king = Square::new(k as u8);
        let mut s = 0;
        while s < 90 {
            let sq = Square::new(s as u8);
            if sq.file() == king.file() || sq.rank() == king.rank() {
                table[k].0 |= 1 << s;
            }
            s += 1;
        }
        k += 1;
    }
    table
};

impl Board {
    /// Adds every move of the side to move that obeys how the pieces move, including
    /// those that leave its own general attacked.
    pub fn pseudo_legal_moves(&self, list: &mut MoveList) {
        let us = self.side_to_move();
        let own = self.occupied_by(us);
        let squares = self.squares();
        let empty = |sq: Square| squares[sq.index()].is_none();
        for from in own {
            let Some(piece) = squares[from.index()] else { continue };
            match piece.kind() {
                Kind::Rook => {
                    for ray in &RAYS[from.index()] {
                        for &to in ray.squares() {
                            if empty(to) {
                                list.push(Move::new(from, to));
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
                            list.push(Move::new(from, line[i]));
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
                        if empty(leg) && !own.contains(to) {
                            list.push(Move::new(from, to));
                        }
                    }
                }
                Kind::Elephant => {
                    for (to, eye) in ELEPHANT_MOVES[from.index()].pairs() {
                        if empty(eye) && !own.contains(to) {
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
                        if !own.contains(to) {
                            list.push(Move::new(from, to));
                        }
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
        let in_check = self.in_check(self.side_to_move());
        for &mv in pseudo.iter() {
            if self.is_safe(mv, in_check) {
                list.push(mv);
            }
        }
    }

    /// The number of legal moves (perft's last ply).
    #[inline]
    pub fn count_legal_moves(&self) -> usize {
        let mut pseudo = MoveList::new();
        self.pseudo_legal_moves(&mut pseudo);
        let in_check = self.in_check(self.side_to_move());
        pseudo.iter().filter(|&&mv| self.is_safe(mv, in_check)).count()
    }

    /// Whether `mv` is legal: it must obey how the pieces move and leave one's own
    /// general unattacked.
    pub fn is_legal(&self, mv: Move) -> bool {
        let mut pseudo = MoveList::new();
        self.pseudo_legal_moves(&mut pseudo);
        pseudo.contains(&mv) && self.is_safe(mv, self.in_check(self.side_to_move()))
    }

    /// Whether the pseudo-legal `mv` leaves the mover's general unattacked. Only moves
    /// of the general, moves while in check, and moves from a square that can shield the
    /// general or onto an empty square of its lines are tried out; all others are safe.
    #[inline]
    fn is_safe(&self, mv: Move, in_check: bool) -> bool {
        let us = self.side_to_move();
        let king = self.king(us);
        let quiet = !in_check
            && mv.from != king
            && !EXPOSING[king.index()].contains(mv.from)
            && !(LINES[king.index()].contains(mv.to) && self.piece_at(mv.to).is_none());
        if quiet {
            return true;
        }
        let mut squares = *self.squares();
        squares[mv.to.index()] = squares[mv.from.index()].take();
        let king = if mv.from == king { mv.to } else { king };
        !attacks::king_in_danger(&squares, king, us.opponent())
    }
}

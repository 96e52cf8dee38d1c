//! Move generation: flips of face-down pieces, steps to empty neighbours, captures by
//! rank onto face-up neighbours, and the Cannon's jumps over exactly one screen. All
//! pseudo-legal moves are legal in Banqi, so counting needs no playing.

use super::tables::{cannon_jumps, ADJACENT, VICTIMS};
use super::{Board, Kind, Move, Piece, Square, Squares};

/// More than the most moves any Banqi position has (32 flips, or 16 pieces × 4 steps
/// plus 4 jumps for each of two Cannons).
const CAPACITY: usize = 128;

/// A list of Banqi moves on the stack.
pub type MoveList = crate::game::move_list::MoveList<Move, CAPACITY>;

/// Appends a move from `from` to each square of the mask `targets`.
#[inline]
fn push_all(list: &mut MoveList, from: Square, targets: u32) {
    for to in Squares(targets) {
        list.push(Move::new(from, to));
    }
}

impl Board {
    /// The face-up enemies of `piece`'s colour that it captures by stepping onto them
    /// (none for the Cannon, which captures only by jumping).
    #[inline]
    fn victims(&self, piece: Piece) -> u32 {
        let enemy = &self.pieces[piece.color().opponent().index() * 7..][..7];
        let mut kinds = VICTIMS[piece.kind().index()];
        let mut mask = 0;
        while kinds != 0 {
            mask |= enemy[kinds.trailing_zeros() as usize];
            kinds &= kinds - 1;
        }
        mask
    }

    /// Where the face-up `piece` on `from` can go, given the empty squares: empty
    /// neighbours, and captures.
    #[inline(always)]
    fn targets(&self, from: Square, piece: Piece, empty: u32) -> u32 {
        let near = ADJACENT[from.index()];
        let enemies = self.colors[piece.color().opponent().index()];
        if piece.kind() == Kind::Cannon {
            near & empty | cannon_jumps(from.index(), !empty) & enemies
        } else if near & enemies == 0 {
            near & empty
        } else {
            near & (empty | self.victims(piece))
        }
    }

    /// The squares the face-up piece on `from` can capture on (0 if there is none).
    pub(crate) fn captures_from(&self, from: Square) -> u32 {
        let Some(piece) = self.piece_at(from) else { return 0 };
        self.targets(from, piece, self.empty()) & self.colors[piece.color().opponent().index()]
    }

    /// Calls `visit(from, targets)` for each face-up piece of the side to move, or only
    /// the chaining piece (with its captures) in the middle of a chain capture.
    #[inline(always)]
    fn for_each_piece(&self, mut visit: impl FnMut(Square, u32)) {
        let Some(color) = self.side_to_move() else { return };
        if let Some(sq) = self.chain {
            visit(sq, self.captures_from(sq));
            return;
        }
        let empty = self.empty();
        for from in Squares(self.colors[color.index()]) {
            let piece = Piece::from_index(self.cells[from.index()] as usize);
            visit(from, self.targets(from, piece, empty));
        }
    }

    /// Whether the game has ended because a side has no pieces left: then nobody moves.
    #[inline]
    fn out_of_pieces(&self) -> bool {
        self.side_to_move().is_some_and(|color| !self.has_pieces(color) || !self.has_pieces(color.opponent()))
    }

    /// The flips the side to move may make (all face-down squares; none mid-chain).
    #[inline]
    fn flips(&self) -> u32 {
        if self.chain.is_some() {
            0
        } else {
            self.hidden
        }
    }

    /// Fills `list` with the legal moves: flips (`a1a1`) first, then each piece's moves;
    /// mid-chain, the chaining piece's captures and the move ending the chain. Empty once
    /// a side has no pieces left.
    pub fn legal_moves(&self, list: &mut MoveList) {
        list.clear();
        if self.out_of_pieces() {
            return;
        }
        for sq in Squares(self.flips()) {
            list.push(Move::flip(sq));
        }
        self.for_each_piece(|from, targets| push_all(list, from, targets));
        if let Some(sq) = self.chain {
            list.push(Move::flip(sq));
        }
    }

    /// The number of legal moves (a flip counts once).
    pub fn count_legal_moves(&self) -> u32 {
        self.count_with_flip_weight(1)
    }

    /// The number of children counting each flip once per piece it could reveal: perft(1).
    #[inline]
    pub fn count_children(&self) -> u32 {
        self.count_with_flip_weight(self.pool.kinds())
    }

    #[inline]
    fn count_with_flip_weight(&self, flip_weight: u32) -> u32 {
        if self.out_of_pieces() {
            return 0;
        }
        let mut count = self.flips().count_ones() * flip_weight + self.chain.is_some() as u32;
        self.for_each_piece(|_, targets| count += targets.count_ones());
        count
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        list.contains(&mv)
    }
}

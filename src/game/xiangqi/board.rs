//! The board: what stands on each square, who is to move, and the Zobrist hash, kept
//! up to date move by move. Small and `Copy`, so search can copy-make.

use super::tables::{in_palace, on_own_half};
use super::{zobrist, Bitboard, Color, Kind, Move, Piece, Square};

/// A Xiangqi position without history: pieces, side to move and hash.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Board {
    squares: [Option<Piece>; 90],
    occupied: [Bitboard; 2],
    kings: [Square; 2],
    side: Color,
    hash: u64,
}

impl Board {
    /// Builds a board from the pieces on it and the side to move, checking that the
    /// position could occur in a game: one general each inside its palace, no more
    /// pieces of a kind than the start has, advisors, elephants and soldiers only on
    /// squares they can reach, and the side not to move not in check.
    pub fn new(pieces: &[(Square, Piece)], side: Color) -> Result<Board, String> {
        let mut squares = [None; 90];
        let mut occupied = [Bitboard::EMPTY; 2];
        let mut counts = [0usize; 14];
        let mut kings = [None, None];
        let mut hash = zobrist::side_key(side);
        for &(sq, piece) in pieces {
            if squares[sq.index()].is_some() {
                return Err(format!("two pieces on {sq}"));
            }
            if !reachable(piece, sq) {
                return Err(format!("{} cannot stand on {sq}", piece.name()));
            }
            counts[piece.index()] += 1;
            if counts[piece.index()] > piece.kind().start_count() {
                return Err(format!("too many {}s", piece.name()));
            }
            if piece.kind() == Kind::King {
                kings[piece.color().index()] = Some(sq);
            }
            squares[sq.index()] = Some(piece);
            occupied[piece.color().index()].toggle(sq);
            hash ^= zobrist::piece_key(piece, sq);
        }
        let (Some(red), Some(black)) = (kings[0], kings[1]) else {
            return Err("each side needs exactly one general".into());
        };
        let board = Board { squares, occupied, kings: [red, black], side, hash };
        if board.in_check(side.opponent()) {
            return Err("the side not to move is in check".into());
        }
        Ok(board)
    }

    /// What stands on `sq`.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.squares[sq.index()]
    }

    /// All squares' contents, indexed by `Square::index`.
    #[inline]
    pub fn squares(&self) -> &[Option<Piece>; 90] {
        &self.squares
    }

    /// The squares holding `color`'s pieces.
    #[inline]
    pub fn occupied_by(&self, color: Color) -> Bitboard {
        self.occupied[color.index()]
    }

    /// Where `color`'s general stands.
    #[inline]
    pub fn king(&self, color: Color) -> Square {
        self.kings[color.index()]
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The Zobrist hash, kept incrementally.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash recomputed from scratch (equal to `hash()`; for tests).
    pub fn hash_from_scratch(&self) -> u64 {
        Square::all().fold(zobrist::side_key(self.side), |h, sq| match self.piece_at(sq) {
            Some(piece) => h ^ zobrist::piece_key(piece, sq),
            None => h,
        })
    }

    /// Plays `mv`, which must move a piece of the side to move, and returns what it
    /// captured. Legality is the move generator's business, not this function's.
    #[inline]
    pub fn play(&mut self, mv: Move) -> Option<Piece> {
        let (from, to) = (mv.from, mv.to);
        let piece = self.squares[from.index()]?;
        let captured = self.squares[to.index()];
        let us = piece.color();
        self.squares[from.index()] = None;
        self.squares[to.index()] = Some(piece);
        self.occupied[us.index()].0 ^= Bitboard::from_square(from).0 | Bitboard::from_square(to).0;
        self.hash ^= zobrist::piece_key(piece, from) ^ zobrist::piece_key(piece, to);
        if let Some(victim) = captured {
            self.occupied[us.opponent().index()].toggle(to);
            self.hash ^= zobrist::piece_key(victim, to);
        }
        if piece.kind() == Kind::King {
            self.kings[us.index()] = to;
        }
        self.hash ^= zobrist::side_key(Color::Red) ^ zobrist::side_key(Color::Black);
        self.side = us.opponent();
        captured
    }

    /// The same position with the other side to move: a null move, as alpha-beta search
    /// tries to prove a position so good that even passing keeps it above beta. Only
    /// for a side not in check (the result would otherwise be no game position).
    #[inline]
    pub fn passed(&self) -> Board {
        debug_assert!(!self.in_check(self.side));
        let mut board = *self;
        board.hash ^= zobrist::side_key(Color::Red) ^ zobrist::side_key(Color::Black);
        board.side = self.side.opponent();
        board
    }

    /// The position seen in a mirror down the middle file (same side to move).
    pub fn mirror(&self) -> Board {
        let pieces: Vec<_> = self.pieces().map(|(sq, p)| (sq.mirror(), p)).collect();
        Board::new(&pieces, self.side).expect("a mirrored legal position is legal")
    }

    /// Every piece with its square, in square order.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Square::all().filter_map(|sq| self.piece_at(sq).map(|p| (sq, p)))
    }
}

/// Whether a piece of this kind and colour can ever stand on `sq`.
fn reachable(piece: Piece, sq: Square) -> bool {
    let color = piece.color();
    let (file, rank) = (sq.file(), sq.rank());
    // Rank counted from the piece's own back rank.
    let own_rank = if color == Color::Red { rank } else { 9 - rank };
    match piece.kind() {
        Kind::King => in_palace(sq, color),
        Kind::Advisor => in_palace(sq, color) && (file + own_rank) % 2 == 1,
        Kind::Elephant => on_own_half(sq, color) && file % 2 == 0 && own_rank % 2 == 0 && (file + own_rank) % 4 == 2,
        Kind::Pawn => own_rank >= 5 || (own_rank >= 3 && file % 2 == 0),
        _ => true,
    }
}

//! The board: what is on each square (empty, face-down, or a face-up piece), the hidden
//! pool, whose turn it is and which colour each player has, and the Zobrist hash kept up
//! to date move by move. Small and `Copy`, so search and perft can copy-make.

use super::{zobrist, Color, Move, Piece, Pool, Square, Squares};
use crate::game::Player;

/// What a square holds.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Cell {
    /// Nothing.
    Empty,
    /// A face-down piece (which one is not known to anybody).
    Hidden,
    /// A face-up piece.
    Piece(Piece),
}

/// Codes of `Board::cells` beside the piece indices 0–13.
const HIDDEN: u8 = 14;
const EMPTY: u8 = 15;

/// A Banqi position without history: pieces face-up and face-down, the hidden pool,
/// the player to move and the colours, and a chain capture in progress (variant only).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Board {
    pub(crate) cells: [u8; 32],
    pub(crate) pieces: [u32; 14],
    pub(crate) colors: [u32; 2],
    pub(crate) hidden: u32,
    pub(crate) pool: Pool,
    hash: u64,
    mover: Player,
    /// The colour of `Player::First`, once the first flip has decided it.
    first: Option<Color>,
    pub(crate) chain: Option<Square>,
    chain_rule: bool,
}

impl Board {
    /// Builds a board, checking that it could occur: as many face-down squares as the
    /// pool holds pieces, no more of any piece (face-up plus hidden) than a full set has,
    /// no face-up piece while the colours are undecided, and pieces of both colours
    /// somewhere before the first flip. `side` is the colour to move (`None` before the
    /// first flip), `mover` the player to move, `chain_rule` the chain-capture variant.
    pub fn new(
        cells: &[Cell; 32],
        pool: Pool,
        side: Option<Color>,
        mover: Player,
        chain_rule: bool,
    ) -> Result<Board, String> {
        let first = side.map(|color| if mover == Player::First { color } else { color.opponent() });
        let mut board = Board {
            cells: [EMPTY; 32],
            pieces: [0; 14],
            colors: [0; 2],
            hidden: 0,
            pool,
            hash: zobrist::pool_key(pool) ^ zobrist::side_key(side),
            mover,
            first,
            chain: None,
            chain_rule,
        };
        let mut counts = [0u8; 14];
        for (sq, &cell) in Square::all().zip(cells) {
            match cell {
                Cell::Empty => {}
                Cell::Hidden => {
                    board.cells[sq.index()] = HIDDEN;
                    board.hidden |= sq.bit();
                    board.hash ^= zobrist::hidden_key(sq);
                }
                Cell::Piece(piece) => {
                    counts[piece.index()] += 1;
                    if counts[piece.index()] + pool.count(piece) > piece.kind().full_count() {
                        return Err(format!("too many `{}` (on the board and hidden)", piece.letter()));
                    }
                    board.put(piece, sq);
                }
            }
        }
        if board.hidden.count_ones() != pool.total() {
            return Err(format!(
                "{} face-down squares but {} pieces in the hidden pool",
                board.hidden.count_ones(),
                pool.total()
            ));
        }
        if side.is_none() && board.colors != [0, 0] {
            return Err("face-up pieces but no colour to move (`-` is only for before the first flip)".into());
        }
        if Color::ALL.iter().all(|&color| !board.has_pieces(color))
            || (side.is_none() && !Color::ALL.iter().all(|&color| board.has_pieces(color)))
        {
            return Err("both sides need pieces before the first flip, and some side needs pieces after it".into());
        }
        Ok(board)
    }

    /// The start: all 32 pieces face-down, nobody has a colour, `First` to move.
    pub fn start() -> Board {
        Board::new(&[Cell::Hidden; 32], Pool::FULL, None, Player::First, false).expect("the start is valid")
    }

    /// What stands on `sq`.
    #[inline]
    pub fn cell(&self, sq: Square) -> Cell {
        match self.cells[sq.index()] {
            HIDDEN => Cell::Hidden,
            EMPTY => Cell::Empty,
            index => Cell::Piece(Piece::from_index(index as usize)),
        }
    }

    /// The face-up piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        match self.cell(sq) {
            Cell::Piece(piece) => Some(piece),
            _ => None,
        }
    }

    /// The face-down squares.
    #[inline]
    pub fn hidden(&self) -> Squares {
        Squares(self.hidden)
    }

    /// The squares of `color`'s face-up pieces.
    #[inline]
    pub fn face_up(&self, color: Color) -> Squares {
        Squares(self.colors[color.index()])
    }

    /// The squares of the face-up `piece`s, one bit per square (`Square::bit`).
    #[inline]
    pub fn squares_of(&self, piece: Piece) -> u32 {
        self.pieces[piece.index()]
    }

    /// The hidden pool.
    #[inline]
    pub fn pool(&self) -> Pool {
        self.pool
    }

    /// The Zobrist hash: pieces, face-down squares, pool counts, colour to move, chain.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The player to move.
    #[inline]
    pub fn to_move(&self) -> Player {
        self.mover
    }

    /// The colour to move; `None` before the first flip.
    #[inline]
    pub fn side_to_move(&self) -> Option<Color> {
        self.color_of(self.mover)
    }

    /// The colour `player` plays; `None` before the first flip.
    #[inline]
    pub fn color_of(&self, player: Player) -> Option<Color> {
        self.first.map(|first| if player == Player::First { first } else { first.opponent() })
    }

    /// The square of the piece in the middle of a chain capture (variant only): it may
    /// capture again or stop, and nothing else moves.
    #[inline]
    pub fn chain_square(&self) -> Option<Square> {
        self.chain
    }

    /// Whether the chain-capture variant is on.
    #[inline]
    pub fn chain_rule(&self) -> bool {
        self.chain_rule
    }

    /// Whether `color` has a piece left, face-up or hidden.
    #[inline]
    pub fn has_pieces(&self, color: Color) -> bool {
        self.colors[color.index()] != 0 || self.pool.has_color(color)
    }

    /// A player with no pieces left (the player to move first), who has lost.
    pub fn player_without_pieces(&self) -> Option<Player> {
        let mover = self.mover;
        [mover, mover.opponent()]
            .into_iter()
            .find(|&player| self.color_of(player).is_some_and(|color| !self.has_pieces(color)))
    }

    /// Reveals the face-down piece on `sq` as `piece` (which the pool must hold) and
    /// passes the turn. The first flip gives the flipping player `piece`'s colour.
    #[inline(always)]
    pub fn flip(&mut self, sq: Square, piece: Piece) {
        debug_assert!(self.cells[sq.index()] == HIDDEN && self.pool.count(piece) > 0);
        let count = self.pool.count(piece);
        self.hash ^=
            zobrist::hidden_key(sq) ^ zobrist::pool_count_key(piece, count) ^ zobrist::pool_count_key(piece, count - 1);
        self.pool.remove(piece);
        self.hidden &= !sq.bit();
        self.put(piece, sq);
        if self.first.is_none() {
            self.hash ^= zobrist::side_key(None);
            let color = piece.color();
            self.first = Some(if self.mover == Player::First { color } else { color.opponent() });
            self.hash ^= zobrist::side_key(self.side_to_move());
        }
        self.pass_turn();
    }

    /// Plays a step or capture (not a flip), or ends a chain capture (`from == to` on the
    /// chaining piece). Returns the piece captured, if any. In the chain-capture variant a
    /// capture keeps the turn while the capturing piece can capture again.
    #[inline]
    pub fn play(&mut self, mv: Move) -> Option<Piece> {
        let (from, to) = (mv.from, mv.to);
        if from == to {
            debug_assert!(self.chain == Some(from));
            self.end_turn();
            return None;
        }
        let piece = Piece::from_index(self.cells[from.index()] as usize);
        let captured = match self.cells[to.index()] {
            EMPTY => None,
            index => {
                let victim = Piece::from_index(index as usize);
                self.remove(victim, to);
                Some(victim)
            }
        };
        self.remove(piece, from);
        self.put(piece, to);
        if let Some(sq) = self.chain.take() {
            self.hash ^= zobrist::chain_key(sq);
        }
        if captured.is_some() && self.chain_rule && self.captures_from(to) != 0 {
            self.chain = Some(to);
            self.hash ^= zobrist::chain_key(to);
        } else {
            self.pass_turn();
        }
        captured
    }

    /// Ends a chain capture and passes the turn.
    fn end_turn(&mut self) {
        if let Some(sq) = self.chain.take() {
            self.hash ^= zobrist::chain_key(sq);
        }
        self.pass_turn();
    }

    #[inline]
    fn pass_turn(&mut self) {
        let before = zobrist::side_key(self.side_to_move());
        self.mover = self.mover.opponent();
        self.hash ^= before ^ zobrist::side_key(self.side_to_move());
    }

    #[inline]
    fn put(&mut self, piece: Piece, sq: Square) {
        self.cells[sq.index()] = piece.index() as u8;
        self.pieces[piece.index()] |= sq.bit();
        self.colors[piece.color().index()] |= sq.bit();
        self.hash ^= zobrist::piece_key(piece, sq);
    }

    #[inline]
    fn remove(&mut self, piece: Piece, sq: Square) {
        self.cells[sq.index()] = EMPTY;
        self.pieces[piece.index()] &= !sq.bit();
        self.colors[piece.color().index()] &= !sq.bit();
        self.hash ^= zobrist::piece_key(piece, sq);
    }

    /// Marks the piece on `sq` as in the middle of a chain capture (from state text):
    /// it must be a face-up piece of the side to move that can capture again.
    pub(crate) fn set_chain(&mut self, sq: Square) -> Result<(), String> {
        if !self.chain_rule {
            return Err("a chain-capture square needs the chain-capture variant".into());
        }
        let own = self.piece_at(sq).is_some_and(|piece| Some(piece.color()) == self.side_to_move());
        if !own || self.captures_from(sq) == 0 {
            return Err(format!("no piece of the side to move on {sq} that can capture again"));
        }
        self.chain = Some(sq);
        self.hash ^= zobrist::chain_key(sq);
        Ok(())
    }

    /// The empty squares.
    #[inline]
    pub(crate) fn empty(&self) -> u32 {
        !(self.hidden | self.colors[0] | self.colors[1])
    }
}

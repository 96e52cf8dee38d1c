//! How the Xiangqi alpha-beta values a position: an [`Evaluation`] keeps a state up to
//! date move by move along the searched line (copy-made with the board), and reads the
//! value from it where the search needs one. [`PieceSquares`], the hand-written tables of
//! [`super::xiangqi_eval`], is the default; a learned one plugs in through the same trait.

use super::xiangqi_eval::{delta, evaluate, for_side, piece_value};
use crate::game::xiangqi::{Board, Move, Piece, Square};

/// An evaluation of Xiangqi positions the alpha-beta search can carry incrementally.
pub trait Evaluation: Clone + Send {
    /// What is kept from node to node (copied along the line, never shared).
    type State: Clone;

    /// The state of `board`, from scratch.
    fn state(&self, board: &Board) -> Self::State;

    /// The state after `mv` is played on `board` (whose state is `state`), giving `child`.
    fn after(&self, state: &Self::State, board: &Board, mv: Move, child: &Board) -> Self::State;

    /// The value of `board` from its side to move's view, in centipawns (a chariot is
    /// worth about 600), read from its state (an evaluation may keep what it computed).
    fn value(&mut self, state: &Self::State, board: &Board) -> i32;
}

/// The hand-written tables' worth of `piece` on `sq` from Red's view, in centipawns
/// (negative for Black's pieces).
pub fn piece_square_value(piece: Piece, sq: Square) -> i32 {
    piece_value(piece, sq)
}

/// Material and piece-square tables, summed from Red's view.
#[derive(Clone, Copy, Debug, Default)]
pub struct PieceSquares;

impl Evaluation for PieceSquares {
    /// The sum from Red's view.
    type State = i32;

    fn state(&self, board: &Board) -> i32 {
        evaluate(board)
    }

    #[inline]
    fn after(&self, state: &i32, board: &Board, mv: Move, _child: &Board) -> i32 {
        let piece = board.piece_at(mv.from).expect("a move moves a piece");
        state + delta(piece, mv, board.piece_at(mv.to))
    }

    #[inline]
    fn value(&mut self, state: &i32, board: &Board) -> i32 {
        for_side(*state, board.side_to_move())
    }
}

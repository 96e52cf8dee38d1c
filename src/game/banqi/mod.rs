//! Banqi (暗棋, dark chess): the hidden-piece game on half a Xiangqi board, with its
//! chance events exact.
//!
//! The 32 pieces start face-down on a 4×8 board. A turn is a flip, a step or a capture;
//! the first flip gives the flipping player the colour revealed. A flip is a chance
//! event: the piece revealed is drawn from the hidden [`Pool`], whose counts are public,
//! so the outcome distribution is exact (`count / total` per piece) and no hidden layout
//! is ever dealt. [`Board`] is a bare position, `Copy`, with incremental Zobrist hashing
//! and a move generator fast enough for perft; [`Banqi`] adds the history and the rules
//! that need it (threefold repetition, the no-progress limit) and implements
//! [`crate::game::Game`].

mod board;
mod chess_move;
mod movegen;
pub mod perft;
mod piece;
mod pool;
mod position;
mod rules;
mod square;
mod tables;
pub mod text;
mod zobrist;

pub use board::{Board, Cell};
pub use chess_move::Move;
pub use movegen::MoveList;
pub use piece::{Color, Kind, Piece};
pub use pool::Pool;
pub use position::Banqi;
pub use rules::Rules;
pub use square::{Square, Squares};

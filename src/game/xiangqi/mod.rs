//! Xiangqi (Chinese chess): the rules core.
//!
//! [`Board`] is a bare position, `Copy`, with incremental Zobrist hashing and a legal
//! move generator fast enough for perft and alpha-beta. [`Xiangqi`] adds the history
//! and the rules that need it (repetition, no-capture limit) and implements
//! [`crate::game::Game`]. Moves are written and read in ICCS, WXF and Chinese
//! notation ([`Notation`], [`Board::move_text`], [`Board::read_move`]).

mod attacks;
mod bitboard;
mod board;
mod chess_move;
mod chinese;
pub mod fen;
mod move_description;
mod move_text;
mod movegen;
pub mod perft;
mod piece;
mod ply;
mod position;
mod record_import;
mod repetition;
mod replay;
mod rules;
mod square;
mod tables;
mod wxf;
mod zobrist;

pub use attacks::{attackers, reaches};
pub use bitboard::Bitboard;
pub use board::Board;
pub use chess_move::Move;
pub use move_text::Notation;
pub use movegen::MoveList;
pub use piece::{Color, Kind, Piece};
pub use position::Xiangqi;
pub use record_import::{position_or_record, ImportedRecord};
pub use replay::BadMove;
pub use rules::{RepetitionRule, Rules};
pub use square::Square;

//! xiangqi-zero: self-play reinforcement learning for Xiangqi and Banqi.
//!
//! [`game`] holds the rules cores and the [`game::Game`] trait the other layers are
//! written against.

pub mod allocator;
pub mod atomic_write;
pub mod date;
pub mod engine;
pub mod game;
pub mod matches;
pub mod mcts;
pub mod nn;
pub mod nnue;
pub mod play;
pub mod players;
pub mod records;
pub mod search;
pub mod selfplay;
pub mod storage;
pub mod text_file;
pub mod train;
pub mod web;

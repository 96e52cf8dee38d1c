//! The NNUE as the alpha-beta's [`Evaluation`]: the accumulator is the state carried
//! move by move, the net's output the value — kept by position, since a search meets the
//! same positions again (each iteration of the deepening, each re-search of a reduced or
//! null-window move).

use std::sync::Arc;

use super::accumulator::Accumulator;
use super::net::Nnue;
use crate::game::xiangqi::{Board, Move};
use crate::search::evaluation::Evaluation;

/// Values kept (a power of two; 8 bytes each: 512 KB).
const CACHED: usize = 1 << 16;
/// The bits of an entry that hold the value (an `i16`); the others are its position's
/// hash's, which with the entry's index (the hash's low bits) make up all 64 of them.
const VALUE_BITS: u64 = 0xFFFF;

/// A shared NNUE evaluating for a search.
#[derive(Clone, Debug)]
pub struct NnueEvaluation {
    net: Arc<Nnue>,
    /// The last value computed at each index, with the rest of its position's hash.
    cache: Vec<u64>,
}

impl NnueEvaluation {
    /// Evaluation by `net`.
    pub fn new(net: Arc<Nnue>) -> NnueEvaluation {
        NnueEvaluation { net, cache: vec![0; CACHED] }
    }
}

impl Evaluation for NnueEvaluation {
    type State = Accumulator;

    fn state(&self, board: &Board) -> Accumulator {
        Accumulator::new(&self.net, board)
    }

    #[inline]
    fn after(&self, state: &Accumulator, board: &Board, mv: Move, child: &Board) -> Accumulator {
        state.after(&self.net, board, mv, child)
    }

    #[inline]
    fn value(&mut self, state: &Accumulator, board: &Board) -> i32 {
        let hash = board.hash();
        let entry = &mut self.cache[hash as usize & (CACHED - 1)];
        if *entry & !VALUE_BITS == hash & !VALUE_BITS {
            return *entry as u16 as i16 as i32;
        }
        let value = state.evaluate(&self.net, board.side_to_move());
        *entry = (hash & !VALUE_BITS) | value as i16 as u16 as u64;
        value
    }
}

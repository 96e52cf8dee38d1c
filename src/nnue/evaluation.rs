//! The NNUE as the alpha-beta's [`Evaluation`]: the accumulator is the state carried
//! move by move, the net's output the value.

use std::sync::Arc;

use super::accumulator::Accumulator;
use super::net::Nnue;
use crate::game::xiangqi::{Board, Move};
use crate::search::evaluation::Evaluation;

/// A shared NNUE evaluating for a search.
#[derive(Clone, Debug)]
pub struct NnueEvaluation {
    net: Arc<Nnue>,
}

impl NnueEvaluation {
    /// Evaluation by `net`.
    pub fn new(net: Arc<Nnue>) -> NnueEvaluation {
        NnueEvaluation { net }
    }

    /// The net.
    pub fn net(&self) -> &Nnue {
        &self.net
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
    fn value(&self, state: &Accumulator, board: &Board) -> i32 {
        state.evaluate(&self.net, board.side_to_move())
    }
}

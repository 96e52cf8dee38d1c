//! What a search produces: per-move statistics, the policy target for training, the
//! root's value and the principal variation.

use super::evaluator::Wdl;

/// One root move's statistics.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveStats<M> {
    /// The move.
    pub mv: M,
    /// Its prior from the evaluator (before any root noise).
    pub prior: f32,
    /// Its visits (the reused tree's included).
    pub visits: u32,
    /// Its mean value from the mover's view, if visited.
    pub q: Option<f32>,
    /// Its share of the policy target.
    pub policy: f32,
}

/// The outcome of a search, for play and for training.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<M> {
    /// Every legal move at the root, in the order of `Game::legal_moves` (empty if the
    /// game is over or the root was never expanded).
    pub moves: Vec<MoveStats<M>>,
    /// The root's mean value from the mover's view, in [−1, 1].
    pub value: f32,
    /// The same as win/draw/loss.
    pub wdl: Wdl,
    /// Simulations of this search.
    pub simulations: u32,
    /// Visits of the root, the reused tree's included.
    pub visits: u32,
    /// Whether this was a full search (playout-cap randomization: recorded for training).
    pub full: bool,
    /// The most visited move (`None` without moves).
    pub best: Option<M>,
    /// The most visited line from the root (stopping at a chance point).
    pub pv: Vec<M>,
    /// The deepest descent, in plies and chance draws.
    pub depth: u32,
    /// The root proven won (`+plies`) or lost (`−plies`) for the mover, the game ending
    /// within that many plies (the MCTS-solver).
    pub proven_end: Option<i32>,
}

impl<M: Copy> SearchResult<M> {
    /// The policy target over the legal moves (sums to 1 when there are moves).
    pub fn policy(&self) -> Vec<f32> {
        self.moves.iter().map(|m| m.policy).collect()
    }
}

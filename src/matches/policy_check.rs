//! How well an evaluator's priors point at a deeper search's move: positions of recorded
//! games, each one's best move by `alphabeta` to a fixed depth (the referee), and where
//! the priors rank that move. On games no net trained on it says whether a net's policy
//! orders moves better than the rules' capture-and-check weights, the priors the search
//! otherwise uses, without playing a match.

use crate::game::xiangqi::{Move, Xiangqi};
use crate::game::Game;
use crate::mcts::{Batch, Evaluator};
use crate::search::xiangqi::AlphaBeta;
use crate::search::Limits;

/// Megabytes of the referee's transposition table.
const REFEREE_TABLE_MB: usize = 16;

/// A position and the referee's best move in it.
#[derive(Clone, Debug)]
pub struct Refereed {
    /// The position.
    pub position: Xiangqi,
    /// The referee's best move.
    pub best: Move,
}

/// The best move of `alphabeta` to `depth` in each of `positions`, each searched afresh;
/// positions with fewer than two legal moves are left out (nothing to rank).
pub fn refereed_positions<'a>(positions: impl IntoIterator<Item = &'a Xiangqi>, depth: u32) -> Vec<Refereed> {
    let mut referee = AlphaBeta::new(REFEREE_TABLE_MB);
    let mut moves = Vec::new();
    let mut refereed = Vec::new();
    for position in positions {
        position.legal_moves(&mut moves);
        if moves.len() < 2 {
            continue;
        }
        referee.clear();
        if let Some(best) = referee.search(position, &Limits::depth(depth), &mut |_| {}).best {
            refereed.push(Refereed { position: position.clone(), best });
        }
    }
    refereed
}

/// Where one evaluator's priors rank the referee's moves: means over the positions, ties
/// broken at random (a move tied with others for a place holds each of their places with
/// equal chance).
#[derive(Clone, Debug, PartialEq)]
pub struct PolicyCheck {
    /// Positions ranked.
    pub positions: usize,
    /// The chance the referee's move is the priors' first.
    pub top1: f64,
    /// The chance it is among the priors' first three.
    pub top3: f64,
    /// The prior the referee's move gets.
    pub mean_prior: f64,
}

/// Ranks the referee's move of every position by `evaluator`'s priors.
pub fn policy_check(evaluator: &mut impl Evaluator<Xiangqi>, positions: &[Refereed]) -> PolicyCheck {
    let (mut top1, mut top3, mut mean_prior) = (0.0, 0.0, 0.0);
    let mut batch = Batch::new();
    for refereed in positions {
        batch.clear();
        let i = batch.push(&refereed.position);
        evaluator.evaluate(&mut batch);
        let best = batch.moves(i).iter().position(|&mv| mv == refereed.best).expect("the referee's move is legal");
        let priors = batch.priors(i);
        let prior = priors[best];
        let above = priors.iter().filter(|&&p| p > prior).count() as f64;
        let tied = priors.iter().filter(|&&p| p == prior).count() as f64;
        top1 += if above == 0.0 { 1.0 / tied } else { 0.0 };
        top3 += ((3.0 - above) / tied).clamp(0.0, 1.0);
        mean_prior += f64::from(prior) / f64::from(priors.iter().sum::<f32>().max(f32::MIN_POSITIVE));
    }
    let n = positions.len().max(1) as f64;
    PolicyCheck { positions: positions.len(), top1: top1 / n, top3: top3 / n, mean_prior: mean_prior / n }
}

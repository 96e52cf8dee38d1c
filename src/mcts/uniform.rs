//! `uniform`: the evaluator that knows nothing — flat priors, and a value of 0 or the
//! result of a short random rollout. For tests, benchmarks and as the weakest baseline.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::evaluator::{Batch, Evaluator, Wdl};
use crate::game::sample_outcome;
use crate::game::Game;

/// Flat priors; the value is 0, or with `rollout_plies` > 0 the result of one random
/// game of at most that many plies from the position (0 if it has not ended).
#[derive(Clone, Debug)]
pub struct UniformEvaluator {
    rollout_plies: u32,
    rng: StdRng,
}

impl UniformEvaluator {
    /// Flat priors and value 0: an evaluator that costs nothing.
    pub fn new() -> UniformEvaluator {
        UniformEvaluator { rollout_plies: 0, rng: StdRng::seed_from_u64(0) }
    }

    /// Flat priors and the value of a random rollout of at most `plies` plies.
    pub fn with_rollouts(plies: u32, seed: u64) -> UniformEvaluator {
        UniformEvaluator { rollout_plies: plies, rng: StdRng::seed_from_u64(seed) }
    }

    /// The result of a random game from `game`, from its mover's view.
    fn rollout<G: Game>(&mut self, game: &G) -> f32 {
        let mover = game.to_move();
        let mut game = game.clone();
        let (mut moves, mut outcomes) = (Vec::new(), Vec::new());
        for _ in 0..self.rollout_plies {
            if let Some(value) = game.status().value_for(mover) {
                return value;
            }
            game.legal_moves(&mut moves);
            game.play(moves[self.rng.random_range(0..moves.len())]);
            while game.is_chance() {
                game.chance_outcomes(&mut outcomes);
                game.apply_outcome(sample_outcome(&outcomes, &mut self.rng));
            }
        }
        game.status().value_for(mover).unwrap_or(0.0)
    }
}

impl Default for UniformEvaluator {
    fn default() -> Self {
        UniformEvaluator::new()
    }
}

impl<G: Game> Evaluator<G> for UniformEvaluator {
    fn evaluate(&mut self, batch: &mut Batch<G>) {
        for i in 0..batch.len() {
            batch.priors_mut(i).fill(1.0);
            let value = if self.rollout_plies == 0 { 0.0 } else { self.rollout(batch.game(i)) };
            batch.set_value(i, Wdl::from_value(value));
        }
    }
}

//! `random`: a uniformly random legal move, from a seeded generator.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::{Player, PlayerError};
use crate::game::Game;
use crate::search::{Limits, Report, Score};

/// Plays a uniformly random legal move.
pub struct RandomPlayer {
    rng: StdRng,
}

impl RandomPlayer {
    /// A random player whose choices are fixed by `seed`.
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer { rng: StdRng::seed_from_u64(seed) }
    }
}

impl<G: Game> Player<G> for RandomPlayer {
    fn name(&self) -> String {
        "random".to_string()
    }

    fn think(
        &mut self,
        game: &G,
        _: &Limits,
        _: &mut dyn FnMut(&Report<G::Move>),
    ) -> Result<Report<G::Move>, PlayerError> {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        if moves.is_empty() {
            return Err(PlayerError::Protocol("asked to move with no legal move".into()));
        }
        let best = moves[self.rng.random_range(0..moves.len())];
        Ok(Report {
            depth: 0,
            seldepth: 0,
            score: Score::Cp(0),
            nodes: 0,
            searched: 0,
            elapsed: std::time::Duration::ZERO,
            best: Some(best),
            pv: vec![best],
            more: Vec::new(),
        })
    }
}

//! Where a match's games start: openings played out through the rules core (Xiangqi),
//! or the shuffled start with a seed per pair of games (Banqi).

use super::openings::OwnedOpening;
use crate::game::banqi::{self, Banqi};
use crate::game::splitmix::splitmix64;
use crate::game::xiangqi::{self, Xiangqi};
use crate::game::Game;

/// Where a pair of games starts: a position, the opening's name, and the seed of the
/// chance events (Banqi flips), the same for both colour assignments.
#[derive(Clone, Debug)]
pub struct Start<G> {
    /// The position after the opening moves.
    pub game: G,
    /// The opening's name, for the records.
    pub opening: Option<String>,
    /// Seed of the chance events of both games of the pair.
    pub seed: u64,
}

/// The positions after each of `openings`, under `rules`; an opening that is not legal
/// is an error naming it.
pub fn xiangqi_starts(openings: &[OwnedOpening], rules: xiangqi::Rules) -> Result<Vec<Start<Xiangqi>>, String> {
    openings
        .iter()
        .map(|opening| {
            let mut game = Xiangqi::from_fen(opening.start_text(), rules)
                .map_err(|e| format!("opening `{}`: {e}", opening.name))?;
            for text in &opening.moves {
                let mv = game.parse_move(text).map_err(|e| format!("opening `{}`: {e}", opening.name))?;
                game.play(mv);
            }
            Ok(Start { game, opening: Some(opening.name.clone()), seed: 0 })
        })
        .collect()
}

/// `pairs` Banqi starts under `rules`, pair `k` with flips seeded by SplitMix64 of
/// `seed` and `k` together: each (seed, pair) its own deal, so that matches under two
/// seeds share no game.
pub fn banqi_starts(pairs: u32, seed: u64, rules: banqi::Rules) -> Vec<Start<Banqi>> {
    (0..pairs)
        .map(|pair| {
            let (_, deal) = splitmix64(seed.rotate_left(32) ^ u64::from(pair));
            Start { game: Banqi::with_rules(rules), opening: None, seed: deal }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn two_seeds_deal_no_pair_alike() {
        let deals = |seed| -> HashSet<u64> {
            banqi_starts(40, seed, banqi::Rules::default()).iter().map(|start| start.seed).collect()
        };
        let (three, four) = (deals(3), deals(4));
        assert_eq!((three.len(), four.len()), (40, 40), "every pair of a match its own deal");
        assert!(three.is_disjoint(&four));
    }
}

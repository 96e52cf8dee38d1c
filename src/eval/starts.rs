//! Where a match's games start: openings played out through the rules core (Xiangqi),
//! or the shuffled start with a seed per pair of games (Banqi).

use super::arena::Start;
use super::openings::OwnedOpening;
use crate::game::banqi::{self, Banqi};
use crate::game::xiangqi::{self, Xiangqi};
use crate::game::Game;

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

/// `pairs` Banqi starts under `rules`, pair `k` with flips seeded by `seed + k`.
pub fn banqi_starts(pairs: u32, seed: u64, rules: banqi::Rules) -> Vec<Start<Banqi>> {
    (0..pairs)
        .map(|pair| Start { game: Banqi::with_rules(rules), opening: None, seed: seed.wrapping_add(u64::from(pair)) })
        .collect()
}

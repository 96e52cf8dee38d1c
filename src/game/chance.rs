//! Resolving a chance point by drawing one of its outcomes, as self-play, matches and the
//! terminal board do (a search instead weighs every outcome).

use rand::Rng;

/// Draws one of `outcomes` (each with its probability, `Game::chance_outcomes`' list);
/// the probabilities need not add up to 1. `outcomes` must not be empty.
pub fn sample_outcome<O: Copy, R: Rng + ?Sized>(outcomes: &[(O, f32)], rng: &mut R) -> O {
    let mut pick = rng.random::<f32>() * outcomes.iter().map(|(_, p)| p).sum::<f32>();
    for &(outcome, p) in outcomes {
        if pick < p {
            return outcome;
        }
        pick -= p;
    }
    outcomes[outcomes.len() - 1].0
}

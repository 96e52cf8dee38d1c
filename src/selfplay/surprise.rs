//! Policy-surprise weighting (KataGo, Wu 2019, "Accelerating Self-Play Learning in Go"): a
//! move where the search's policy differs most from the net's prior teaches the most, so
//! its sample is written more often, and a move the net already predicts less often — each
//! game keeping its number of samples on average.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::mcts::MoveStats;

/// The surprise of a search: the divergence KL(target ‖ prior) of its policy target from
/// the prior its root's moves started with (the net's, with the rules' share where
/// `rules_prior` gives them one), in nats.
pub(super) fn surprise<M>(moves: &[MoveStats<M>]) -> f32 {
    moves
        .iter()
        .filter(|m| m.policy > 0.0)
        .map(|m| m.policy * (m.policy / m.prior.max(1e-6)).ln())
        .sum::<f32>()
        .max(0.0)
}

/// How many times each of a game's samples is written, from their `surprises` (`None`: a
/// sample not weighted, written once — a cheap search's, whose few visits make no policy
/// target): each other sample's weight is `(1 − share) + share · surprise / mean`, the mean
/// over the game's weighted samples (1 for all where it is 0), written its whole part of
/// times and once more with the chance of the rest (drawn from `seed`). With `share` 1 a
/// sample the net predicted exactly is not written at all.
pub(super) fn copies(surprises: &[Option<f32>], share: f32, seed: u64) -> Vec<u32> {
    let weighted: Vec<f32> = surprises.iter().flatten().copied().collect();
    let mean = weighted.iter().sum::<f32>() / weighted.len().max(1) as f32;
    let mut rng = StdRng::seed_from_u64(seed);
    surprises
        .iter()
        .map(|surprise| match surprise {
            Some(surprise) if mean > 0.0 => {
                let weight = (1.0 - share) + share * surprise / mean;
                weight.floor() as u32 + u32::from(rng.random::<f32>() < weight.fract())
            }
            _ => 1,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stats(prior: f32, policy: f32) -> MoveStats<u8> {
        MoveStats { mv: 0, prior, visits: 0, q: None, policy }
    }

    #[test]
    fn surprise_is_the_targets_divergence_from_the_prior() {
        assert_eq!(surprise(&[stats(0.5, 0.5), stats(0.5, 0.5)]), 0.0);
        // Worked by hand: 0.9·ln(0.9/0.5) + 0.1·ln(0.1/0.5) = 0.5290 − 0.1609.
        let kl = surprise(&[stats(0.5, 0.9), stats(0.5, 0.1)]);
        assert!((kl - 0.368_0).abs() < 1e-3, "{kl}");
        // A move left out of the target adds nothing.
        assert!((surprise(&[stats(0.25, 1.0), stats(0.75, 0.0)]) - 4f32.ln()).abs() < 1e-5);
    }

    #[test]
    fn copies_follow_the_surprise_and_keep_the_games_samples_on_average() {
        assert_eq!(copies(&[Some(0.3), Some(0.0), Some(1.2)], 0.0, 1), vec![1, 1, 1]);
        assert_eq!(copies(&[Some(0.0), Some(0.0)], 1.0, 1), vec![1, 1]);
        // All the weight by surprise, whole weights: exactly 0, 0 and 3 copies; a cheap
        // search's sample once, outside the mean.
        assert_eq!(copies(&[Some(0.0), Some(0.0), None, Some(0.6)], 1.0, 1), vec![0, 0, 1, 3]);
        // Half by surprise: weights 0.75 and 1.25, met on average over many draws.
        let mut totals = [0u32; 2];
        for seed in 0..4000 {
            let c = copies(&[Some(1.0), Some(3.0)], 0.5, seed);
            totals[0] += c[0];
            totals[1] += c[1];
        }
        let means = totals.map(|t| t as f32 / 4000.0);
        assert!((means[0] - 0.75).abs() < 0.03 && (means[1] - 1.25).abs() < 0.03, "{means:?}");
    }
}

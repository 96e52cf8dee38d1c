//! One Elo scale for a run: a ladder of fixed players rated once among themselves by a
//! round robin, and each net placed on that scale by its scores against them.
//!
//! Both are maximum-likelihood fits of the logistic Elo model (a draw counts half a win)
//! with BayesElo's prior of one virtual draw per pairing, so that a clean sweep still
//! gives a finite rating: a net that loses every game to the lowest rung is put about
//! 650 Elo below it after 20 games, not at −∞.

use serde::{Deserialize, Serialize};

use super::stats::{fraction_from_elo as expected, Score};

/// Elo per factor of ten in the odds.
const ELO_PER_DECADE: f64 = 400.0;
/// Virtual games per pairing, drawn (BayesElo's prior).
const PRIOR_DRAWS: f64 = 1.0;
/// Log-likelihood drop that bounds a 95% interval (χ²₁(0.95) / 2).
const HALF_CHI2_95: f64 = 1.920_729;
/// How far from the ladder a rating is searched for.
const SEARCH_SPAN: f64 = 4000.0;

/// A rung of the ladder: a player spec and its Elo on the ladder's scale.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rung {
    /// The player, as `eval` names it (`alphabeta:depth=1`, `gen0000`).
    pub player: String,
    /// Its Elo on the ladder's scale.
    pub elo: f64,
}

/// A pairing's result: the players' indices and the first one's score.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pairing {
    /// The first player.
    pub a: usize,
    /// The second player.
    pub b: usize,
    /// Wins, draws and losses of `a` against `b`.
    pub score: Score,
}

/// Where a player stands on a ladder: its Elo and the 95% likelihood interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Placement {
    /// The maximum-likelihood Elo.
    pub elo: f64,
    /// The lower end of the 95% interval.
    pub low: f64,
    /// The upper end of the 95% interval.
    pub high: f64,
}

/// Points of `a` and of `b` in a pairing, with the prior's virtual draws.
fn points(score: &Score) -> (f64, f64) {
    let (w, d, l) = (f64::from(score.wins), f64::from(score.draws), f64::from(score.losses));
    (w + (d + PRIOR_DRAWS) / 2.0, l + (d + PRIOR_DRAWS) / 2.0)
}

/// The Elo of `players` players from the pairings of a round robin, the first player
/// at `anchor`. Bradley–Terry strengths by Hunter's minorisation–maximisation, which
/// converges for any results once the prior links every pairing played; a player with no
/// pairing stays at the anchor.
pub fn round_robin_elo(players: usize, pairings: &[Pairing], anchor: f64) -> Vec<f64> {
    let mut strength = vec![1.0f64; players];
    for _ in 0..10_000 {
        let mut next = strength.clone();
        for (i, s) in next.iter_mut().enumerate() {
            let (mut won, mut denominator) = (0.0, 0.0);
            for p in pairings.iter().filter(|p| p.a == i || p.b == i) {
                let (pa, pb) = points(&p.score);
                let (mine, other) = if p.a == i { (pa, p.b) } else { (pb, p.a) };
                won += mine;
                denominator += (pa + pb) / (strength[i] + strength[other]);
            }
            if denominator > 0.0 {
                *s = won / denominator;
            }
        }
        let first = next[0];
        next.iter_mut().for_each(|s| *s /= first);
        let change = next.iter().zip(&strength).map(|(a, b)| (a.ln() - b.ln()).abs()).fold(0.0, f64::max);
        strength = next;
        if change < 1e-10 {
            break;
        }
    }
    strength.iter().map(|s| anchor + ELO_PER_DECADE * s.log10()).collect()
}

/// The log-likelihood of a player at `elo` having scored `results` against rungs of
/// the given Elo.
fn log_likelihood(elo: f64, results: &[(f64, Score)]) -> f64 {
    results
        .iter()
        .map(|(rung, score)| {
            let (mine, theirs) = points(score);
            let p = expected(elo - rung);
            mine * p.ln() + theirs * (1.0 - p).ln()
        })
        .sum()
}

/// The point where increasing `f` crosses zero in `[low, high]`, by bisection.
fn crossing(mut low: f64, mut high: f64, f: impl Fn(f64) -> f64) -> f64 {
    for _ in 0..100 {
        let mid = (low + high) / 2.0;
        if f(mid) < 0.0 {
            low = mid;
        } else {
            high = mid;
        }
    }
    (low + high) / 2.0
}

/// Places a player on the ladder from its `results` (a rung's Elo and the player's
/// score against it): the maximum-likelihood Elo with the rungs held fixed, and the 95%
/// interval where the log-likelihood is within 1.92 of its maximum. `None` without a
/// game.
pub fn place(results: &[(f64, Score)]) -> Option<Placement> {
    if results.iter().all(|(_, score)| score.games() == 0) {
        return None;
    }
    let lowest = results.iter().map(|r| r.0).fold(f64::INFINITY, f64::min) - SEARCH_SPAN;
    let highest = results.iter().map(|r| r.0).fold(f64::NEG_INFINITY, f64::max) + SEARCH_SPAN;
    // The log-likelihood is concave: its slope, Σ (points − games·p), falls through zero.
    let slope = |elo: f64| -> f64 {
        results
            .iter()
            .map(|(rung, score)| {
                let (mine, theirs) = points(score);
                mine - (mine + theirs) * expected(elo - rung)
            })
            .sum()
    };
    let elo = crossing(lowest, highest, |e| -slope(e));
    let top = log_likelihood(elo, results);
    let drop = |e: f64| log_likelihood(e, results) - (top - HALF_CHI2_95);
    let low = crossing(lowest, elo, drop);
    let high = crossing(elo, highest, |e| -drop(e));
    Some(Placement { elo, low, high })
}

/// A short account of where `elo` stands among `rungs`: between which two, or above or
/// below them all.
pub fn standing(elo: f64, rungs: &[Rung]) -> String {
    let mut sorted: Vec<&Rung> = rungs.iter().collect();
    sorted.sort_by(|a, b| a.elo.total_cmp(&b.elo));
    let name = |r: &Rung| format!("{} ({:+.0})", r.player, r.elo);
    match sorted.iter().position(|r| r.elo > elo) {
        None => sorted.last().map_or_else(String::new, |r| format!("above {}", name(r))),
        Some(0) => format!("below {}", name(sorted[0])),
        Some(i) => format!("between {} and {}", name(sorted[i - 1]), name(sorted[i])),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn score(wins: u32, draws: u32, losses: u32) -> Score {
        Score::new(wins, draws, losses)
    }

    #[test]
    fn a_round_robin_of_even_scores_rates_everyone_equal() {
        let pairings = [
            Pairing { a: 0, b: 1, score: score(5, 10, 5) },
            Pairing { a: 1, b: 2, score: score(3, 14, 3) },
            Pairing { a: 0, b: 2, score: score(0, 20, 0) },
        ];
        for elo in round_robin_elo(3, &pairings, 100.0) {
            assert!((elo - 100.0).abs() < 1e-6, "{elo}");
        }
    }

    #[test]
    fn two_players_are_rated_by_their_score_with_the_prior() {
        // 15 points of 20 plus one virtual draw: 15.5 against 5.5, so 400·log10(15.5/5.5).
        let elo = round_robin_elo(2, &[Pairing { a: 1, b: 0, score: score(12, 6, 2) }], 0.0);
        assert_eq!(elo[0], 0.0);
        assert!((elo[1] - 400.0 * (15.5f64 / 5.5).log10()).abs() < 1e-6, "{elo:?}");
    }

    #[test]
    fn a_player_scoring_half_against_one_rung_is_placed_on_it() {
        let placed = place(&[(250.0, score(4, 12, 4))]).unwrap();
        assert!((placed.elo - 250.0).abs() < 1e-6, "{placed:?}");
        assert!(placed.low < 150.0 && placed.high > 350.0, "{placed:?}");
        assert!(((placed.high - 250.0) - (250.0 - placed.low)).abs() < 1e-6, "a symmetric interval: {placed:?}");
    }

    #[test]
    fn a_clean_sweep_is_finite_and_more_games_narrow_the_interval() {
        let lost = place(&[(0.0, score(0, 0, 20))]).unwrap();
        // One virtual draw: 0.5 points against 20.5, so 400·log10(0.5/20.5) ≈ −645.
        assert!((lost.elo - 400.0 * (0.5f64 / 20.5).log10()).abs() < 1e-6, "{lost:?}");
        let few = place(&[(0.0, score(6, 0, 4))]).unwrap();
        let many = place(&[(0.0, score(60, 0, 40))]).unwrap();
        assert!(many.high - many.low < few.high - few.low);
    }

    #[test]
    fn standing_names_the_rungs_around_a_rating() {
        let rungs = [
            Rung { player: "b".into(), elo: 300.0 },
            Rung { player: "a".into(), elo: 0.0 },
            Rung { player: "c".into(), elo: -200.0 },
        ];
        assert_eq!(standing(100.0, &rungs), "between a (+0) and b (+300)");
        assert_eq!(standing(-300.0, &rungs), "below c (-200)");
        assert_eq!(standing(400.0, &rungs), "above b (+300)");
    }
}

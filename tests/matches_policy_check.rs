//! `policy-check` on a position worked out by hand: Red's Chariot can take Black's, which
//! nothing guards. The referee plays the capture, the rules' priors (captures weighted by
//! the victim) put it first, and flat priors rank it as a random guess among the legal
//! moves would.

use xiangqi_zero::game::xiangqi::Xiangqi;
use xiangqi_zero::game::Game;
use xiangqi_zero::matches::{policy_check, refereed_positions};
use xiangqi_zero::mcts::{Guided, SearchConfig, UniformEvaluator};

/// Red: General e0, Chariot a0; Black: General f9, Chariot a4 (unguarded, and attacking
/// Red's). Red to move, with no check to give.
const HANGING_CHARIOT: &str = "5k3/9/9/9/9/r8/9/9/9/R3K4 w - - 0 1";

fn position() -> Xiangqi {
    Xiangqi::from_text(HANGING_CHARIOT).unwrap()
}

#[test]
fn the_referee_takes_the_hanging_chariot() {
    let refereed = refereed_positions([&position()], 3);
    assert_eq!(refereed.len(), 1);
    assert_eq!(refereed[0].best.to_string(), "a0a4");
}

#[test]
fn the_rules_priors_put_the_capture_first() {
    let positions = refereed_positions([&position()], 3);
    let rules = SearchConfig { rules_prior: 1.0, ..SearchConfig::default() };
    let check = policy_check(&mut Guided::new(UniformEvaluator::new(), &rules), &positions);
    assert_eq!((check.positions, check.top1, check.top3), (1, 1.0, 1.0));
    assert!(check.mean_prior > 0.1, "{check:?}");
}

#[test]
fn flat_priors_rank_the_move_as_a_random_guess_would() {
    let positions = refereed_positions([&position()], 3);
    let mut moves = Vec::new();
    position().legal_moves(&mut moves);
    let n = moves.len() as f64;
    let check = policy_check(&mut UniformEvaluator::new(), &positions);
    assert!((check.top1 - 1.0 / n).abs() < 1e-9, "{check:?} with {n} legal moves");
    assert!((check.top3 - 3.0 / n).abs() < 1e-9, "{check:?}");
    assert!((check.mean_prior - 1.0 / n).abs() < 1e-6, "{check:?}");
}

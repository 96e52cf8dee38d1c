//! `mcts:sims=400,eval=material` beats random play in the arena, at both games.

mod common;

use xiangqi_zero::game::banqi::Banqi;
use xiangqi_zero::game::xiangqi::Xiangqi;
use xiangqi_zero::matches::run_match;
use xiangqi_zero::players::Playable;

/// 20 games (10 starts, both colours), two at a time: the score of the MCTS player.
fn score_against_random<G: Playable>() -> f64 {
    let mcts = common::spec("mcts:sims=400,eval=material");
    let result =
        run_match::<G>(&mcts, &common::spec("random"), &common::start_positions(10), &common::match_config(20))
            .unwrap();
    assert_eq!(result.a, "mcts:sims=400,eval=material");
    result.score.fraction()
}

#[test]
fn mcts_beats_random_at_xiangqi() {
    let score = score_against_random::<Xiangqi>();
    assert!(score >= 0.95, "{score}");
}

#[test]
fn mcts_beats_random_at_banqi() {
    let score = score_against_random::<Banqi>();
    assert!(score >= 0.95, "{score}");
}

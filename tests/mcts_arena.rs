//! `mcts:sims=400,eval=material` beats random play in the arena, at both games.

use xiangqi_zero::eval::{run_match, MatchConfig, Playable, PlayerSpec, Start};
use xiangqi_zero::game::banqi::Banqi;
use xiangqi_zero::game::xiangqi::Xiangqi;

/// 20 games (10 starts, both colours), two at a time: the score of the MCTS player.
fn score_against_random<G: Playable>() -> f64 {
    let config = MatchConfig {
        games: 20,
        concurrency: 2,
        movetime: None,
        sprt: None,
        out: None,
        max_plies: 300,
        seed: 7,
        progress: false,
    };
    let starts: Vec<Start<G>> = (0..10).map(|seed| Start { game: G::start(), opening: None, seed }).collect();
    let mcts: PlayerSpec = "mcts:sims=400,eval=material".parse().unwrap();
    let result = run_match::<G>(&mcts, &"random".parse().unwrap(), &starts, &config).unwrap();
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

//! `value-check` on games worked out by hand: a chariot up wins both of them, once for
//! each colour, so a material count orders every position by its game's result and a
//! player that scores nothing orders none.

use xiangqi_zero::game::xiangqi::Xiangqi;
use xiangqi_zero::matches::{judged_positions, value_check};
use xiangqi_zero::players::{Playable, PlayerSpec};
use xiangqi_zero::records::GameRecord;
use xiangqi_zero::search::Limits;

fn record(start: &str, moves: &[&str], result: &str) -> GameRecord {
    GameRecord {
        game: "xiangqi".to_string(),
        red: "red".to_string(),
        black: "black".to_string(),
        start: start.to_string(),
        moves: moves.iter().map(|m| m.to_string()).collect(),
        result: result.to_string(),
        reason: "adjudication".to_string(),
        round: 1,
        opening: None,
    }
}

/// Red a chariot up and winning; then Black a chariot up and winning.
fn chariot_games() -> Vec<GameRecord> {
    vec![
        record("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1", &["a0a1", "d9d8", "a1a2", "d8d9"], "1-0"),
        record("r3k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", &["d0d1", "a9a8", "d1d0", "a8a9"], "0-1"),
    ]
}

fn check(spec: &str, every: usize) -> xiangqi_zero::matches::ValueCheck {
    let positions = judged_positions(&chariot_games(), every).unwrap();
    let mut player = Xiangqi::player(&spec.parse::<PlayerSpec>().unwrap(), 1).unwrap();
    value_check(player.as_mut(), &positions, &Limits::nodes(1)).unwrap()
}

#[test]
fn results_are_from_each_movers_view_and_every_nth_position_is_kept() {
    let positions = judged_positions(&chariot_games(), 1).unwrap();
    let results: Vec<i8> = positions.iter().map(|p| p.result).collect();
    // Red to move first in both: Red wins the first game and loses the second.
    assert_eq!(results, [1, -1, 1, -1, -1, 1, -1, 1]);
    assert_eq!(judged_positions(&chariot_games(), 3).unwrap().len(), 4);
}

#[test]
fn a_material_count_orders_every_position_and_a_random_player_none() {
    let material = check("mcts:sims=1,eval=material", 1);
    assert_eq!(material.positions, 8);
    assert_eq!(material.concordance, 1.0);
    assert_eq!((material.by_third[0], material.by_third[2]), (-1.0, 1.0));
    // Positions of equal material all ended alike: no pair to order beyond material.
    assert_eq!(material.beyond_material, 0.5);
    assert_eq!(check("random", 1).concordance, 0.5);
}

#[test]
fn a_record_that_does_not_replay_is_named() {
    let bad = record("startpos", &["h2e2", "h2e2"], "1-0");
    let error = judged_positions(&[bad], 1).unwrap_err();
    assert!(error.contains("game 1, move 2"), "{error}");
}

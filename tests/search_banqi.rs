//! The Banqi expectimax baseline: hand-made positions where a capture or a win is forced,
//! a flip whose every outcome loses is avoided, legal moves over many random positions
//! (also with chain captures), and the limits.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use xiangqi_zero::game::banqi::{Banqi, Move, Rules};
use xiangqi_zero::game::Game;
use xiangqi_zero::search::banqi::Expectimax;
use xiangqi_zero::search::{Limits, Report, Score};

fn search(state: &str, depth: u32) -> Report<Move> {
    let game = Banqi::from_text(state).unwrap();
    Expectimax::new(4).search(&game, &Limits::depth(depth), &mut |_| {})
}

fn best(report: &Report<Move>) -> String {
    report.best.expect("a move").to_string()
}

#[test]
fn the_general_takes_the_last_piece() {
    // Red's General on a1, Black's last piece a Chariot on a2.
    for depth in 1..=4 {
        let report = search("4/4/4/4/4/4/r3/K3 r - 0 10", depth);
        assert_eq!((best(&report), report.score), ("a1a2".to_string(), Score::Mate(1)), "depth {depth}");
    }
}

#[test]
fn a_cannon_jumps_a_face_down_screen_for_the_win() {
    // Red's Cannon on a1, a face-down Red Soldier on a2, Black's General on a3 and
    // nothing else of Black's.
    let report = search("4/4/4/4/4/k3/X3/C3 r P 0 10", 3);
    assert_eq!((best(&report), report.score), ("a1a3".to_string(), Score::Mate(1)));
}

#[test]
fn the_general_takes_the_chariot_before_the_soldier_takes_it() {
    // Red's General on b2 between Black's Soldier (b3), which would take it, and
    // Black's Chariot (c2), which it can take; Red has nothing else.
    let report = search("4/4/4/4/4/1p2/1Kr1/4 r - 0 10", 3);
    assert_eq!(best(&report), "b2c2");
}

#[test]
fn a_soldier_takes_the_general() {
    // Red's Soldier on b2 below Black's General (b3), which cannot take it back; Black
    // also has a Chariot on d8.
    let report = search("3r/4/4/4/4/1k2/1P2/K3 r - 0 10", 2);
    assert_eq!(best(&report), "b2b3");
}

#[test]
fn a_flip_that_surely_loses_is_avoided() {
    // Red's lone General on a1 next to a face-down square that can only hold a Black
    // Soldier: flipping it lets the Soldier take the General. Stepping away is safe.
    let report = search("4/4/4/4/4/4/4/KX2 r p 0 10", 3);
    assert_eq!(best(&report), "a1a2");
    assert!(!matches!(report.score, Score::Mate(n) if n < 0), "{:?}", report.score);
    // Forced to flip (nothing face-up), Red flips; the outcome is averaged, not feared.
    let report = search("4/4/4/4/4/4/4/XX2 r Pp 0 10", 2);
    assert!(matches!(best(&report).as_str(), "a1a1" | "b1b1"));
}

#[test]
fn a_repetition_draws_or_loses_for_the_side_that_repeats_as_the_rules_say() {
    // Red's General on a1 and Chariot on b1 against Black's lone General on d8: Black is
    // lost on material. After a1a2 d8d7 a2a1, Black's d7d8 brings back the first
    // position, which the searcher was asked about: under the default rules a draw, which
    // Black takes; under `repeater_loses` a loss for Black, which it avoids.
    for repeater_loses in [false, true] {
        let rules = Rules { repeater_loses, ..Rules::default() };
        let mut game = Banqi::from_state("3k/4/4/4/4/4/4/KR2 r - 0 10", rules).unwrap();
        let mut searcher = Expectimax::new(4);
        for mv in ["a1a2", "d8d7", "a2a1"] {
            searcher.search(&game, &Limits::depth(3), &mut |_| {});
            game.play(game.parse_move(mv).unwrap());
        }
        for depth in 1..=3 {
            let report = searcher.search(&game, &Limits::depth(depth), &mut |_| {});
            let repeats = best(&report) == "d7d8";
            assert_eq!(repeats, !repeater_loses, "depth {depth}, repeater_loses {repeater_loses}: {report:?}");
            assert_eq!(report.score == Score::Cp(0), !repeater_loses, "{report:?}");
        }
    }
}

#[test]
fn a_chance_point_has_no_move() {
    let mut game = Banqi::start();
    game.play(game.parse_move("a1a1").unwrap());
    assert!(game.is_chance());
    let report = Expectimax::new(1).search(&game, &Limits::depth(3), &mut |_| {});
    assert_eq!(report.best, None);
}

/// Positions reached by seeded random play (flips drawn from the pool).
fn random_positions(count: usize, seed: u64, rules: Rules) -> Vec<Banqi> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut positions = Vec::new();
    let mut moves = Vec::new();
    while positions.len() < count {
        let mut game = Banqi::with_rules(rules);
        let plies = rng.random_range(0..200);
        for _ in 0..plies {
            if game.is_chance() {
                game.resolve_chance(&mut rng);
                continue;
            }
            game.legal_moves(&mut moves);
            if moves.is_empty() || game.status().is_over() {
                break;
            }
            game.play(moves[rng.random_range(0..moves.len())]);
        }
        if game.is_chance() {
            game.resolve_chance(&mut rng);
        }
        positions.push(game);
    }
    positions
}

#[test]
fn always_returns_a_legal_move() {
    let mut searcher = Expectimax::new(4);
    let mut legal = Vec::new();
    let chain = Rules { chain_captures: true, ..Rules::default() };
    let positions = random_positions(200, 11, Rules::default()).into_iter().chain(random_positions(100, 12, chain));
    for (i, game) in positions.enumerate() {
        game.legal_moves(&mut legal);
        let limits = match i % 3 {
            0 => Limits::depth(1 + (i % 3) as u32),
            1 => Limits::nodes(1 + (i as u64 * 53) % 5000),
            _ => Limits::movetime(Duration::from_millis((i % 4) as u64)),
        };
        let report = searcher.search(&game, &limits, &mut |_| {});
        match report.best {
            Some(best) => assert!(legal.contains(&best), "{}: illegal {best}", game.to_text()),
            None => assert!(legal.is_empty(), "{}: no move", game.to_text()),
        }
        if let Some(&first) = report.pv.first() {
            assert_eq!(Some(first), report.best);
        }
    }
}

#[test]
fn respects_node_limits_and_stops() {
    let game = random_positions(1, 5, Rules::default()).pop().unwrap();
    for nodes in [0, 1, 5, 100, 10_000] {
        let report = Expectimax::new(1).search(&game, &Limits::nodes(nodes), &mut |_| {});
        assert!(report.nodes <= nodes, "{} > {nodes}", report.nodes);
        assert!(report.best.is_some() || game.status().is_over());
    }
    let stop = Arc::new(AtomicBool::new(true));
    let report =
        Expectimax::new(1).search(&Banqi::start(), &Limits { stop: Some(stop), ..Limits::default() }, &mut |_| {});
    assert!(report.best.is_some());
    let mut depths = Vec::new();
    let report = Expectimax::new(1).search(&Banqi::start(), &Limits::depth(0), &mut |r| depths.push(r.depth));
    assert_eq!((depths, report.depth), (vec![1], 1));
    // A time limit stops a search that nothing else would (no depth or node limit): far
    // within the bound, however loaded the machine; not a measure of speed.
    let started = Instant::now();
    let report = Expectimax::new(1).search(&game, &Limits::movetime(Duration::from_millis(50)), &mut |_| {});
    assert!(started.elapsed() < Duration::from_secs(30) && report.best.is_some());
}

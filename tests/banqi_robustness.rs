//! Banqi under stress: 10,000 seeded random games all end with a status and never panic,
//! with the state text and hash checked along the way; thousands of malformed state and
//! move texts give errors, never panics.

mod common;

use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use xiangqi_zero::game::banqi::{text, Banqi, Move, Rules};
use xiangqi_zero::game::{perft, Game, GameError, Status};

/// Plays a seeded random game to its end; with `check`, verifies at every decision point
/// that the state text reads back to the same state and hash, that every legal move
/// reads back from its text, and that the fast perft(1) agrees with the generic one.
fn random_game(seed: u64, rules: Rules, check: bool) -> (Status, usize) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut game = Banqi::with_rules(rules);
    let mut moves = Vec::new();
    loop {
        if game.is_chance() {
            game.resolve_chance(&mut rng).expect("a chance point has outcomes");
            continue;
        }
        let status = game.status();
        game.legal_moves(&mut moves);
        if check {
            let read = Banqi::from_state(&game.to_text(), rules).expect("own text reads back");
            assert_eq!(read.to_text(), game.to_text());
            assert_eq!(read.hash(), game.hash(), "{}", game.to_text());
            for mv in &moves {
                assert_eq!(game.parse_move(&mv.to_string()), Ok(*mv));
            }
            assert_eq!(game.perft(1), perft::perft(&game, 1));
        }
        if status.is_over() {
            return (status, game.plies_played());
        }
        assert!(!moves.is_empty(), "an ongoing game has moves: {}", game.to_text());
        assert!(game.plies_played() < 20_000, "the game must end");
        game.play(moves[rng.random_range(0..moves.len())]);
    }
}

#[test]
fn ten_thousand_random_games_end() {
    let mut reasons = std::collections::BTreeMap::new();
    for seed in 0..10_000 {
        let (status, _) = random_game(seed, Rules::default(), seed < 200);
        let Status::Over { reason, .. } = status else { unreachable!() };
        *reasons.entry(reason.as_str()).or_insert(0) += 1;
    }
    // Random play reaches every ending.
    for reason in ["no-pieces", "no-capture", "repetition", "stalemate"] {
        assert!(reasons.contains_key(reason), "{reasons:?}");
    }
}

#[test]
fn random_games_with_chain_captures_end() {
    let rules = Rules { chain_captures: true, no_progress_plies: 60, ..Rules::default() };
    for seed in 0..1_000 {
        random_game(seed, rules, seed < 100);
    }
}

#[test]
fn random_games_are_reproducible() {
    for seed in [1, 2, 3] {
        assert_eq!(random_game(seed, Rules::default(), false), random_game(seed, Rules::default(), false));
    }
}

/// Valid states to mutate.
const SAMPLES: [&str; 4] = [
    text::START,
    "XXPX/XRpk/XXXM/XGXP/NpnX/PXXX/cXXX/cgXX r KGMRNCCPPgmmrrnppp 0 14",
    "2cC/1M2/r2P/1gGn/KR2/PN1C/X1pM/kgpp r G 0 55",
    "cc2/1np1/pp2/PmRG/g1C1/R2M/p3/2Gk b - 6 76",
];

/// A state text with one random edit.
fn mutated_state() -> impl Strategy<Value = String> {
    common::mutated(&SAMPLES, "012345689/ KGMRNCPkgmrncpXxrb-a\u{6697}")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn mutated_states_parse_or_fail_cleanly(text in mutated_state()) {
        match Banqi::from_text(&text) {
            Ok(game) => {
                let again = Banqi::from_text(&game.to_text()).unwrap();
                prop_assert_eq!(again.board(), game.board());
                prop_assert_eq!(again.to_text(), game.to_text());
                let _ = (game.status(), game.perft(2));
            }
            Err(error) => {
                let is_position_error = matches!(error, GameError::InvalidPosition { .. });
                prop_assert!(is_position_error);
                prop_assert!(!error.to_string().contains('\n'));
            }
        }
    }

    #[test]
    fn arbitrary_text_is_no_state(text in ".{0,100}|[0-9/XKGMRNCPkgmrncp ]{0,80}") {
        for rules in [Rules::default(), Rules { chain_captures: true, ..Rules::default() }] {
            if let Err(error) = Banqi::from_state(&text, rules) {
                prop_assert!(!error.to_string().contains('\n'));
            }
        }
    }

    #[test]
    fn arbitrary_move_text_is_rejected_or_legal(text in "[a-eA-E0-9-]{0,6}|.{0,8}", which in 0..SAMPLES.len()) {
        let game = Banqi::from_text(SAMPLES[which]).unwrap();
        match game.parse_move(&text) {
            Ok(mv) => {
                let mut legal = Vec::new();
                game.legal_moves(&mut legal);
                prop_assert!(legal.contains(&mv));
            }
            Err(error) => prop_assert!(!error.to_string().contains('\n')),
        }
        let _ = Move::parse(&text);
    }
}

#[test]
fn specific_bad_states_are_rejected_with_a_reason() {
    let cases = [
        ("", "5 fields"),
        ("XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX - KGGMMRRNNCCPPPPPkggmmrrnnccppppp 0", "5 fields"),
        ("XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX - KGGMMRRNNCCPPPPPkggmmrrnnccppppp 0 0", "8 rows"),
        ("XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXX - KGGMMRRNNCCPPPPPkggmmrrnnccppppp 0 0", "3 files"),
        ("XXXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXX - KGGMMRRNNCCPPPPPkggmmrrnnccppppp 0 0", "longer"),
        ("XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XX5 - KGGMMRRNNCCPPPPPkggmmrrnnccppppp 0 0", "character `5`"),
        ("XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XX3 - KGGMMRRNNCCPPPPPkggmmrrnnccppppp 0 0", "longer"),
        ("XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXX0 - KGGMMRRNNCCPPPPPkggmmrrnnccppppp 0 0", "character `0`"),
        ("XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXQ - KGGMMRRNNCCPPPPPkggmmrrnnccppppp 0 0", "character `Q`"),
        ("XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX w KGGMMRRNNCCPPPPPkggmmrrnnccppppp 0 0", "colour to move"),
        ("XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX - KGGMMRRNNCCPPPPPkggmmrrnnccpppppp 0 0", "too many `p`"),
        ("XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX - KGGMMRRNNCCPPPPPkggmmrrnnccpppp 0 0", "31 pieces"),
        ("XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX - KGGMMRRNNCCPPPPPkggmmrrnnccppppx 0 0", "character `x`"),
        ("XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX - KGGMMRRNNCCPPPPPkggmmrrnnccppppp -1 0", "count"),
        ("XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX - KGGMMRRNNCCPPPPPkggmmrrnnccppppp 0 +1", "count"),
        ("XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX - KGGMMRRNNCCPPPPPkggmmrrnnccppppp 0 99999999999", "count"),
        ("XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXK - KGGMMRRNNCCPPPPPkggmmrrnnccppppp 0 0", "too many `K`"),
        ("XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXK - GGMMRRNNCCPPPPPkggmmrrnnccppppp 0 0", "face-up pieces"),
        ("4/4/4/4/4/4/4/XXXX - KGGM 0 0", "both sides"),
        ("4/4/4/4/4/4/4/4 r - 0 0", "needs pieces"),
        ("4/4/4/4/4/4/4/RR1r r - 0 0 a1", "5 fields"),
    ];
    for (text, reason) in cases {
        let error = Banqi::from_text(text).expect_err(text).to_string();
        assert!(error.contains(reason), "`{text}`: {error}");
        assert!(!error.contains('\n'));
    }
    let chain = Rules { chain_captures: true, ..Rules::default() };
    for (text, reason) in [
        ("4/4/4/4/4/4/4/RR1r r - 0 0 a1", "can capture again"),
        ("4/4/4/4/4/4/4/RR1r r - 0 0 e9", "chain-capture square"),
        ("4/4/4/4/4/4/4/RRr1 r - 0 0 a1 b1", "5 fields"),
    ] {
        let error = Banqi::from_state(text, chain).expect_err(text).to_string();
        assert!(error.contains(reason), "`{text}`: {error}");
    }
}

#[test]
fn bad_moves_are_named() {
    let game = Banqi::start();
    assert!(matches!(game.parse_move("a1a2"), Err(GameError::IllegalMove { .. })));
    assert!(matches!(game.parse_move("a9a9"), Err(GameError::MalformedMove(_))));
    assert!(matches!(game.parse_move("e1e1"), Err(GameError::MalformedMove(_))));
    assert!(matches!(game.parse_move("a0a0"), Err(GameError::MalformedMove(_))));
    assert!(matches!(game.parse_move(""), Err(GameError::MalformedMove(_))));
    assert!(game.parse_move("a1a1").is_ok());
    assert!(game.parse_move("D8-D8").is_ok());
    let mut chance = game.clone();
    chance.play(game.parse_move("b2b2").unwrap());
    assert!(matches!(chance.parse_move("a1a1"), Err(GameError::IllegalMove { .. })), "not while a flip is pending");
    assert_eq!(Move::parse("c7c8").unwrap().to_string(), "c7c8");
}

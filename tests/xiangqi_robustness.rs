//! Malformed input gives errors, never panics: thousands of broken FENs and move texts.

mod common;

use proptest::prelude::*;
use xiangqi_zero::game::xiangqi::{fen, Move, Xiangqi};
use xiangqi_zero::game::{Game, GameError};

const SAMPLE_FENS: [&str; 3] = [
    fen::START,
    "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1",
    "3akRb1r/2r1a1n2/3cb4/1Rp3p2/p3C3p/2P3P1P/P3P4/6c1B/N8/2BAKA3 b - - 1 25",
];

/// A FEN with one random edit.
fn mutated_fen() -> impl Strategy<Value = String> {
    common::mutated(&SAMPLE_FENS, "0123456789/ KABNRCPHEkabnrcphewbr-xX\u{4e00}")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn mutated_fens_parse_or_fail_cleanly(text in mutated_fen()) {
        match Xiangqi::from_text(&text) {
            Ok(game) => {
                // Whatever parses must write back and be playable.
                let again = Xiangqi::from_text(&game.to_text()).unwrap();
                prop_assert_eq!(again.board(), game.board());
                let _ = game.status();
            }
            Err(error) => prop_assert!(!error.to_string().contains('\n')),
        }
    }

    #[test]
    fn arbitrary_text_is_no_fen(text in ".{0,120}") {
        if let Err(error) = Xiangqi::from_text(&text) {
            let is_position_error = matches!(error, GameError::InvalidPosition { .. });
            prop_assert!(is_position_error);
        }
    }

    #[test]
    fn arbitrary_move_text_is_rejected_or_legal(text in "[a-jA-J0-9-]{0,6}|.{0,8}") {
        let game = Xiangqi::start();
        if let Ok(mv) = game.parse_move(&text) {
            let mut legal = Vec::new();
            game.legal_moves(&mut legal);
            prop_assert!(legal.contains(&mv));
        }
        let _ = Move::parse(&text, true);
    }
}

#[test]
fn specific_bad_fens_are_rejected_with_a_reason() {
    let cases = [
        ("", "fields"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR", "fields"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9 w", "10 rows"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w", "8 files"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w", "longer"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x", "side"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w K", "`-`"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x 1", "counter"),
        ("rnbaqabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "character `q`"),
        ("rnbaaabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "cannot stand on e9"),
        ("rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "exactly one general"),
        ("4k4/9/9/9/9/9/9/9/9/4K4 w", "in check"),
        ("3k5/9/9/9/9/9/9/9/9/3K4A w", "advisor"),
        ("3k5/9/9/9/9/9/9/9/4B4/4K4 w", "elephant"),
        ("3k5/9/9/9/9/9/9/9/P8/4K4 w", "soldier"),
        ("3k5/9/9/9/9/9/9/9/9/K8 w", "general"),
        ("3k5/9/9/9/RRR6/9/9/9/9/4K4 w", "too many"),
    ];
    for (text, reason) in cases {
        let error = Xiangqi::from_text(text).expect_err(text).to_string();
        assert!(error.contains(reason), "`{text}`: {error}");
    }
}

#[test]
fn bad_moves_are_named() {
    let game = Xiangqi::start();
    assert!(matches!(game.parse_move("h2h8"), Err(GameError::IllegalMove { .. })));
    assert!(matches!(game.parse_move("z9z9"), Err(GameError::MalformedMove(_))));
    assert!(matches!(game.parse_move("h2h2"), Err(GameError::MalformedMove(_))));
    assert!(game.parse_move("h2e2").is_ok());
    assert!(game.parse_move("H2-E2").is_ok());
    assert_eq!(Move::parse("h3e3", true).unwrap().to_string(), "h2e2");
    assert_eq!(Move::parse("a10a9", true).unwrap().to_string(), "a9a8");
}

//! The built-in openings are legal Xiangqi from the start position and distinct, and so
//! is the second set shipped beside them; openings files are read as documented and a bad
//! line is named in a one-line error.

use std::collections::HashSet;

use xiangqi_zero::game::xiangqi::Xiangqi;
use xiangqi_zero::game::{Game, Status};
use xiangqi_zero::matches::openings::{builtin, parse_file, OwnedOpening};

/// Plays `moves` from `start` (`startpos` or a FEN) through the rules core; the final
/// position, or what went wrong.
fn play_through(start: &str, moves: &[impl AsRef<str>]) -> Result<Xiangqi, String> {
    let mut game = Xiangqi::from_text(start).map_err(|e| e.to_string())?;
    for mv in moves {
        if game.status().is_over() {
            return Err(format!("the game is over before `{}`", mv.as_ref()));
        }
        let parsed = game.parse_move(mv.as_ref()).map_err(|e| e.to_string())?;
        game.play(parsed);
    }
    Ok(game)
}

#[test]
fn every_builtin_opening_is_legal_and_leaves_the_game_going() {
    let openings = builtin();
    assert!(openings.len() >= 50, "only {} built-in openings", openings.len());
    for opening in openings {
        assert!((2..=8).contains(&opening.moves.len()), "{}: {} plies", opening.name, opening.moves.len());
        let game = play_through("startpos", opening.moves).unwrap_or_else(|e| panic!("{}: {e}", opening.name));
        assert_eq!(game.status(), Status::Ongoing, "{}", opening.name);
        assert_eq!(game.plies_played(), opening.moves.len());
    }
    eprintln!("{} built-in openings", openings.len());
}

/// The second set (assets/openings): each built-in opening two plies further, all legal
/// and going on, and every one of the 108 positions of both sets a different one.
#[test]
fn the_second_set_extends_each_builtin_opening_to_a_position_of_its_own() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/openings/xiangqi-second-set.txt");
    let second = parse_file(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(second.len(), builtin().len());
    let mut positions = HashSet::new();
    for (opening, extended) in builtin().iter().zip(&second) {
        assert_eq!(extended.moves.len(), opening.moves.len() + 2, "{}", extended.name);
        assert!(extended.moves.iter().zip(opening.moves).all(|(a, b)| a == b), "{}", extended.name);
        for moves in [opening.moves.iter().map(|m| m.to_string()).collect(), extended.moves.clone()] {
            let game = play_through("startpos", &moves).unwrap_or_else(|e| panic!("{}: {e}", extended.name));
            assert_eq!(game.status(), Status::Ongoing, "{}", extended.name);
            positions.insert(game.board().hash());
        }
    }
    assert_eq!(positions.len(), 2 * builtin().len());
}

#[test]
fn builtin_names_and_lines_are_unique() {
    let mut names = HashSet::new();
    let mut lines = HashSet::new();
    let mut positions = HashSet::new();
    for opening in builtin() {
        assert!(names.insert(opening.name), "name twice: {}", opening.name);
        assert!(lines.insert(opening.moves), "moves twice: {}", opening.name);
        let game = play_through("startpos", opening.moves).unwrap();
        assert!(positions.insert(game.to_text()), "{} reaches a position another opening reaches", opening.name);
        // English, then the Chinese name in brackets.
        let (english, chinese) = opening.name.split_once(" (").expect("English (Chinese)");
        assert!(english.is_ascii() && !english.is_empty(), "{}", opening.name);
        assert!(chinese.ends_with(')') && !chinese.is_ascii(), "{}", opening.name);
    }
}

#[test]
fn builtin_openings_cover_the_main_families() {
    let first_moves: HashSet<&str> = builtin().iter().map(|o| o.moves[0]).collect();
    for mv in ["h2e2", "c3c4", "g3g4", "c0e2", "b0c2", "h2f2", "e3e4"] {
        assert!(first_moves.contains(mv), "no opening starts with {mv}");
    }
    let has = |prefix: &[&str]| builtin().iter().any(|o| o.moves.starts_with(prefix));
    assert!(has(&["h2e2", "h9g7"]), "screen horses");
    assert!(has(&["h2e2", "h7e7"]), "same-direction cannons");
    assert!(has(&["h2e2", "b7e7"]), "opposite-direction cannons");
    assert!(has(&["h2e2", "b9c7"]), "reverse palcorner horse");
}

#[test]
fn builtin_openings_round_trip_through_the_file_format() {
    let owned: Vec<OwnedOpening> = builtin().iter().map(OwnedOpening::from).collect();
    let text: String = owned.iter().map(|o| format!("{o}\n")).collect();
    assert_eq!(parse_file(&text).unwrap(), owned);
}

#[test]
fn parse_file_reads_the_documented_format() {
    let text = "\
# Blank lines and lines starting with `#` are ignored.

h2e2 h9g7 h0g2 i9h9              # Central cannon vs screen horses
  h2e2   h9g7
rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1; h2e2 h9g7
startpos; C3-C4 b7c7             # Pawn opening, PGN-style move
2bak4/9/4b4/9/9/9/9/9/4A4/3AK4 w  # a FEN alone
rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR   b;   # after h2e2, no moves
\t
";
    let openings = parse_file(text).unwrap();
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    let expected = [
        ("Central cannon vs screen horses", None, vec!["h2e2", "h9g7", "h0g2", "i9h9"]),
        ("line 4", None, vec!["h2e2", "h9g7"]),
        ("line 5", Some(start), vec!["h2e2", "h9g7"]),
        ("Pawn opening, PGN-style move", None, vec!["c3c4", "b7c7"]),
        ("a FEN alone", Some("2bak4/9/4b4/9/9/9/9/9/4A4/3AK4 w"), vec![]),
        ("after h2e2, no moves", Some("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b"), vec![]),
    ];
    assert_eq!(openings.len(), expected.len());
    for (opening, (name, fen, moves)) in openings.iter().zip(expected) {
        assert_eq!(opening.name, name);
        assert_eq!(opening.fen.as_deref(), fen, "{name}");
        assert_eq!(opening.moves, moves, "{name}");
        // Each is playable by the rules core from its start text.
        let game = play_through(opening.start_text(), &opening.moves).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(game.status(), Status::Ongoing, "{name}");
    }
    assert_eq!(openings[0].start_text(), "startpos");
    assert_eq!(openings[2].start_text(), start);
}

#[test]
fn parse_file_names_the_bad_line_in_one_line() {
    for (text, needle) in [
        (
            "h2e2 h9g7\nh2e2 h9g\n",
            "line 2: `h9g` is not a move in ICCS notation",
        ),
        ("# c\n\nh2e2 j9g7\n", "line 3: `j9g7` is not a move"),
        ("h2e2 h9h9\n", "line 1: `h9h9` is not a move"),
        ("h2e2 h9g7 h0g2, i9h9\n", "line 1: `h0g2,` is not a move"),
        ("h2e2 h9g-7\n", "line 1: `h9g-7` is not a move"),
        ("h2e2\n1. h2e2 h9g7\n", "line 2: `1.` is not a move"),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w; h2e2\n",
            "line 1: `rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w` is not a FEN: expected 10 rows",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w\n",
            "line 1: `rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w` is not a FEN: row 10 has 8 squares, not 9",
        ),
        (
            "\n\nrnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x; h2e2\n",
            "line 3: `rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x` is not a FEN: the side to move must be",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNQ w; h2e2\n",
            "line 1: `rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNQ w` is not a FEN: `Q` in row 10",
        ),
        ("startpos; h2e2; h9g7\n", "line 1: more than one `;`"),
        ("", "no openings in the file"),
        ("# only a comment\n\n   \n", "no openings in the file"),
    ] {
        let error = parse_file(text).unwrap_err();
        assert!(error.starts_with(needle), "{text:?}: {error}");
        assert_eq!(error.lines().count(), 1, "{text:?}: {error}");
    }
}

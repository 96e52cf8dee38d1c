//! `xiangqi-zero play` driven through standard input as a script would (plain text:
//! stdout is not a terminal), checked against hand-worked transcripts.

mod common;

use std::process::Output;

/// Runs `play` with `args`, writing `input` to its standard input, and waits.
fn session(args: &[&str], input: &[u8]) -> Output {
    common::run_with_input(&[&["play"], args].concat(), input)
}

/// Standard output of a session that must exit 0 without a word on stderr.
fn transcript(args: &[&str], input: &str) -> String {
    let output = session(args, input.as_bytes());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{args:?}: {stderr}");
    assert!(stderr.is_empty(), "{args:?}: {stderr}");
    String::from_utf8(output.stdout).expect("UTF-8 output")
}

/// Asserts that `needles` occur in `text` in this order.
fn assert_in_order(text: &str, needles: &[&str]) {
    let mut rest = text;
    for needle in needles {
        let at = rest.find(needle).unwrap_or_else(|| panic!("`{needle}` missing (in order) from:\n{text}"));
        rest = &rest[at + needle.len()..];
    }
}

/// A mate in one for Red (tests/data/xiangqi-mates-public.jsonl): the rook to f2.
const MATE_FEN: &str = "5k3/9/9/9/9/9/7pP/B2NR4/9/1N1AKAB2 w - - 3 23";

/// MATE_FEN drawn in plain text, worked out by hand from the FEN.
const MATE_BOARD: &str = "  a b c d e f g h i
9 . . . . . k . . . 9
8 . . . . . . . . . 8
7 . . . . . . . . . 7
6 . . . . . . . . . 6
5 . . . . . . . . . 5
  ~~~~~ river ~~~~~
4 . . . . . . . . . 4
3 . . . . . . . p P 3
2 B . . N R . . . . 2
1 . . . . . . . . . 1
0 . N . A K A B . . 0
  a b c d e f g h i
";

#[test]
fn human_against_human_to_checkmate_with_mistakes_undo_hint_and_fen() {
    let input = "e2f3\nzz9\nfen\ne2e5\nf9f8\nundo\nundo\nhint\ne2f2\n";
    let text = transcript(&["--fen", MATE_FEN], input);
    let opening = format!(
        "xiangqi: Red: human, Black: human. Type `help` for commands.\n{MATE_BOARD}Red> e2f3\n\
         `e2f3`: the red chariot on e2 cannot move to f3\nRed> zz9\n\
         `zz9`: not a move in iccs or wxf or chinese notation\nRed> fen\n{MATE_FEN}\nRed> e2e5\n"
    );
    assert!(text.starts_with(&opening), "{text}");
    // The rook on e5, then the general on f8.
    assert_in_order(
        &text,
        &[
            "Red> e2e5\n",
            "5 . . . . R . . . . 5\n",
            "Black> f9f8\n",
            "9 . . . . . . . . . 9\n8 . . . . . k . . . 8\n",
            "Red> undo\ntook back 1 ply\n",
            "Black> undo\ntook back 1 ply\n",
        ],
    );
    // Both takebacks bring back the starting position exactly, Red to move.
    let after_undo = text.split("Black> undo\ntook back 1 ply\n").nth(1).unwrap();
    assert!(after_undo.starts_with(&format!("{MATE_BOARD}Red> hint\nhint: R5.4\nRed> e2f2\n")), "{after_undo}");
    // The rook on f2 mates; no alert line, the result follows the board.
    let mated = MATE_BOARD.replace("2 B . . N R . . . . 2", "2 B . . N . R . . . 2");
    assert!(text.ends_with(&format!("Red> e2f2\n{mated}result: 1-0, Red wins (checkmate)\n")), "{text}");
    assert!(!text.contains("Black> e"), "no prompt after the mate: {text}");
}

#[test]
fn check_is_announced() {
    // The rook gives check on the e-file; Black's general may step aside.
    let text = transcript(&["--fen", "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1"], "a1e1\n");
    assert_in_order(&text, &["Red> a1e1\n", "1 . . . . R . . . . 1\n", "Black is in check.\nBlack> "]);
}

#[test]
fn human_against_alphabeta_takes_back_a_pair_then_resigns() {
    let text = transcript(&["--black", "alphabeta:depth=1"], "h2e2\nundo\nh2e2\nresign\n");
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("xiangqi: Red: human, Black: alphabeta"), "{text}");
    let replies: Vec<&&str> = lines.iter().filter(|line| line.starts_with("Black (alphabeta")).collect();
    assert_eq!(replies.len(), 2, "one reply to each h2e2: {text}");
    assert!(replies.iter().all(|line| line.contains(") plays ")), "{text}");
    // `undo` takes back the engine's reply and the human's move: the start again.
    let start_board = &text[text.find('\n').unwrap() + 1..text.find("Red> ").unwrap()];
    assert!(start_board.starts_with("  a b c d e f g h i\n9 r n b a k a b n r 9\n"), "{start_board}");
    assert!(text.contains(&format!("Red> undo\ntook back 2 plies\n{start_board}Red> h2e2\n")), "{text}");
    assert_eq!(*lines.last().unwrap(), "result: 0-1, Black wins (Red resigns)");
    // The board once a turn: at the start, after each reply and after the take-back —
    // not after the human's own move as well.
    let boards = text.matches("  a b c d e f g h i\n9 ").count();
    assert_eq!(boards, 4, "{text}");
    assert!(text.contains("Red> h2e2\nBlack (alphabeta"), "no board between a move and its reply: {text}");
}

#[test]
fn engine_against_engine_finishes_without_input() {
    let text = transcript(&["--red", "random", "--black", "alphabeta:depth=1", "--max-plies", "24"], "");
    let moves = text.lines().filter(|line| line.contains(") plays ")).count();
    let last = text.lines().last().unwrap();
    assert!(last.starts_with("result: "), "{text}");
    assert!(!text.contains("> "), "no prompt when no human plays: {text}");
    if last.contains("ply limit") {
        assert_eq!(moves, 24, "{text}");
        assert_eq!(last, "result: 1/2-1/2, draw (ply limit of 24 reached)");
    } else {
        // Ended by the rules, at the 24th ply at the latest (a mate on it, say).
        assert!(moves <= 24, "{text}");
    }
    // Red and Black alternate, Red first.
    let seats: Vec<&str> =
        text.lines().filter(|line| line.contains(") plays ")).map(|line| line.split(' ').next().unwrap()).collect();
    assert!(seats.iter().enumerate().all(|(i, seat)| *seat == ["Red", "Black"][i % 2]), "{seats:?}");
}

#[test]
fn engines_play_a_mate_in_one_to_its_end() {
    let text = transcript(&["--fen", MATE_FEN, "--red", "alphabeta:depth=2", "--black", "random"], "");
    // Engines' moves are shown in WXF unless told otherwise: the chariot from file 5 to 4.
    assert_in_order(&text, &["Red (alphabeta", ") plays R5.4\n", "result: 1-0, Red wins (checkmate)\n"]);
    let args = ["--fen", MATE_FEN, "--red", "alphabeta:depth=2", "--black", "random", "--notation", "chinese"];
    assert_in_order(&transcript(&args, ""), &[") plays 车五平四\n", "result: 1-0"]);
    let args = ["--fen", MATE_FEN, "--red", "alphabeta:depth=2", "--black", "random", "--notation", "iccs"];
    assert_in_order(&transcript(&args, ""), &[") plays e2f2\n", "result: 1-0"]);
}

#[test]
fn end_of_input_mid_game_exits_cleanly() {
    let text = transcript(&[], "h2e2\n\u{fffd}\n");
    assert!(text.contains("Black> \u{fffd}\n`\u{fffd}`: not a move in iccs or wxf or chinese notation"), "{text}");
    assert!(text.ends_with("Black> \nend of input: game left unfinished after 1 ply\n"), "{text}");
    let output = session(&[], b"h2e2\n\xff\xfe\n");
    assert_eq!(output.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&output.stdout).contains("not a move in iccs or wxf or chinese notation"));
}

#[test]
fn bad_arguments_fail_in_one_line() {
    for (args, needle) in [
        (&["--black", "alphabeta:depth=x"][..], "needs a number"),
        (&["--fen", "not a fen"][..], "invalid position"),
        (&["--game", "banqi", "--red", "uci:/bin/true"][..], "Xiangqi only"),
    ] {
        let output = session(args, b"");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
    }
}

/// A Banqi state: one face-down piece (the pool holds a single red soldier) at a8, the
/// red general at a1, a black soldier at d1; Red (the first seat) to move.
const BANQI_STATE: &str = "X3/4/4/4/4/4/4/K2p r P 0 2";

#[test]
fn banqi_flip_then_a_move() {
    let text = transcript(&["--game", "banqi", "--fen", BANQI_STATE], "a8a8\nfen\nd1d3\nd1c1\n");
    let board = |top: &str, bottom: &str| {
        let middle: String = (2..=7).rev().map(|rank| format!("{rank} . . . . {rank}\n")).collect();
        format!("  a b c d\n8 {top} 8\n{middle}1 {bottom} 1\n  a b c d\n")
    };
    let expected = format!(
        "banqi: First (red): human, Second (black): human. Type `help` for commands.\n{}\
         First (red)> a8a8\na8 flips: P (red)\n{}\
         Second (black)> fen\nP3/4/4/4/4/4/4/K2p b - 0 3\n\
         Second (black)> d1d3\n`d1d3` is not a legal move for Second (black) in this position\n\
         Second (black)> d1c1\n{}First (red)> \nend of input: game left unfinished after 2 plies\n",
        board("X . . .", "K . . p"),
        board("P . . .", "K . . p"),
        board("P . . .", "K . p ."),
    );
    assert_eq!(text, expected);
}

#[test]
fn banqi_undo_takes_back_no_flip() {
    // Second's `undo` would take back First's flip: refused. First's `undo` takes back
    // Second's step d1c1, which revealed nothing; the flip then still stands.
    let text = transcript(&["--game", "banqi", "--fen", BANQI_STATE], "a8a8\nundo\nd1c1\nundo\nfen\n");
    let refused = "cannot take back a flip: a flipped piece cannot be hidden again\n";
    assert_in_order(
        &text,
        &[
            "a8 flips: P (red)\n",
            &format!("Second (black)> undo\n{refused}"),
            "Second (black)> d1c1\n",
            "First (red)> undo\ntook back 1 ply\n",
            "Second (black)> fen\nP3/4/4/4/4/4/4/K2p b - 0 3\n",
        ],
    );
}

/// The pieces three flips of a new Banqi game reveal, with `args` added.
fn three_flips(args: &[&str]) -> Vec<String> {
    let text = transcript(&[&["--game", "banqi"], args].concat(), "b3b3\na1a1\nd8d8\n");
    text.lines().filter(|line| line.contains(" flips: ")).map(str::to_string).collect()
}

#[test]
fn banqi_deals_anew_each_game_unless_a_seed_is_given() {
    let deals: Vec<Vec<String>> = (0..6).map(|_| three_flips(&[])).collect();
    assert!(deals.iter().all(|flips| flips.len() == 3), "{deals:?}");
    // Two deals show the same three pieces about once in 1 400; six alike, once in 10^15.
    assert!(deals.iter().any(|flips| *flips != deals[0]), "the same deal every game: {deals:?}");
    assert_eq!(three_flips(&["--seed", "7"]), three_flips(&["--seed", "7"]));
}

#[test]
fn banqi_first_flip_decides_the_colours() {
    let text = transcript(&["--game", "banqi", "--seed", "7"], "b3b3\nfen\n");
    let flip = text.lines().find(|line| line.starts_with("b3 flips: ")).expect("a reveal line");
    // `b3 flips: n (black)`: a piece letter, and the colour its case says.
    let (letter, colour) = (flip.chars().nth(10).unwrap(), &flip[12..]);
    assert_eq!(colour, if letter.is_ascii_uppercase() { "(red)" } else { "(black)" }, "{flip}");
    let first = &colour[1..colour.len() - 1];
    let second = if first == "red" { "black" } else { "red" };
    let decided = text.lines().find(|line| line.starts_with("colours decided")).expect("colours decided");
    let (red_seat, black_seat) = if first == "red" { ("First", "Second") } else { ("Second", "First") };
    assert_eq!(
        decided,
        format!("colours decided: {red_seat} ({}) plays Red, {black_seat} ({}) plays Black", "red", "black")
    );
    // The flipped piece stands on b3 in the state text (rank 3 is the sixth row).
    let fen = text.lines().skip_while(|line| !line.ends_with("> fen")).nth(1).unwrap();
    assert_eq!(fen.split('/').nth(5).unwrap(), format!("X{letter}XX"), "{fen}");
    assert!(text.contains(&format!("Second ({second})> fen")), "{text}");
}

#[test]
fn moves_are_typed_in_any_notation() {
    // The chariot to e5 in WXF, the general down in Chinese, then the mate in ICCS.
    let text = transcript(&["--fen", MATE_FEN], "R5+3\n将6进1\nundo\nundo\n車五平四\n");
    assert_in_order(&text, &["Red> R5+3\n", "5 . . . . R . . . . 5\n", "Black> 将6进1\n", "8 . . . . . k . . . 8\n"]);
    assert!(text.ends_with("result: 1-0, Red wins (checkmate)\n"), "{text}");
}

#[test]
fn a_game_goes_on_from_a_record() {
    let dir = std::env::temp_dir().join(format!("xz-play-record-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("opening.pgn");
    // Red's cannon to the middle, Black's horse out, Red's horse out (WXF, PlayOK's case).
    std::fs::write(&path, "[Site \"PlayOK\"]\n\n1. C2.5 h8+7 2. H2+3 *\n").unwrap();
    let text = transcript(&["--from-record", path.to_str().unwrap()], "fen\n");
    let after = "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 3 2";
    assert!(text.contains(&format!("Black> fen\n{after}\n")), "{text}");
    // The cannon cannot go forward three: its own soldier on e3 is in the way.
    std::fs::write(&path, "1. C2.5 h8+7 2. C5+3").unwrap();
    let output = session(&["--from-record", path.to_str().unwrap()], b"");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.trim().ends_with("move 3 `C5+3`: the red cannon has no such legal move"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A perpetual check of tests/data/xiangqi-repetition-public.jsonl: Red's horse checks from
/// d8 and e6 in turn while Black's general steps f9-f8-f9. Before Red's third d8e6 the
/// terminal says that Black's reply can repeat the position a third time and asks; `n`
/// leaves the move unplayed, `y` plays it, and Black's reply wins by the perpetual check.
#[test]
fn a_perpetual_check_is_warned_before_it_loses() {
    let fen = "5kb2/9/5a3/4N4/9/9/4P4/9/9/2BA1K1R1 w - - 7 37";
    let text = transcript(&["--fen", fen], "e6d8\nf9f8\nd8e6\nf8f9\ne6d8\nf9f8\nd8e6\nn\nd8e6\ny\nf8f9\n");
    let warning = "after this move your opponent can repeat the position for the third time: \
                   a perpetual check by you, which loses. Play it? (y/n) ";
    assert_in_order(&text, &[warning, "n\nnot played\n", "Red> d8e6\n", warning, "y\n", "Black> f8f9\n"]);
    assert!(text.ends_with("result: 0-1, Black wins (perpetual check)\n"), "{text}");
}

#[test]
fn ctrl_c_saves_the_game_so_far() {
    use std::io::{Read, Write};
    use std::process::Stdio;

    let dir = common::TempDir::new("play-interrupted");
    let path = dir.join("game.pgn");
    let mut child = common::binary()
        .args(["play", "--notation", "iccs", "--save", path.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"h2e2\nh9g7\n").unwrap();
    // Wait for Red's prompt after the two moves: the game so far is two plies, and the
    // input stays open (no end of input saves it).
    let mut stdout = child.stdout.take().unwrap();
    let mut seen = Vec::new();
    let mut chunk = [0u8; 4096];
    while !String::from_utf8_lossy(&seen).contains("Black> h9g7\n") || !seen.ends_with(b"Red> ") {
        let n = stdout.read(&mut chunk).unwrap();
        assert!(n > 0, "the session ended early: {}", String::from_utf8_lossy(&seen));
        seen.extend_from_slice(&chunk[..n]);
    }
    assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) }, 0);
    let status = child.wait().unwrap();
    drop(stdin);
    assert_eq!(status.code(), Some(130));
    let pgn = std::fs::read_to_string(&path).expect("the game was saved");
    assert!(pgn.contains("1. H2-E2 H9-G7"), "{pgn}");
    assert!(pgn.contains("[Result \"*\"]"), "{pgn}");
}

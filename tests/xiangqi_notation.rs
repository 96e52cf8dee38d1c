//! Move notation: ICCS, WXF and Chinese text against the public reference data (written
//! by Fairy-Stockfish, see tests/data/README.md), against soldier positions worked out by
//! hand from the WXF rules, and back and forth over random games.

mod common;

use std::process::{Command, Output};

use serde::Deserialize;
use xiangqi_zero::game::xiangqi::{Board, Move, MoveList, Notation, Xiangqi};
use xiangqi_zero::game::Game;

#[derive(Deserialize)]
struct Case {
    fen: String,
    #[serde(rename = "move")]
    iccs: String,
    wxf: String,
    chinese: String,
}

fn board(fen: &str) -> Board {
    *Xiangqi::from_text(fen).unwrap_or_else(|e| panic!("{fen}: {e}")).board()
}

fn iccs(text: &str) -> Move {
    Move::parse(text, false).unwrap_or_else(|| panic!("{text} is ICCS"))
}

#[test]
fn public_moves_are_written_as_the_reference_writes_them() {
    let cases: Vec<Case> = common::read_jsonl("xiangqi-notation-public.jsonl");
    assert_eq!(cases.len(), 200);
    for case in &cases {
        let (board, mv) = (board(&case.fen), iccs(&case.iccs));
        assert_eq!(board.move_text(mv, Notation::Wxf), case.wxf, "{} {}", case.fen, case.iccs);
        assert_eq!(board.move_text(mv, Notation::Chinese), case.chinese, "{} {}", case.fen, case.iccs);
        assert_eq!(board.move_text(mv, Notation::Iccs), case.iccs);
    }
}

#[test]
fn public_texts_read_back_to_their_move() {
    let cases: Vec<Case> = common::read_jsonl("xiangqi-notation-public.jsonl");
    for case in &cases {
        let (board, mv) = (board(&case.fen), iccs(&case.iccs));
        let texts = [
            (case.wxf.clone(), Some(Notation::Wxf)),
            (case.wxf.replace('.', "="), Some(Notation::Wxf)),
            (case.wxf.to_lowercase(), None),
            (case.chinese.clone(), Some(Notation::Chinese)),
            (case.chinese.clone(), None),
            (case.iccs.clone(), None),
        ];
        for (text, notation) in texts {
            assert_eq!(board.read_move(&text, notation), Ok(mv), "{} `{text}`", case.fen);
        }
    }
}

/// Every legal move of `board`, with its texts in the three notations.
fn every_move_in_every_notation(board: &Board) -> Vec<(Move, [String; 3])> {
    let mut list = MoveList::new();
    board.legal_moves(&mut list);
    list.iter().map(|&mv| (mv, Notation::ALL.map(|notation| board.move_text(mv, notation)))).collect()
}

#[test]
fn every_move_of_random_games_reads_back_from_each_notation() {
    // A fixed-seed generator, so that the games are the same on every run.
    let mut state: u64 = 0x5eed;
    let mut next = move || {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (state >> 33) as usize
    };
    let (mut plies, mut texts) = (0, 0);
    for _game in 0..200 {
        let mut game = Xiangqi::start();
        let mut moves = Vec::new();
        for _ply in 0..150 {
            game.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let board = *game.board();
            let written = every_move_in_every_notation(&board);
            for (mv, texts_of_mv) in &written {
                for (notation, text) in Notation::ALL.iter().zip(texts_of_mv) {
                    assert_eq!(board.read_move(text, Some(*notation)), Ok(*mv), "{} `{text}`", game.to_text());
                    assert_eq!(board.read_move(text, None), Ok(*mv), "{} `{text}`", game.to_text());
                    texts += 1;
                }
            }
            game.play(moves[next() % moves.len()]);
            plies += 1;
        }
    }
    assert!(plies > 20_000 && texts > 500_000, "{plies} plies, {texts} texts");
}

/// Asserts the WXF and Chinese text of `mv` in `fen`, and that both read back.
fn assert_texts(fen: &str, mv: &str, wxf: &str, chinese: &str) {
    let (board, mv) = (board(fen), iccs(mv));
    assert_eq!(board.move_text(mv, Notation::Wxf), wxf, "{fen} {mv}");
    assert_eq!(board.move_text(mv, Notation::Chinese), chinese, "{fen} {mv}");
    assert_eq!(board.read_move(wxf, None), Ok(mv), "{fen} {wxf}");
    assert_eq!(board.read_move(chinese, None), Ok(mv), "{fen} {chinese}");
}

#[test]
fn the_start_position_opening_moves() {
    let start = "startpos";
    assert_texts(start, "h2e2", "C2.5", "炮二平五");
    assert_texts(start, "b0c2", "H8+7", "马八进七");
    assert_texts(start, "i0i1", "R1+1", "车一进一");
    assert_texts(start, "g0e2", "E3+5", "相三进五");
    assert_texts(start, "f0e1", "A4+5", "仕四进五");
    assert_texts(start, "e0e1", "K5+1", "帅五进一");
    assert_texts(start, "g3g4", "P3+1", "兵三进一");
    let black = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1";
    assert_texts(black, "h7e7", "C8.5", "炮8平5");
    assert_texts(black, "h9g7", "H8+7", "马8进7");
    assert_texts(black, "c9e7", "E3+5", "象3进5");
    assert_texts(black, "a9a8", "R1+1", "车1进1");
}

#[test]
fn three_soldiers_on_a_file_are_front_middle_and_rear() {
    // Red soldiers on e5, e6, e7 (file 5); the generals on d0 and f9.
    let fen = "5k3/9/4P4/4P4/4P4/9/9/9/9/3K5 w - - 0 1";
    assert_texts(fen, "e7e8", "P++1", "前兵进一");
    assert_texts(fen, "e6d6", "P5.6", "中兵平六");
    assert_texts(fen, "e5f5", "P-.4", "后兵平四");
}

#[test]
fn four_and_five_soldiers_on_a_file_count_from_the_front() {
    // Five red soldiers on e3..e7: the two at the back have not crossed the river and
    // are blocked, so only the front three can move.
    let five = "5k3/9/4P4/4P4/4P4/4P4/4P4/9/9/3K5 w - - 0 1";
    assert_texts(five, "e7e8", "+++1", "一兵进一");
    assert_texts(five, "e6d6", "P+.6", "二兵平六");
    assert_texts(five, "e5f5", "P5.4", "三兵平四");
    let four = "5k3/9/4P4/4P4/4P4/4P4/9/9/9/3K5 w - - 0 1";
    assert_texts(four, "e7d7", "++.6", "一兵平六");
    assert_texts(four, "e6f6", "P+.4", "二兵平四");
    assert_texts(four, "e5d5", "P-.6", "三兵平六");
    assert_eq!(board(four).read_move("--+1", None), Err("the red soldier has no such legal move".into()));
    // Chinese 前 and 后 name the foremost and the rearmost as well.
    assert_eq!(board(four).read_move("前兵平六", None), Ok(iccs("e7d7")));
}

#[test]
fn two_files_of_paired_soldiers_put_the_file_first() {
    // Red soldiers c5, c6 (file 7) and g5, g6, g7 (file 3).
    let red = "5k3/9/6P2/2P3P2/2P3P2/9/9/9/9/3K5 w - - 0 1";
    assert_texts(red, "g7g8", "3++1", "前三进一");
    assert_texts(red, "g6f6", "33.4", "中三平四");
    assert_texts(red, "g5h5", "3-.2", "后三平二");
    assert_texts(red, "c6c7", "7++1", "前七进一");
    assert_texts(red, "c5b5", "7-.8", "后七平八");
    // Black soldiers c3, c4 (file 3) and g3, g4 (file 7): Black's front is further down.
    let black = "5k3/9/9/9/9/2p3p2/2p3p2/9/9/3K5 b - - 0 1";
    assert_texts(black, "c3c2", "3++1", "前3进1");
    assert_texts(black, "c4b4", "3-.2", "后3平2");
    assert_texts(black, "g4h4", "7-.8", "后7平8");
    assert_texts(black, "g3g2", "7++1", "前7进1");
}

#[test]
fn two_identical_pieces_on_a_file_are_front_and_rear() {
    // Red chariots h3 and h5 (file 2).
    let fen = "5k3/9/9/9/7R1/9/7R1/9/9/3K5 w - - 0 1";
    assert_texts(fen, "h5e5", "R+.5", "前车平五");
    assert_texts(fen, "h3h4", "R-+1", "后车进一");
    assert_texts(fen, "h5h8", "R++3", "前车进三");
    assert_texts(fen, "h3h1", "R--2", "后车退二");
    // A file alone does not say which: both can move sideways to file 5.
    let both = board(fen).read_move("R2.5", None);
    assert_eq!(both, Err("ambiguous: it names both h3e3 and h5e5".into()));
    // Only the front chariot can go forward two: the rear one is blocked.
    assert_eq!(board(fen).read_move("R2+2", None), Ok(iccs("h5h7")));
}

#[test]
fn chinese_reads_traditional_characters_and_any_digits() {
    let start = board("startpos");
    let black = board("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1");
    assert_eq!(start.read_move("砲二平五", None), Ok(iccs("h2e2")));
    assert_eq!(start.read_move("傌八進七", None), Ok(iccs("b0c2")));
    assert_eq!(start.read_move("俥一進一", None), Ok(iccs("i0i1")));
    assert_eq!(start.read_move("炮2平5", None), Ok(iccs("h2e2")));
    assert_eq!(start.read_move("帥五進一", None), Ok(iccs("e0e1")));
    assert_eq!(black.read_move("馬８進７", None), Ok(iccs("h9g7")));
    assert_eq!(black.read_move("車1進1", None), Ok(iccs("a9a8")));
    assert_eq!(black.read_move("將5進1", None), Ok(iccs("e9e8")));
    let rear = board("5k3/9/9/9/7R1/9/7R1/9/9/3K5 w - - 0 1");
    assert_eq!(rear.read_move("後俥進一", None), Ok(iccs("h3h4")));
}

#[test]
fn a_text_that_names_no_legal_move_says_why() {
    let start = board("startpos");
    let error = |text: &str, notation: Option<Notation>| start.read_move(text, notation).unwrap_err();
    assert_eq!(error("C3.5", None), "no red cannon on file 3");
    assert_eq!(error("R+.5", None), "no red chariot stands in that place");
    assert_eq!(error("R1+3", None), "the red chariot has no such legal move");
    assert_eq!(error("马八进六", None), "the red horse has no such legal move");
    assert_eq!(error("h2h8", None), "the red cannon on h2 cannot move to h8");
    assert_eq!(error("h7h6", None), "no red piece on h7");
    assert_eq!(error("hello", None), "not a move in iccs or wxf or chinese notation");
    assert_eq!(error("C2.5", Some(Notation::Iccs)), "not a move in iccs notation");
    assert_eq!(error("h2e2", Some(Notation::Wxf)), "not a move in wxf notation");
}

#[test]
fn notation_names_parse_in_any_case() {
    assert_eq!("WXF".parse(), Ok(Notation::Wxf));
    assert_eq!(" chinese".parse(), Ok(Notation::Chinese));
    assert_eq!("iccs".parse(), Ok(Notation::Iccs));
    assert_eq!("san".parse::<Notation>(), Err("unknown notation `san`: expected iccs, wxf or chinese".into()));
}

fn notation_command(args: &[&str]) -> Output {
    let output = Command::new(env!("CARGO_BIN_EXE_xiangqi-zero")).arg("notation").args(args).output();
    output.expect("the binary runs")
}

#[test]
fn notation_command_prints_each_move_in_the_target_notation() {
    let output = notation_command(&["--to", "wxf", "h2e2", "马8进7", "h0g2", "r1+1"]);
    assert!(output.status.success(), "{output:?}");
    assert_eq!(String::from_utf8_lossy(&output.stdout), "C2.5\nH8+7\nH2+3\nR1+1\n");
    let output = notation_command(&["--from", "wxf", "--to", "chinese", "C2.5", "h8+7", "H2+3", "R1+1"]);
    assert_eq!(String::from_utf8_lossy(&output.stdout), "炮二平五\n马8进7\n马二进三\n车1进1\n");
    let fen = "5k3/9/4P4/4P4/4P4/4P4/9/9/9/3K5 w - - 0 1";
    let output = notation_command(&["--fen", fen, "--to", "iccs", "--", "++.6"]);
    assert_eq!(String::from_utf8_lossy(&output.stdout), "e7d7\n");
}

/// Asserts that `notation` stops with exit code 1 and one line naming `needle`, after
/// printing `printed`.
fn assert_stops(args: &[&str], printed: &str, needle: &str) {
    let output = notation_command(args);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
    assert_eq!(String::from_utf8_lossy(&output.stdout), printed, "{args:?}");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    assert!(stderr.contains(needle), "{args:?}: {stderr}");
}

#[test]
fn notation_command_stops_at_the_first_move_that_is_not_legal() {
    assert_stops(&["--to", "wxf", "h2e2", "h9g7", "C2.5"], "C2.5\nH8+7\n", "move 3 `C2.5`: no red cannon on file 2");
    assert_stops(&["--to", "iccs", "C2.5", "hello"], "h2e2\n", "move 2 `hello`: not a move in");
    assert_stops(&["--from", "iccs", "--to", "wxf", "C2.5"], "", "move 1 `C2.5`: not a move in iccs notation");
}

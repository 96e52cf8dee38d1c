//! Records read back: PGN and plain move lists in WXF (PlayOK's style), ICCS and Chinese,
//! replayed to a final position worked out by hand, and refused at their first bad move.

use std::process::Command;

use xiangqi_zero::game::xiangqi::ImportedRecord;
use xiangqi_zero::game::Game;

/// One short game (14 plies, a capture on the 11th), in PlayOK's WXF: Black's letters in
/// lower case, `.` for sideways.
const PLAYOK_WXF: &str = r#"[Event "Xiangqi"]
[Site "PlayOK"]
[Date "2024.05.01"]
[Round "-"]
[Red "alice"]
[Black "bob"]
[Result "*"]
[RedElo "1650"]
[BlackElo "1702"]
[Format "WXF"]

1. C2.5 h8+7 2. H2+3 r9.8 3. R1.2 c8+4 4. P7+1 c2.3 5. H8+7 p3+1
6. P7+1 {takes the soldier} h2+1 7. R9+1 r1+1 *
"#;

/// The same game in ICCS, as PGN writes it.
const PGN_ICCS: &str = r#"[Game "Chinese Chess"]
[Format "ICCS"]

1. H2-E2 H9-G7 2. H0-G2 I9-H9 3. I0-H0 H7-H3 4. C3-C4 B7-C7 5. B0-C2 C6-C5
6. C4-C5 B9-A7 7. A0-A1 A9-A8
"#;

/// The same game in Chinese, a plain list with full-width numbers and some traditional
/// characters.
const CHINESE_LIST: &str = "１．炮二平五　马８进７
２．傌二進三　車9平8
3. 俥一平二 砲8进4
4. 兵七进一 炮2平3
5. 马八进七 卒3進1
6. 兵七进一 马2进1
7. 车九进一 车1进1
";

/// Worked out by hand: the chariots on h9, a8, h0 and a1, the horses on a7, g7, c2 and
/// g2, the black cannons on c7 and h3, the red ones on b2 and e2, a red soldier on c5
/// where the black one was taken; 3 plies since that capture, Red's 8th move next.
const FINAL: &str = "2bakabr1/r8/n1c3n2/p3p1p1p/2P6/9/P3P1PcP/1CN1C1N2/R8/2BAKABR1 w - - 3 8";

#[test]
fn records_in_each_notation_replay_to_the_same_final_position() {
    for text in [PLAYOK_WXF, PGN_ICCS, CHINESE_LIST] {
        let record = ImportedRecord::read(text).unwrap();
        assert_eq!(record.moves.len(), 14, "{:?}", record.moves);
        let game = record.replay().unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(game.to_text(), FINAL, "{text}");
    }
}

#[test]
fn tags_are_read_and_the_fen_tag_is_the_start() {
    let record = ImportedRecord::read(PLAYOK_WXF).unwrap();
    assert_eq!(record.tag("site"), Some("PlayOK"));
    assert_eq!(record.tag("BlackElo"), Some("1702"));
    assert_eq!(record.tag("FEN"), None);
    let from_fen = "[FEN \"5k3/9/4P4/4P4/4P4/9/9/9/9/3K5 w - - 0 1\"]\n\n1. P5.6 k6+1 2. P+.4\n";
    let game = ImportedRecord::read(from_fen).unwrap().replay().unwrap();
    // The middle soldier went to d6, the general down to f8, the front soldier to f7.
    assert_eq!(game.to_text(), "9/5k3/5P3/3P5/4P4/9/9/9/9/3K5 b - - 3 2");
}

#[test]
fn a_record_is_refused_at_its_first_illegal_move() {
    // Red's 4th move, the 7th of the game: the horse on g2 is hobbled by the soldier on g3.
    let text = "1. C2.5 h8+7 2. H2+3 r9.8 3. R1.2 c8+4 4. H3+4 c2.3";
    let error = ImportedRecord::read(text).unwrap().replay().unwrap_err();
    assert_eq!(error, "move 7 `H3+4`: the red horse has no such legal move");
    let error = ImportedRecord::read("1. h2e2 h9g7 2. h0g2 x").unwrap().replay().unwrap_err();
    assert_eq!(error, "move 4 `x`: not a move in iccs or wxf or chinese notation");
}

#[test]
fn malformed_records_say_what_is_wrong() {
    assert!(ImportedRecord::read("[Event PlayOK]\n1. C2.5").unwrap_err().contains("malformed tag line"));
    assert_eq!(ImportedRecord::read("1. C2.5 {never closed").unwrap_err(), "a comment `{` is never closed");
    let bad_fen = ImportedRecord::read("[FEN \"9/9 w\"]\n1. C2.5").unwrap().replay().unwrap_err();
    assert!(bad_fen.starts_with("invalid position `9/9 w`"), "{bad_fen}");
}

#[test]
fn move_numbers_comments_and_variations_are_passed_over() {
    let text = "1.C2.5 (1. P3+1 p3+1) h8+7 ; a comment\n2...H2+3 $1 1-0";
    assert_eq!(ImportedRecord::read(text).unwrap().moves, ["C2.5", "h8+7", "H2+3"]);
    // A WXF move of two files of paired soldiers is no move number.
    assert_eq!(ImportedRecord::read("12. 33.4 3-.2").unwrap().moves, ["33.4", "3-.2"]);
}

#[test]
fn notation_command_converts_a_record() {
    let dir = std::env::temp_dir().join(format!("xz-record-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.pgn");
    std::fs::write(&path, PLAYOK_WXF).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_xiangqi-zero"))
        .args(["notation", "--to", "chinese", "--record"])
        .arg(&path)
        .output()
        .unwrap();
    let expected = "炮二平五\n马8进7\n马二进三\n车9平8\n车一平二\n炮8进4\n兵七进一\n炮2平3\n马八进七\n卒3进1\n兵七进一\n马2进1\n车九进一\n车1进1\n";
    assert_eq!(String::from_utf8_lossy(&output.stdout), expected, "{output:?}");
    std::fs::write(&path, "1. C2.5 h8+7 2. H2+3 r9.8 3. R1.2 c8+4 4. H3+4").unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_xiangqi-zero"))
        .args(["notation", "--to", "iccs", "--record"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&output.stdout).lines().count(), 6);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.trim(), "error: move 7 `H3+4`: the red horse has no such legal move");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A `[Format]` tag names the notation its moves are read in: an ICCS move in a record
/// that says WXF is refused, though the same move reads in a record without the tag.
#[test]
fn the_format_tag_names_the_notation() {
    let wxf = ImportedRecord::read("[Format \"WXF\"]\n\n1. C2.5 h2e2").unwrap();
    assert_eq!(wxf.notation(), Some(xiangqi_zero::game::xiangqi::Notation::Wxf));
    let error = wxf.replay().unwrap_err();
    assert!(error.starts_with("move 2 `h2e2`"), "{error}");
    let untagged = ImportedRecord::read("1. C2.5 h9g7").unwrap();
    assert_eq!(untagged.notation(), None);
    assert!(untagged.replay().is_ok());
    assert!(ImportedRecord::read(PGN_ICCS).unwrap().replay().is_ok());
}

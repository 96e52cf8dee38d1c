//! Game records: JSON lines round-trip, the PGN matches hand-written text line by line,
//! and files are replaced atomically.

use std::path::PathBuf;

use xiangqi_zero::atomic_write::write_atomically;
use xiangqi_zero::date::pgn_date;
use xiangqi_zero::game::xiangqi::Notation;
use xiangqi_zero::records::GameRecord;

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

fn record() -> GameRecord {
    GameRecord {
        game: "xiangqi".to_string(),
        red: "alphabeta:depth=4".to_string(),
        black: "uci:/opt/engine --threads 1".to_string(),
        start: START.to_string(),
        moves: ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"].map(String::from).to_vec(),
        result: "1-0".to_string(),
        reason: "checkmate".to_string(),
        round: 7,
        opening: Some("Central Cannon vs Screen Horses (中炮对屏风马)".to_string()),
    }
}

/// Compares line by line, so a failure names the first line that differs.
fn assert_lines(actual: &str, expected: &str) {
    let (a, e): (Vec<&str>, Vec<&str>) = (actual.split('\n').collect(), expected.split('\n').collect());
    for (i, (a, e)) in a.iter().zip(&e).enumerate() {
        assert_eq!(a, e, "line {} differs\n--- actual:\n{actual}", i + 1);
    }
    assert_eq!(a.len(), e.len(), "line count differs\n--- actual:\n{actual}");
}

#[test]
fn json_line_round_trips() {
    let mut game = record();
    let line = game.to_json_line();
    assert!(!line.contains('\n'));
    assert_eq!(GameRecord::from_json_line(&line).unwrap(), game);
    // Field names as documented for games.jsonl.
    let value: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(value["start"], START);
    assert_eq!(value["moves"][0], "h2e2");
    assert_eq!(value["result"], "1-0");
    assert_eq!(value["reason"], "checkmate");
    assert_eq!(value["round"], 7);

    // Quotes, backslashes, line breaks and no opening survive too.
    game.red = "uci:\"C:\\engines\\pika.exe\"\nsecond line".to_string();
    game.opening = None;
    game.moves.clear();
    let line = game.to_json_line();
    assert!(!line.contains('\n'));
    assert_eq!(GameRecord::from_json_line(&line).unwrap(), game);
    assert!(line.contains("\"opening\":null"), "{line}");

    // A line written without the optional opening reads as None.
    let without = r#"{"game":"banqi","red":"random","black":"random","start":"startpos","moves":["a1a1"],"result":"0-1","reason":"no-pieces","round":1}"#;
    assert_eq!(GameRecord::from_json_line(without).unwrap().opening, None);
    let error = GameRecord::from_json_line("{\"game\":\"xiangqi\"}").unwrap_err();
    assert!(error.starts_with("invalid game record: missing field"), "{error}");
    assert_eq!(error.lines().count(), 1);
}

#[test]
fn pgn_from_the_start_position() {
    let expected = r#"[Game "Chinese Chess"]
[Event "depth 4 vs engine"]
[Site "xiangqi-zero"]
[Date "2025.03.14"]
[Round "7"]
[Red "alphabeta:depth=4"]
[Black "uci:/opt/engine --threads 1"]
[Result "1-0"]
[Opening "Central Cannon vs Screen Horses (中炮对屏风马)"]
[Format "ICCS"]

1. H2-E2 H9-G7 2. H0-G2 I9-H9 3. I0-H0 B9-C7 {checkmate} 1-0

"#;
    assert_lines(&record().to_pgn_dated("depth 4 vs engine", "2025.03.14", Notation::Iccs), expected);
    // `startpos` and the start FEN with other counters are the start position too.
    for start in ["startpos", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r"] {
        let game = GameRecord { start: start.to_string(), ..record() };
        assert_lines(&game.to_pgn_dated("depth 4 vs engine", "2025.03.14", Notation::Iccs), expected);
    }
}

#[test]
fn pgn_from_a_fen_with_black_to_move_and_a_long_game() {
    // Black to move at move 12: the movetext starts `12... `; long games wrap before
    // column 80; an unknown result is `*`; quotes in tags are escaped; no opening tag.
    let fen = "rnbakabnr/9/1c2c4/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 3 12";
    let cycle = ["h9g7", "h0g2", "g7h9", "g2h0"];
    let game = GameRecord {
        start: fen.to_string(),
        moves: cycle.iter().cycle().take(22).map(|m| m.to_string()).collect(),
        result: "unfinished".to_string(),
        reason: "stopped {by user}".to_string(),
        red: "net:\"a b\".bin".to_string(),
        opening: None,
        ..record()
    };
    let expected = r#"[Game "Chinese Chess"]
[Event "e"]
[Site "xiangqi-zero"]
[Date "2025.03.14"]
[Round "7"]
[Red "net:\"a b\".bin"]
[Black "uci:/opt/engine --threads 1"]
[Result "*"]
[FEN "rnbakabnr/9/1c2c4/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 3 12"]
[Format "ICCS"]

12... H9-G7 13. H0-G2 G7-H9 14. G2-H0 H9-G7 15. H0-G2 G7-H9 16. G2-H0 H9-G7
17. H0-G2 G7-H9 18. G2-H0 H9-G7 19. H0-G2 G7-H9 20. G2-H0 H9-G7 21. H0-G2 G7-H9
22. G2-H0 H9-G7 23. H0-G2 {stopped by user} *

"#;
    let pgn = game.to_pgn_dated("e", "2025.03.14", Notation::Iccs);
    assert_lines(&pgn, expected);
    assert!(pgn.lines().all(|line| line.chars().count() < 80));
}

#[test]
fn pgn_of_a_game_without_moves_and_of_a_draw() {
    let game = GameRecord {
        moves: Vec::new(),
        result: "1/2-1/2".to_string(),
        reason: String::new(),
        opening: None,
        ..record()
    };
    let pgn = game.to_pgn_dated("e", "2025.03.14", Notation::Iccs);
    assert!(pgn.contains("[Result \"1/2-1/2\"]\n[Format \"ICCS\"]\n\n1/2-1/2\n\n"), "{pgn}");
    assert!(pgn.ends_with("\n\n1/2-1/2\n\n"), "{pgn}");
}

#[test]
fn pgn_of_a_banqi_game() {
    let state = "XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX - KGGMMRRNNCCPPPPPkggmmrrnnccppppp 0 0";
    let game = GameRecord {
        game: "banqi".to_string(),
        start: state.to_string(),
        moves: ["a1a1", "b2b2", "a1a2"].map(String::from).to_vec(),
        result: "0-1".to_string(),
        reason: "no-pieces".to_string(),
        round: 2,
        opening: None,
        ..record()
    };
    let expected = format!(
        r#"[Game "Banqi"]
[Event "e"]
[Site "xiangqi-zero"]
[Date "2025.03.14"]
[Round "2"]
[Red "alphabeta:depth=4"]
[Black "uci:/opt/engine --threads 1"]
[Result "0-1"]
[FEN "{state}"]

1. a1a1 b2b2 2. a1a2 {{no-pieces}} 0-1

"#
    );
    assert_lines(&game.to_pgn_dated("e", "2025.03.14", Notation::Iccs), &expected);
}

#[test]
fn pgn_dates_are_utc_calendar_dates() {
    assert_eq!(pgn_date(0), "1970.01.01");
    assert_eq!(pgn_date(86_399), "1970.01.01");
    assert_eq!(pgn_date(951_782_400), "2000.02.29");
    assert_eq!(pgn_date(1_735_689_599), "2024.12.31");
    assert_eq!(pgn_date(1_735_689_600), "2025.01.01");
    assert_eq!(pgn_date(4_107_542_400), "2100.03.01");
    // Today's date has the shape YYYY.MM.DD.
    let pgn = record().to_pgn("e", Notation::Iccs);
    let date = pgn.lines().find_map(|l| l.strip_prefix("[Date \"")).unwrap();
    let date = date.strip_suffix("\"]").unwrap();
    assert_eq!(date.len(), 10, "{date}");
    assert!(date.chars().enumerate().all(|(i, c)| if i == 4 || i == 7 { c == '.' } else { c.is_ascii_digit() }));
}

/// A fresh, empty directory for one test.
fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xiangqi-zero-record-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn entries(dir: &PathBuf) -> Vec<String> {
    let mut names: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

#[test]
fn write_atomically_replaces_the_file_and_leaves_no_temporary() {
    let dir = scratch_dir("atomic");
    let path = dir.join("games.pgn");
    write_atomically(&path, "first\n").unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "first\n");
    write_atomically(&path, "second, longer\n").unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "second, longer\n");
    assert_eq!(entries(&dir), ["games.pgn"]);

    // A directory that does not exist: an error, and nothing left behind.
    let missing = dir.join("no-such-dir").join("games.pgn");
    assert_eq!(write_atomically(&missing, "x").unwrap_err().kind(), std::io::ErrorKind::NotFound);
    // Replacing a directory fails, and the temporary file is cleaned up.
    std::fs::create_dir(dir.join("a-dir")).unwrap();
    assert!(write_atomically(&dir.join("a-dir"), "x").is_err());
    assert_eq!(entries(&dir), ["a-dir", "games.pgn"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn concurrent_writers_never_leave_a_mixed_file() {
    let dir = scratch_dir("concurrent");
    let path = dir.join("status.json");
    let texts: Vec<String> = (0..8).map(|i| format!("{i}").repeat(100_000 + i)).collect();
    std::thread::scope(|scope| {
        for text in &texts {
            let path = &path;
            scope.spawn(move || {
                for _ in 0..5 {
                    write_atomically(path, text).unwrap();
                }
            });
        }
        // Every read sees one writer's text whole.
        for _ in 0..50 {
            if let Ok(seen) = std::fs::read_to_string(&path) {
                assert!(texts.contains(&seen), "a read saw a mixed or partial file of {} bytes", seen.len());
            }
        }
    });
    assert!(texts.contains(&std::fs::read_to_string(&path).unwrap()));
    assert_eq!(entries(&dir), ["status.json"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

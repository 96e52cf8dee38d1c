//! Records written in each notation (ICCS, WXF, Chinese) read back by the importer to the
//! same moves and final position: a hand-checked game, seeded random games, and the
//! records `play --save` and `eval --out` write.

mod common;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use common::{assert_fails, binary, run_with_input, TempDir};
use xiangqi_zero::game::xiangqi::{ImportedRecord, Notation, Xiangqi};
use xiangqi_zero::game::Game;
use xiangqi_zero::records::GameRecord;

/// The 14-ply game of tests/xiangqi_record_import.rs, in ICCS.
const MOVES: [&str; 14] =
    ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "h7h3", "c3c4", "b7c7", "b0c2", "c6c5", "c4c5", "b9a7", "a0a1", "a9a8"];

/// Its movetext in WXF, worked out by hand (as PlayOK writes it, Black's letters in
/// upper case).
const WXF: &str = "1. C2.5 H8+7 2. H2+3 R9.8 3. R1.2 C8+4 4. P7+1 C2.3 5. H8+7 P3+1 6. P7+1 H2+1 \
                   7. R9+1 R1+1";

/// Its movetext in Chinese, worked out by hand, Black's figures full-width.
const CHINESE: &str = "1. 炮二平五 马８进７ 2. 马二进三 车９平８ 3. 车一平二 炮８进４ 4. 兵七进一 炮２平３ \
                       5. 马八进七 卒３进１ 6. 兵七进一 马２进１ 7. 车九进一 车１进１";

/// The position after it, worked out by hand in tests/xiangqi_record_import.rs.
const FINAL: &str = "2bakabr1/r8/n1c3n2/p3p1p1p/2P6/9/P3P1PcP/1CN1C1N2/R8/2BAKABR1 w - - 3 8";

/// The three notations with the `[Format]` tag each is written with.
const FORMATS: [(Notation, &str); 3] =
    [(Notation::Iccs, "ICCS"), (Notation::Wxf, "WXF"), (Notation::Chinese, "Chinese")];

/// A record of `moves` (ICCS) from `start`.
fn record(start: &str, moves: &[String]) -> GameRecord {
    GameRecord {
        game: "xiangqi".to_string(),
        red: "alice".to_string(),
        black: "bob".to_string(),
        start: start.to_string(),
        moves: moves.to_vec(),
        result: "*".to_string(),
        reason: "unfinished".to_string(),
        round: 1,
        opening: None,
    }
}

/// The movetext of `pgn` (the lines after the tags) as one line, the comment and result
/// left out.
fn movetext(pgn: &str) -> String {
    let body: Vec<&str> = pgn.lines().filter(|line| !line.starts_with('[')).collect();
    let text = body.join(" ");
    text.split('{').next().unwrap().split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Writes `game` in `notation`, imports it back and asserts the same start, moves and end.
fn assert_round_trip(game: &Xiangqi, notation: Notation, format: &str) {
    let moves: Vec<String> = game.moves().map(|mv| mv.to_string()).collect();
    let pgn = record(&game.start_fen(), &moves).to_pgn_dated("e", "2025.03.14", notation);
    let imported = ImportedRecord::read(&pgn).unwrap_or_else(|e| panic!("{e}\n{pgn}"));
    assert_eq!(imported.tag("Format"), Some(format), "{pgn}");
    let replayed = imported.replay().unwrap_or_else(|e| panic!("{e}\n{pgn}"));
    assert_eq!(replayed.start_fen(), game.start_fen(), "{pgn}");
    assert_eq!(replayed.moves().collect::<Vec<_>>(), game.moves().collect::<Vec<_>>(), "{pgn}");
    assert_eq!(replayed.to_text(), game.to_text(), "{pgn}");
}

#[test]
fn a_hand_checked_game_is_written_in_each_notation_and_read_back() {
    let moves: Vec<String> = MOVES.map(String::from).to_vec();
    for (notation, format, expected) in [
        (Notation::Iccs, "ICCS", MOVES.map(|m| m.to_ascii_uppercase()).join(" ")),
        (Notation::Wxf, "WXF", WXF.to_string()),
        (Notation::Chinese, "Chinese", CHINESE.to_string()),
    ] {
        let pgn = record("startpos", &moves).to_pgn_dated("e", "2025.03.14", notation);
        assert!(pgn.contains(&format!("[Format \"{format}\"]\n")), "{pgn}");
        assert!(!pgn.contains("[FEN"), "{pgn}");
        if notation == Notation::Iccs {
            // `1. H2-E2 H9-G7 …`: ICCS squares hyphenated, move numbers between.
            let squares: String = movetext(&pgn).split(' ').filter(|t| !t.ends_with('.')).collect::<Vec<_>>().join(" ");
            assert_eq!(squares.replace('-', ""), expected, "{pgn}");
        } else {
            assert_eq!(movetext(&pgn), expected, "{pgn}");
        }
        assert!(pgn.trim_end().ends_with("{unfinished} *"), "{pgn}");
        let game = ImportedRecord::read(&pgn).unwrap().replay().unwrap();
        assert_eq!(game.to_text(), FINAL, "{pgn}");
    }
}

#[test]
fn random_games_from_three_starts_read_back_in_each_notation() {
    let starts = [
        "startpos",
        FINAL,
        // Black to move first: the movetext starts `1...`.
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
    ];
    let mut rng = StdRng::seed_from_u64(19);
    let mut legal = Vec::new();
    for round in 0..24 {
        let mut game = Xiangqi::from_text(starts[round % starts.len()]).unwrap();
        let length = rng.random_range(1..160);
        while game.plies_played() < length && !game.status().is_over() {
            game.legal_moves(&mut legal);
            game.play(legal[rng.random_range(0..legal.len())]);
        }
        for (notation, format) in FORMATS {
            assert_round_trip(&game, notation, format);
        }
    }
}

#[test]
fn moves_that_do_not_replay_are_written_in_iccs_and_banqi_as_it_is() {
    let bad = record("startpos", &["h2e2".to_string(), "h2h9".to_string()]);
    let pgn = bad.to_pgn_dated("e", "2025.03.14", Notation::Wxf);
    assert!(pgn.contains("[Format \"ICCS\"]\n") && movetext(&pgn) == "1. H2-E2 H2-H9", "{pgn}");

    let state = "XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX - KGGMMRRNNCCPPPPPkggmmrrnnccppppp 0 0";
    let banqi = GameRecord { game: "banqi".to_string(), ..record(state, &["a1a1:K".to_string()]) };
    let pgn = banqi.to_pgn_dated("e", "2025.03.14", Notation::Chinese);
    assert!(!pgn.contains("[Format") && movetext(&pgn) == "1. a1a1:K", "{pgn}");
}

/// Runs `play` with `args` and `input` on standard input; its standard output.
fn play(args: &[&str], input: &str) -> String {
    let output = run_with_input(&[&["play"], args].concat(), input.as_bytes());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success() && stderr.is_empty(), "{args:?}: {stderr}");
    String::from_utf8(output.stdout).expect("UTF-8 output")
}

#[test]
fn play_saves_a_resigned_game_in_wxf_by_default() {
    let dir = TempDir::new("play-save");
    let file = dir.join("game.pgn");
    // Typed in ICCS and in Chinese; saved in WXF.
    play(&["--save", file.to_str().unwrap()], "h2e2\n马8进7\nresign\n");
    let pgn = std::fs::read_to_string(&file).unwrap();
    let tags = "[Game \"Chinese Chess\"]\n[Event \"xiangqi-zero play\"]\n[Site \"xiangqi-zero\"]\n";
    assert!(pgn.starts_with(tags), "{pgn}");
    let rest = "[Round \"1\"]\n[Red \"human\"]\n[Black \"human\"]\n[Result \"0-1\"]\n[Format \"WXF\"]\n\n\
                1. C2.5 H8+7 {Red resigns} 0-1\n\n";
    assert!(pgn.ends_with(rest), "{pgn}");
}

#[test]
fn play_saves_an_engine_game_in_chinese_that_reads_back() {
    let dir = TempDir::new("play-save-chinese");
    let file = dir.join("game.txt");
    let args =
        ["--red", "alphabeta:depth=1", "--black", "random", "--max-plies", "9", "--notation", "chinese", "--save"];
    let text = play(&[&args[..], &[file.to_str().unwrap()]].concat(), "");
    // The moves as the session announced them, in Chinese.
    let announced: Vec<&str> = text.lines().filter_map(|line| line.split(" plays ").nth(1)).collect();
    assert_eq!(announced.len(), 9, "{text}");
    let mut shown = Xiangqi::start();
    shown.play_texts(&announced, Some(Notation::Chinese)).unwrap();

    let pgn = std::fs::read_to_string(&file).unwrap();
    assert!(pgn.contains("[Red \"alphabeta:depth=1\"]\n") && pgn.contains("[Format \"Chinese\"]\n"), "{pgn}");
    assert!(pgn.contains("{ply limit of 9 reached} 1/2-1/2"), "{pgn}");
    let saved = ImportedRecord::read(&pgn).unwrap();
    assert_eq!(saved.tag("Result"), Some("1/2-1/2"));
    assert_eq!(saved.replay().unwrap().to_text(), shown.to_text(), "{pgn}");
}

#[test]
fn a_game_continued_from_a_record_is_saved_whole() {
    let dir = TempDir::new("play-save-continued");
    let (opening, file) = (dir.join("opening.pgn"), dir.join("game.pgn"));
    std::fs::write(&opening, "1. C2.5 h8+7 *\n").unwrap();
    let args = ["--from-record", opening.to_str().unwrap(), "--notation", "iccs", "--save", file.to_str().unwrap()];
    play(&args, "H2+3\nquit\n");
    let pgn = std::fs::read_to_string(&file).unwrap();
    assert!(pgn.contains("[Result \"*\"]\n[Format \"ICCS\"]\n\n1. H2-E2 H9-G7 2. H0-G2 {unfinished} *\n"), "{pgn}");
}

#[test]
fn eval_writes_games_pgn_in_the_chosen_notation() {
    let dir = TempDir::new("eval-notation");
    let out = dir.join("match");
    let args = ["eval", "--a", "random", "--b", "random", "--games", "2", "--max-plies", "30", "--notation", "wxf"];
    let output = binary().args(args).arg("--out").arg(&out).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let jsonl = std::fs::read_to_string(out.join("games.jsonl")).unwrap();
    let pgn = std::fs::read_to_string(out.join("games.pgn")).unwrap();
    let games: Vec<&str> = pgn.split("[Game ").skip(1).collect();
    assert_eq!(games.len(), 2, "{pgn}");
    for (line, game) in jsonl.lines().zip(games) {
        let record = GameRecord::from_json_line(line).unwrap();
        let imported = ImportedRecord::read(&format!("[Game {game}")).unwrap();
        assert_eq!(imported.tag("Format"), Some("WXF"), "{game}");
        // The opening's FEN is the start; the moves are WXF, not ICCS squares.
        assert!(imported.moves.iter().all(|text| text.contains(['+', '-', '.'])), "{game}");
        let mut expected = Xiangqi::from_text(&record.start).unwrap();
        expected.play_texts(&record.moves, Some(Notation::Iccs)).unwrap();
        assert_eq!(imported.replay().unwrap().to_text(), expected.to_text(), "{game}");
    }
    assert_fails(&["eval", "--a", "random", "--b", "random", "--notation", "xyz"], "unknown notation `xyz`");
}

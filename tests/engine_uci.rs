//! The engine loop, driven line by line as a GUI would.

use std::io::Cursor;
use std::sync::{Arc, Mutex};

use xiangqi_zero::engine::serve;
use xiangqi_zero::game::xiangqi::Xiangqi;
use xiangqi_zero::game::Game;
use xiangqi_zero::players::{Playable, PlayerSpec};
use xiangqi_zero::search::Score;

/// Feeds `script` to an engine serving `player` and returns what it printed. (Without a
/// final `quit` the engine lets a bounded search finish at the end of input.)
fn session(player: &str, script: &str) -> Vec<String> {
    let spec: PlayerSpec = player.parse().unwrap();
    let output = Arc::new(Mutex::new(Vec::<u8>::new()));
    serve(Xiangqi::player(&spec, 1).unwrap(), Cursor::new(script.to_string()), output.clone()).unwrap();
    let bytes = output.lock().unwrap().clone();
    String::from_utf8(bytes).unwrap().lines().map(str::to_string).collect()
}

fn bestmove(lines: &[String]) -> &str {
    lines.iter().rev().find_map(|l| l.strip_prefix("bestmove ")).expect("a bestmove line")
}

#[test]
fn uci_handshake_search_and_bestmove() {
    let lines = session("alphabeta:depth=3", "uci\nisready\nucinewgame\nposition startpos moves h2e2\ngo depth 3\n");
    assert!(lines.iter().any(|l| l == "uciok"));
    assert!(lines.iter().any(|l| l == "readyok"));
    let info = lines.iter().find(|l| l.starts_with("info depth")).expect("an info line");
    for field in ["score cp", "nodes", "nps", "pv"] {
        assert!(info.contains(field), "{info}");
    }
    let mut game = Xiangqi::start();
    game.play(game.parse_move("h2e2").unwrap());
    assert!(game.parse_move(bestmove(&lines)).is_ok(), "{lines:?}");
}

#[test]
fn ucci_dialect() {
    let lines = session("alphabeta:depth=2", "ucci\nisready\nposition fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\ngo time 5000 increment 0\n");
    assert!(lines.iter().any(|l| l == "ucciok"));
    let info = lines.iter().find(|l| l.starts_with("info depth")).expect("an info line");
    assert!(!info.contains(" cp "), "UCCI scores have no `cp`: {info}");
    assert!(Xiangqi::start().parse_move(bestmove(&lines)).is_ok());
}

#[test]
fn infinite_search_stops_on_stop() {
    let lines = session("alphabeta:depth=2", "uci\nposition startpos\ngo infinite\nisready\nstop\nquit\n");
    assert!(Xiangqi::start().parse_move(bestmove(&lines)).is_ok());
    let ready = lines.iter().position(|l| l == "readyok").unwrap();
    let best = lines.iter().position(|l| l.starts_with("bestmove")).unwrap();
    assert!(ready < best, "isready is answered while searching: {lines:?}");
}

#[test]
fn stop_right_after_go_infinite_still_answers_a_searched_move() {
    for player in ["alphabeta:depth=2", "mcts:sims=800,eval=material"] {
        let lines = session(player, "uci\nposition startpos\ngo infinite\nstop\nquit\n");
        let best = lines.iter().position(|l| l.starts_with("bestmove")).expect("a bestmove");
        // At least one finished iteration (alpha-beta) or batch of simulations (MCTS)
        // is reported before the move: not the first legal move, unsearched.
        let searched = lines[..best].iter().any(|l| l.starts_with("info depth") && !l.starts_with("info depth 0"));
        assert!(searched, "{player}: {lines:?}");
        assert!(Xiangqi::start().parse_move(bestmove(&lines)).is_ok());
    }
}

#[test]
fn garbage_gets_an_info_string_and_service_goes_on() {
    let script = "uci\nfrobnicate\nposition fen banana\nposition startpos moves h2h9x\ngo depth x\nposition startpos moves h2e2 h9g7\ngo depth 1\nquit\n";
    let lines = session("random", script);
    let errors = lines.iter().filter(|l| l.starts_with("info string error")).count();
    // frobnicate, the bad FEN, the bad move, `depth x`, and no move from the broken position.
    assert_eq!(errors, 5, "{lines:?}");
    assert!(lines.iter().any(|l| l == "bestmove (none)"), "the go after a broken position: {lines:?}");
    let mut game = Xiangqi::start();
    for mv in ["h2e2", "h9g7"] {
        game.play(game.parse_move(mv).unwrap());
    }
    assert!(game.parse_move(bestmove(&lines)).is_ok());
}

#[test]
fn a_finished_game_gets_no_move() {
    // Black is checkmated (a mate from tests/data/xiangqi-mates-public.jsonl, played out).
    let lines = session(
        "random",
        "uci\nposition fen 6b2/5k3/8r/4n1P2/9/9/p8/3KB4/9/9 b - - 6 40 moves i7d7\ngo depth 1\nquit\n",
    );
    assert!(lines.iter().any(|l| l == "bestmove (none)"), "{lines:?}");
}

/// Black's general on d9, Red's on e0, Red's chariots on a9 and a8, Black to move.
/// Worked out by hand: the a9 chariot checks along rank 9 (b9, c9 empty); the general's
/// steps are c9 (out of the palace), e9 (on the checking rank, and facing Red's general
/// up the open e-file) and d8 (on the a8 chariot's rank): checkmate.
const MATED: &str = "R2k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1";
/// The same without the a9 chariot: no check, and still no legal move (stalemate, a
/// loss in Xiangqi).
const STALEMATED: &str = "3k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1";

#[test]
fn a_side_without_a_legal_move_is_mated_at_depth_0() {
    for fen in [MATED, STALEMATED] {
        assert!(Xiangqi::from_fen(fen, Default::default()).unwrap().status().is_over(), "{fen}");
        for player in ["alphabeta:depth=3", "mcts:sims=100,eval=material", "random"] {
            let lines = session(player, &format!("uci\nposition fen {fen}\ngo depth 3\n"));
            let answer = &lines[lines.iter().position(|l| l == "uciok").unwrap() + 1..];
            assert_eq!(answer, ["info depth 0 score mate 0", "bestmove (none)"], "{player} {fen}");
        }
    }
    // UCCI answers with `nobestmove` alone, as ElephantEye does.
    let lines = session("alphabeta:depth=3", &format!("ucci\nposition fen {MATED}\ngo depth 3\n"));
    assert_eq!(lines.last().map(String::as_str), Some("nobestmove"), "{lines:?}");
    assert!(!lines.iter().any(|l| l.starts_with("info")), "{lines:?}");
}

#[test]
fn hash_option_is_offered_and_set() {
    let lines = session(
        "alphabeta:depth=2",
        "uci\nsetoption name Hash value 64\nsetoption name Hash value lots\nsetoption name Colour value red\nisready\n",
    );
    assert!(lines.iter().any(|l| l.starts_with("option name Hash type spin")), "{lines:?}");
    let errors: Vec<&String> = lines.iter().filter(|l| l.starts_with("info string error")).collect();
    assert_eq!(errors.len(), 2, "{lines:?}");
    assert!(errors[0].contains("Hash must be") && errors[1].contains("unknown option `Colour`"), "{errors:?}");
}

#[test]
fn every_go_ends_in_a_bestmove() {
    for go in ["go searchmoves h2e2 b2e2 depth 1", "go mate 1", "go frobnicate 3 depth 1", "go depth"] {
        let lines = session("alphabeta:depth=1", &format!("uci\nposition startpos\n{go}\n"));
        assert!(Xiangqi::start().parse_move(bestmove(&lines)).is_ok(), "{go}: {lines:?}");
    }
}

#[test]
fn a_position_drawn_by_our_rules_still_gets_a_move() {
    // The third occurrence of an idle cycle: drawn by our rules, but the GUI is the judge.
    let moves = "f0f1 d9d8 f1f0 d8d9 f0f1 d9d8 f1f0 d8d9";
    let lines = session(
        "alphabeta:depth=2",
        &format!("uci\nposition fen 3k5/9/9/9/9/9/9/9/9/5K3 w - - 0 1 moves {moves}\ngo depth 2\n"),
    );
    assert_ne!(bestmove(&lines), "(none)", "{lines:?}");
}

#[test]
fn ucci_options_and_bye() {
    let lines = session(
        "alphabeta:depth=1",
        "ucci\nsetoption usemillisec false\nsetoption hashsize 32\nsetoption multipv 2\nsetoption newgame\nposition startpos\ngo time 5 increment 0\nquit\n",
    );
    // The handshake in UCCI's syntax (ElephantEye's: `option <name> type spin min … max
    // … default …`), UCI's `option name …` nowhere.
    let offered: Vec<&str> = lines.iter().filter(|l| l.starts_with("option ")).map(String::as_str).collect();
    assert_eq!(
        offered,
        [
            "option usemillisec type check default true",
            "option hashsize type spin min 1 max 4096 default 16",
            "option multipv type spin min 1 max 128 default 1",
            "option newgame type button",
        ],
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.starts_with("info string error")), "{lines:?}");
    // `setoption multipv 2` took: two lines are reported.
    assert!(lines.iter().any(|l| l.starts_with("info depth 1 ") && l.contains(" multipv 2 ")), "{lines:?}");
    assert_eq!(lines.last().map(String::as_str), Some("bye"), "{lines:?}");
    // A value out of range is refused, in the player's words.
    let lines = session("alphabeta:depth=1", "ucci\nsetoption hashsize lots\nsetoption colour red\n");
    let errors: Vec<&String> = lines.iter().filter(|l| l.starts_with("info string error")).collect();
    assert!(errors.len() == 2 && errors[0].contains("Hash must be") && errors[1].contains("`colour`"), "{lines:?}");
}

#[test]
fn stop_reaches_an_external_engine_behind_our_engine() {
    // Our engine serving `uci:` (our own binary) is told `go infinite` then `stop`: the stop
    // must be passed on, not wait for the external engine's time-out.
    let inner = format!("uci:{} uci --player alphabeta:depth=2", env!("CARGO_BIN_EXE_xiangqi-zero"));
    let started = std::time::Instant::now();
    let lines = session(&inner, "uci\nposition startpos\ngo infinite\nstop\n");
    assert!(Xiangqi::start().parse_move(bestmove(&lines)).is_ok(), "{lines:?}");
    assert!(started.elapsed() < std::time::Duration::from_secs(60), "stop was not passed on");
}

/// The last `multipv` lines of a session, by rank: (first move, score in cp, pv).
fn multipv_lines(lines: &[String], count: usize) -> Vec<(String, i32, Vec<String>)> {
    let ranked: Vec<&String> = lines.iter().filter(|l| l.contains(" multipv ")).collect();
    assert!(ranked.len() >= count, "{lines:?}");
    ranked[ranked.len() - count..]
        .iter()
        .enumerate()
        .map(|(i, line)| {
            let words: Vec<&str> = line.split_whitespace().collect();
            let at = |key: &str| words.iter().position(|w| *w == key).unwrap_or_else(|| panic!("{key} in {line}"));
            assert_eq!(words[at("multipv") + 1], (i + 1).to_string(), "{line}");
            let score = words[at("cp") + 1].parse().unwrap();
            let pv: Vec<String> = words[at("pv") + 1..].iter().map(|w| w.to_string()).collect();
            (pv[0].clone(), score, pv)
        })
        .collect()
}

#[test]
fn multipv_reports_the_best_root_moves_each_with_its_line() {
    // Red's chariot takes Black's on a5 (a chariot up); no other move wins anything.
    let fen = "5k3/9/9/9/r8/9/9/9/9/R2K5 w - - 0 1";
    for (player, go) in [("alphabeta", "go depth 3"), ("mcts:sims=800,eval=settled", "go nodes 800")] {
        let script = format!("uci\nsetoption name MultiPV value 3\nposition fen {fen}\n{go}\n");
        let lines = session(player, &script);
        assert!(lines.iter().any(|l| l == "option name MultiPV type spin default 1 min 1 max 128"), "{lines:?}");
        let ranked = multipv_lines(&lines, 3);
        assert_eq!(ranked[0].0, "a0a5", "{player}: {ranked:?}");
        assert!(ranked[0].1 >= 500, "{player}: {ranked:?}");
        assert_eq!(bestmove(&lines), "a0a5");
        for (first, score, pv) in &ranked[1..] {
            assert!(*score < 300 && *score <= ranked[0].1, "{player}: {ranked:?}");
            // Each line is a line of legal moves from the position.
            let mut game = Xiangqi::from_fen(fen, Default::default()).unwrap();
            for mv in pv {
                let mv = game.parse_move(mv).unwrap_or_else(|e| panic!("{player}: {pv:?}: {e}"));
                game.play(mv);
            }
            assert_ne!(first, "a0a5");
        }
        assert_ne!(ranked[1].0, ranked[2].0, "{player}: {ranked:?}");
        assert!(ranked[1].1 >= ranked[2].1, "{player}: {ranked:?}");
    }
    // One line by default: no `multipv` field at all; a count out of range is refused.
    let lines = session("alphabeta", &format!("uci\nposition fen {fen}\ngo depth 2\n"));
    assert!(lines.iter().all(|l| !l.contains("multipv")), "{lines:?}");
    let lines = session("alphabeta", "uci\nsetoption name MultiPV value 0\n");
    assert!(lines.iter().any(|l| l.starts_with("info string error") && l.contains("MultiPV")), "{lines:?}");
}

/// The `multipv` lines of a session grouped by report (each group starts at `multipv 1`),
/// each line as its score.
fn multipv_groups(lines: &[String]) -> Vec<Vec<Score>> {
    let mut groups: Vec<Vec<Score>> = Vec::new();
    for line in lines.iter().filter(|l| l.contains(" multipv ")) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let after = |key: &str| words[words.iter().position(|w| *w == key).unwrap() + 1];
        let score = match after("score") {
            "cp" => Score::Cp(after("cp").parse().unwrap()),
            "mate" => Score::Mate(after("mate").parse().unwrap()),
            other => panic!("score `{other}` in {line}"),
        };
        if after("multipv") == "1" {
            groups.push(Vec::new());
        }
        groups.last_mut().expect("multipv 1 comes first").push(score);
    }
    groups
}

#[test]
fn multipv_lines_come_best_first_by_score() {
    // The start (where the issue saw depth 9 print −15 above −12), an opening, and a
    // middle game with captures about.
    let positions = [
        "startpos",
        "startpos moves h2e2 h9g7 h0g2 i9h9 i0h0 b9c7",
        "fen r1bakab1r/9/1cn4c1/p1p1p3p/6p2/2P6/P3P1n1P/1C2C1N2/9/RNBAKAB1R w - - 0 6",
    ];
    for (player, go) in [("alphabeta", "go depth 7"), ("mcts:sims=800,eval=material", "go nodes 2000")] {
        for position in positions {
            let lines = session(player, &format!("uci\nsetoption name MultiPV value 4\nposition {position}\n{go}\n"));
            let groups = multipv_groups(&lines);
            assert!(!groups.is_empty(), "{player} {position}: {lines:?}");
            for group in &groups {
                assert!(group.windows(2).all(|pair| pair[0] >= pair[1]), "{player} {position}: {group:?}: {lines:?}");
            }
            // The move played is the first line's, for alpha-beta (MCTS plays its most
            // visited move, which may rank lower by value).
            let last = lines.iter().rev().find(|l| l.contains(" multipv 1 ")).unwrap();
            if player == "alphabeta" {
                let first = last.split(" pv ").nth(1).unwrap().split_whitespace().next().unwrap();
                assert_eq!(bestmove(&lines), first, "{lines:?}");
            }
        }
    }
}

//! The arena: strength against random play, engines that misbehave lose with a reason
//! while the match goes on, an engine that gives no move claims a draw, a match cut
//! short goes on from its saved games, and games the players agree are lost are given up.

use std::time::Duration;

mod common;

use xiangqi_zero::game::banqi::Banqi;
use xiangqi_zero::game::xiangqi::{RepetitionRule, Rules, Xiangqi};
use xiangqi_zero::game::Game;
use xiangqi_zero::matches::{builtin_openings, run_match, xiangqi_starts, MatchConfig, OwnedOpening, ResignRule};
use xiangqi_zero::players::{Playable, PlayerSpec};

use common::{match_config as config, spec, start_positions};

fn engine(script: &str) -> PlayerSpec {
    spec(&format!("uci(ms=100):{}/tests/engines/{script}", env!("CARGO_MANIFEST_DIR")))
}

#[test]
fn alphabeta_depth_three_beats_random_at_xiangqi() {
    let result =
        run_match::<Xiangqi>(&spec("alphabeta:depth=3"), &spec("random"), &start_positions(10), &config(20)).unwrap();
    assert!(result.score.fraction() >= 0.95, "{:?}", result.score);
}

#[test]
fn alphabeta_depth_three_beats_random_at_banqi() {
    let result =
        run_match::<Banqi>(&spec("alphabeta:depth=3"), &spec("random"), &start_positions(10), &config(20)).unwrap();
    assert!(result.score.fraction() >= 0.95, "{:?}", result.score);
}

/// Runs 2 games of `script` against random and checks the engine lost both, saying why.
fn misbehaving_engine_loses(script: &str, reason: &str) {
    let result = run_match::<Xiangqi>(&engine(script), &spec("random"), &start_positions(1), &config(2)).unwrap();
    assert_eq!((result.score.wins, result.score.draws, result.score.losses), (0, 0, 2), "{script}");
    for record in &result.records {
        assert!(record.reason.contains(reason), "{script}: {}", record.reason);
    }
}

#[test]
fn an_engine_that_dies_loses() {
    misbehaving_engine_loses("dies.sh", "engine died");
}

#[test]
fn an_engine_that_never_answers_loses() {
    misbehaving_engine_loses("silent.sh", "no move within");
}

/// An engine restarted after it lost on time is greeted in the protocol it answered before,
/// however slowly it answers now: greeted in both, Fairy-Stockfish switches to UCCI.
#[test]
fn a_restarted_engine_is_greeted_in_its_own_protocol() {
    let marker = std::env::temp_dir().join(format!("slow-restart-{}", std::process::id()));
    misbehaving_engine_loses("slow-restart.sh", "no move within");
    let _ = std::fs::remove_file(marker);
}

#[test]
fn an_engine_that_talks_garbage_loses() {
    misbehaving_engine_loses("garbage.sh", "illegal move `z9z0`");
}

#[test]
fn an_engine_that_gives_no_move_claims_a_draw() {
    // ElephantEye's `nobestmove` at its own 50-move rule, and UCI's `bestmove (none)`.
    let script = format!("{}/tests/engines/claims-draw.sh", env!("CARGO_MANIFEST_DIR"));
    for (kind, said) in [("ucci", "UCCI"), ("uci", "UCI")] {
        let claimant = spec(&format!("{kind}(ms=100):{script}"));
        let result = run_match::<Xiangqi>(&claimant, &spec("random"), &start_positions(1), &config(2)).unwrap();
        assert_eq!((result.score.wins, result.score.draws, result.score.losses), (0, 2, 0), "{said}");
        for record in &result.records {
            assert!(record.reason.contains("claims a draw"), "{said}: {}", record.reason);
            assert!(record.moves.len() <= 1, "the claim ends the game at once: {record:?}");
        }
    }
}

#[test]
fn an_engine_without_handshake_stops_the_match_with_an_error() {
    let error = run_match::<Xiangqi>(&engine("mute.sh"), &spec("random"), &start_positions(1), &config(2)).unwrap_err();
    assert!(error.contains("answered neither `uci` nor `ucci`"), "{error}");
}

#[test]
fn ucci_is_detected_by_handshake() {
    // One engine ignores `uci`; the other dies of it, as ElephantEye does.
    for (script, name) in [("ucci-first.sh", "ucci-fake"), ("eleeye-like.sh", "eleeye-like")] {
        let mut player = Xiangqi::player(&engine(script), 0).unwrap();
        player.new_game().unwrap();
        let report = player.think(&Xiangqi::start(), &Default::default(), &mut |_| {}).unwrap();
        assert_eq!(report.best.unwrap().to_string(), "h2e2");
        assert_eq!(report.score, xiangqi_zero::search::Score::Cp(12), "UCCI's bare score is read");
        assert_eq!(player.name(), name);
    }
}

#[test]
fn an_engine_that_cannot_start_stops_the_match_with_an_error() {
    let missing = spec("uci:/nonexistent/engine");
    let error = run_match::<Xiangqi>(&missing, &spec("random"), &start_positions(1), &config(2)).unwrap_err();
    assert!(error.contains("/nonexistent/engine"), "{error}");
}

#[test]
fn games_are_saved_as_json_lines_and_pgn() {
    let dir = std::env::temp_dir().join(format!("xiangqi-zero-arena-{}", std::process::id()));
    let mut config = config(4);
    config.out = Some(dir.clone());
    config.movetime = Some(Duration::from_millis(5));
    let result = run_match::<Xiangqi>(&spec("random"), &spec("random"), &start_positions(2), &config).unwrap();
    let jsonl = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    let pgn = std::fs::read_to_string(dir.join("games.pgn")).unwrap();
    assert_eq!(jsonl.lines().count(), 4);
    assert_eq!(pgn.matches("[Result ").count(), 4);
    for (line, record) in jsonl.lines().zip(&result.records) {
        let value: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(value["result"], record.result.as_str());
        // Replaying the saved moves reaches a finished game with the saved result.
        let mut game = Xiangqi::from_text(value["start"].as_str().unwrap()).unwrap();
        for mv in value["moves"].as_array().unwrap() {
            game.play(game.parse_move(mv.as_str().unwrap()).unwrap());
        }
        assert!(game.status().is_over() || record.reason == "max-plies");
    }
    std::fs::remove_dir_all(dir).unwrap();
}

/// A match cut short and resumed from its saved games ends as the whole match did: the
/// saved games count, only the missing rounds are played, and a saved game of another
/// match (other players, colours, games, time per move or seed) is refused with why.
#[test]
fn a_match_cut_short_goes_on_from_its_saved_games() {
    let root = std::env::temp_dir().join(format!("xiangqi-zero-resume-{}", std::process::id()));
    let openings: Vec<OwnedOpening> = builtin_openings().iter().take(3).map(OwnedOpening::from).collect();
    let starts = xiangqi_starts(&openings, Rules::default()).unwrap();
    let (a, b) = (spec("alphabeta:depth=2"), spec("alphabeta:depth=1"));
    let mut config = config(6);
    config.out = Some(root.join("whole"));
    let whole = run_match::<Xiangqi>(&a, &b, &starts, &config).unwrap();
    let saved = std::fs::read_to_string(root.join("whole/games.jsonl")).unwrap();
    let lines: Vec<&str> = saved.lines().collect();

    // Rounds 1, 2 and 5 were played before the machine was lost.
    let cut = root.join("cut");
    std::fs::create_dir_all(&cut).unwrap();
    std::fs::write(cut.join("games.jsonl"), [lines[0], lines[1], lines[4], ""].join("\n")).unwrap();
    config.out = Some(cut.clone());
    config.resume = true;
    let resumed = run_match::<Xiangqi>(&a, &b, &starts, &config).unwrap();
    assert_eq!(resumed.resumed, 3);
    assert_eq!(resumed.score, whole.score);
    assert_eq!(resumed.records, whole.records);
    assert_eq!(std::fs::read_to_string(cut.join("games.jsonl")).unwrap(), saved);

    // Resumed at another time per move or with another seed, the games would be another
    // match's: refused, naming the setting.
    let other = MatchConfig { movetime: Some(Duration::from_millis(50)), ..config.clone() };
    let error = run_match::<Xiangqi>(&a, &b, &starts, &other).unwrap_err();
    assert!(error.contains("`time per move: their own`, this match has `time per move: 50 ms`"), "{error}");
    let other = MatchConfig { seed: config.seed + 1, ..config.clone() };
    assert!(run_match::<Xiangqi>(&a, &b, &starts, &other).unwrap_err().contains("seed"));
    let drawn = Rules { repetition: RepetitionRule::Draw, ..Rules::default() };
    let error = run_match::<Xiangqi>(&a, &b, &xiangqi_starts(&openings, drawn).unwrap(), &config).unwrap_err();
    assert!(error.contains("`rules: Rules { repetition: Asian") && error.contains("repetition: Draw"), "{error}");

    // The same games read as another pairing's, as the players' colours swapped, or as a
    // shorter match's, are refused.
    let error = run_match::<Xiangqi>(&spec("alphabeta:depth=3"), &b, &starts, &config).unwrap_err();
    assert!(error.contains("line 1: round 1 was `alphabeta:depth=2` against `alphabeta:depth=1`"), "{error}");
    let error = run_match::<Xiangqi>(&b, &a, &starts, &config).unwrap_err();
    assert!(error.contains("line 1: round 1 had `alphabeta:depth=1` as"), "{error}");
    config.games = 4;
    let error = run_match::<Xiangqi>(&a, &b, &starts, &config).unwrap_err();
    assert!(error.contains("line 5: round 5 is not one of this match's 4 games"), "{error}");
    config.out = None;
    assert!(run_match::<Xiangqi>(&a, &b, &starts, &config).unwrap_err().contains("directory"));
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn our_engine_binary_plays_a_match_through_uci() {
    let binary = env!("CARGO_BIN_EXE_xiangqi-zero");
    let ours = spec(&format!("uci(depth=2):{binary} uci --player alphabeta:depth=2"));
    let result = run_match::<Xiangqi>(&ours, &spec("alphabeta:depth=2"), &start_positions(1), &config(2)).unwrap();
    assert_eq!(result.records.len(), 2);
    for record in &result.records {
        assert!(!record.reason.contains("loses") && !record.reason.contains("forfeits"), "{}", record.reason);
        assert!(record.red.starts_with("xiangqi-zero") || record.black.starts_with("xiangqi-zero"), "{record:?}");
    }
}

#[test]
fn sprt_stops_a_lopsided_match_early() {
    let mut config = config(400);
    config.sprt = Some(xiangqi_zero::matches::Sprt::parse("0,100").unwrap());
    let result =
        run_match::<Xiangqi>(&spec("alphabeta:depth=2"), &spec("random"), &start_positions(10), &config).unwrap();
    assert_eq!(result.sprt, Some(xiangqi_zero::matches::SprtDecision::AcceptH1));
    assert!(result.score.games() < 100, "{:?}", result.score);
}

/// Deterministic players (each game starts with cleared tables) play the same moves with
/// and without `--resign`: every game given up is the start of the game played out, and
/// the side that gave up lost it there too.
#[test]
fn a_game_given_up_is_one_its_loser_would_have_lost() {
    let openings: Vec<OwnedOpening> = builtin_openings().iter().take(4).map(OwnedOpening::from).collect();
    let starts = xiangqi_starts(&openings, Rules::default()).unwrap();
    let (a, b) = (spec("alphabeta:depth=4"), spec("alphabeta:depth=1"));
    let played_out = run_match::<Xiangqi>(&a, &b, &starts, &config(8)).unwrap();
    let mut adjudicated = config(8);
    adjudicated.adjudication.resign = Some(ResignRule::parse("3,400").unwrap());
    let given_up = run_match::<Xiangqi>(&a, &b, &starts, &adjudicated).unwrap();
    let mut resigned = 0;
    for (short, full) in given_up.records.iter().zip(&played_out.records) {
        if short.reason.starts_with("adjudication") {
            resigned += 1;
            assert!(short.moves.len() < full.moves.len(), "{short:?}");
            assert_eq!(short.moves[..], full.moves[..short.moves.len()]);
            assert_eq!(short.result, full.result, "{short:?}\n{full:?}");
        } else {
            assert_eq!(short, full);
        }
    }
    assert!(resigned >= 4, "{:?}", given_up.records.iter().map(|r| &r.reason).collect::<Vec<_>>());
}

//! An exported net served as a UCI engine: the options a GUI sets, `go nodes`, `go
//! depth`, `go movetime`, the clock, `go infinite` … `stop`, `mate 1`, and whole games
//! through the real binary without an illegal move or a protocol error.

mod common;

use std::io::Cursor;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use burn::tensor::Device;
use common::last_info;
use xiangqi_zero::engine::{parse_go, serve};
use xiangqi_zero::game::xiangqi::{Notation, Xiangqi};
use xiangqi_zero::game::{Game, Status};
use xiangqi_zero::matches::{run_match, Adjudication, MatchConfig, Start};
use xiangqi_zero::mcts::PlaySettings;
use xiangqi_zero::nn::{Net, NetConfig};
use xiangqi_zero::players::Playable;
use xiangqi_zero::train::{export, NetFormat};

/// An exported random 1×8 Xiangqi net, made once per test binary.
fn net_file() -> &'static PathBuf {
    static FILE: OnceLock<PathBuf> = OnceLock::new();
    FILE.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("xiangqi-zero-net-engine-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let trained = dir.join("trained.safetensors");
        Net::new(NetConfig::new::<Xiangqi>(1, 8), &Device::flex()).save(&trained).unwrap();
        let exported = dir.join("exported.safetensors");
        export(&trained, None, PlaySettings::default(), None, || None, &exported, NetFormat::Safetensors).unwrap();
        exported
    })
}

/// What the engine serving `net(sims=8):FILE` prints for `script`.
fn engine_output(script: &str) -> String {
    let spec = format!("net(sims=8):{}", net_file().display()).parse().unwrap();
    let printed = Arc::new(Mutex::new(Vec::<u8>::new()));
    serve(Xiangqi::player(&spec, 1).unwrap(), Cursor::new(script.to_string()), printed.clone()).unwrap();
    let text = String::from_utf8(printed.lock().unwrap().clone()).unwrap();
    text
}

/// The move of the last `bestmove` line, checked legal in `game`.
fn legal_bestmove(output: &str, game: &Xiangqi) -> String {
    let best = output.lines().rev().find_map(|l| l.strip_prefix("bestmove ")).expect("a bestmove line");
    assert!(game.parse_move(best).is_ok(), "{output}");
    best.to_string()
}

#[test]
fn threads_and_batch_are_offered_and_bad_values_answered_with_an_error() {
    let output = engine_output(concat!(
        "uci\nsetoption name Threads value 2\nsetoption name Batch value 4\n",
        "setoption name Threads value 0\nsetoption name Batch value many\nsetoption name Hash value 16\n",
        "isready\nposition startpos\ngo nodes 50\n"
    ));
    assert!(output.contains("option name Threads type spin default "), "{output}");
    assert!(output.contains("option name Batch type spin default 16 min 1 max 4096"), "{output}");
    let errors: Vec<&str> = output.lines().filter(|l| l.starts_with("info string error")).collect();
    assert_eq!(errors.len(), 3, "{output}");
    assert!(errors[0].contains("`Threads` needs a number from 1 to 256, not `0`"), "{output}");
    assert!(errors[1].contains("`Batch` needs a number from 1 to 4096, not `many`"), "{output}");
    assert!(errors[2].contains("unknown option `Hash`"), "{output}");
    assert!(output.contains("readyok"), "{output}");
    legal_bestmove(&output, &Xiangqi::start());
    assert!(last_info(&output, "nodes") >= 50, "{output}");
}

#[test]
fn go_depth_searches_until_the_line_is_that_long() {
    let output = engine_output("uci\nposition startpos\ngo depth 3\n");
    legal_bestmove(&output, &Xiangqi::start());
    let (depth, nodes) = (last_info(&output, "depth"), last_info(&output, "nodes"));
    assert!(depth >= 3 || nodes == 64 * 9, "{output}");
}

#[test]
fn time_limits_are_kept() {
    // A time limit replaces the spec's 8 simulations, and the search stops near it: the
    // bound is far beyond any scheduling delay, far short of a search that ignored it.
    let started = Instant::now();
    let output = engine_output("uci\nposition startpos\ngo movetime 300\n");
    let elapsed = started.elapsed().as_millis() as u64;
    legal_bestmove(&output, &Xiangqi::start());
    // Not the spec's 8 simulations, unless the time ran out at 8 too.
    assert!(last_info(&output, "nodes") != 8 || last_info(&output, "time") >= 300, "{output}");
    assert!(last_info(&output, "time") <= elapsed && elapsed < 300 + 10_000, "{elapsed} ms: {output}");
    // 2 s left on Black's clock, no increment: a thirtieth of it for this move, well
    // inside the clock.
    let (go, warnings) = parse_go(&["wtime", "2000", "btime", "2000"], false, 1);
    assert_eq!((go.limits(false).movetime, warnings.len()), (Some(Duration::from_millis(2000 / 30)), 0));
    let output = engine_output("uci\nposition startpos moves h2e2\ngo wtime 2000 btime 2000\n");
    let mut game = Xiangqi::start();
    game.play(game.parse_move("h2e2").unwrap());
    legal_bestmove(&output, &game);
    assert!(last_info(&output, "time") < 2000, "{output}");
    // Told to stop at once, it answers with the little it searched.
    let output = engine_output("uci\nposition startpos\ngo infinite\nisready\nstop\nquit\n");
    legal_bestmove(&output, &Xiangqi::start());
    assert!(output.contains("readyok"), "{output}");
}

#[test]
fn a_mate_in_one_is_played_and_reported() {
    let fen = "3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 0 1";
    let output = engine_output(&format!("uci\nposition fen {fen}\ngo nodes 50\n"));
    let game = Xiangqi::from_text(fen).unwrap();
    let best = legal_bestmove(&output, &game);
    let mut after = game.clone();
    after.play(game.parse_move(&best).unwrap());
    assert!(matches!(after.status(), Status::Over { winner: Some(_), .. }), "{output}");
    assert!(output.contains("score mate 1 ") && output.contains(&format!("pv {best}")), "{output}");
}

#[test]
fn the_engine_binary_plays_whole_games_through_uci() {
    let binary = env!("CARGO_BIN_EXE_xiangqi-zero");
    let ours = format!("uci(nodes=8):{binary} uci --player net(sims=8):{}", net_file().display()).parse().unwrap();
    let config = MatchConfig {
        games: 2,
        concurrency: 1,
        movetime: None,
        sprt: None,
        out: None,
        resume: false,
        max_plies: 200,
        adjudication: Adjudication::default(),
        seed: 7,
        progress: false,
        notation: Notation::Iccs,
    };
    let start = [Start { game: Xiangqi::start(), opening: None, seed: 0 }];
    let result = run_match::<Xiangqi>(&ours, &"alphabeta:depth=1".parse().unwrap(), &start, &config).unwrap();
    assert_eq!(result.records.len(), 2);
    let normal =
        ["checkmate", "stalemate", "perpetual-check", "perpetual-chase", "repetition", "no-capture", "max-plies"];
    for record in &result.records {
        assert!(normal.contains(&record.reason.as_str()), "{record:?}");
        assert!(!record.moves.is_empty());
    }
}

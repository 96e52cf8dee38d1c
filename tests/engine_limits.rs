//! Every limit ends every player's search in every position: `go movetime`, a clock,
//! `go nodes`, `go depth` and `go infinite` … `stop`, served as a UCI engine, each get a
//! `bestmove` — in a lost position (every move is mated at once, so every simulation ends
//! the game: the search that once never returned), a solved one (the mover mates in one),
//! one with a single legal move, and a mated one (`bestmove (none)`).

use std::io::Cursor;
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use xiangqi_zero::engine::serve;
use xiangqi_zero::game::xiangqi::{Rules, Xiangqi};
use xiangqi_zero::game::{Game, Status};
use xiangqi_zero::players::{Playable, PlayerSpec};

/// Red to move and mated next move whatever it plays (the position of the hang's report).
const LOST: &str = "3k1a3/9/5a3/6p2/4P4/9/P2c2P2/4r4/4p4/3K4R w - - 0 48";
/// Black mates in one: e2e1 (the rook takes rank 1 and the e-file from the king on d0)
/// or e2d2 (check on the d-file; e0 faces Black's king).
const SOLVED: &str = "4k4/9/9/9/9/9/9/4r4/9/3K5 b - - 0 1";
/// Red's king has one move: e0 and the palace's other squares are the rook's.
const ONE_MOVE: &str = "4k4/9/9/9/9/9/9/4r4/9/3K5 w - - 0 1";
/// Red has no legal move: the game is over.
const MATED: &str = "4k4/9/9/9/9/9/9/9/4r4/3K5 w - - 0 1";

/// Every kind of player: the shipped net with its recorded settings and at a fixed
/// budget, the bare net (no help from the rules), MCTS with the material count (PUCT and
/// Gumbel roots), alpha-beta and the random player.
const PLAYERS: [&str; 7] = [
    "net",
    "net(sims=800)",
    "net(sims=800,quiet_leaves=0,rules_prior=0,rules_value=0,rules_threats=0)",
    "mcts:sims=800,eval=material",
    "mcts:sims=800,eval=material,root=gumbel",
    "alphabeta",
    "random",
];

/// Each way a GUI limits a search, as the lines after `position`.
const LIMITS: [&str; 5] = [
    "go movetime 100\n",
    "go wtime 3000 btime 3000 winc 0 binc 0\n",
    "go nodes 800\n",
    "go depth 4\n",
    "go infinite\nisready\nstop\n",
];

/// The lines an engine serving `spec` prints for `position fen FEN` then `limit`, and
/// how long it took; a failure if it has not answered in 30 s (a search that ignores its
/// limit runs for minutes; none of these limits asks for more than a few seconds).
fn answer(spec: &str, fen: &str, limit: &str) -> (String, Duration) {
    let player = Xiangqi::player(&spec.parse::<PlayerSpec>().unwrap(), 1).unwrap();
    let printed = Arc::new(Mutex::new(Vec::<u8>::new()));
    let script = format!("uci\nisready\nposition fen {fen}\n{limit}");
    let started = Instant::now();
    let (done, answered) = mpsc::channel();
    let output = printed.clone();
    std::thread::spawn(move || done.send(serve(player, Cursor::new(script), output).map_err(|e| e.to_string())));
    match answered.recv_timeout(Duration::from_secs(30)) {
        Ok(served) => served.unwrap(),
        Err(_) => panic!("no bestmove in 30 s from {spec:?} in {fen} after {limit:?}"),
    }
    let elapsed = started.elapsed();
    let text = String::from_utf8(printed.lock().unwrap().clone()).unwrap();
    (text, elapsed)
}

/// The `bestmove` of `output`.
fn bestmove(output: &str) -> &str {
    let line = output.lines().rev().find_map(|l| l.strip_prefix("bestmove ")).unwrap_or_else(|| panic!("{output}"));
    line.split_whitespace().next().unwrap()
}

fn legal_moves(fen: &str) -> Vec<String> {
    let game = Xiangqi::from_fen(fen, Rules::default()).unwrap();
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves.iter().map(|mv| mv.to_string()).collect()
}

/// Whether `mv` wins the game at once for the side to move in `fen`.
fn mates(fen: &str, mv: &str) -> bool {
    let mut game = Xiangqi::from_fen(fen, Rules::default()).unwrap();
    let mover = game.to_move();
    let Ok(mv) = game.parse_move(mv) else { return false };
    game.play(mv);
    matches!(game.status(), Status::Over { winner: Some(winner), .. } if winner == mover)
}

#[test]
fn the_positions_are_what_they_claim() {
    // Lost: after each of Red's moves, Black has a move that ends the game with Black's win.
    let lost = Xiangqi::from_fen(LOST, Rules::default()).unwrap();
    let mut moves = Vec::new();
    lost.legal_moves(&mut moves);
    assert!(!moves.is_empty());
    for mv in moves {
        let mut after = lost.clone();
        after.play(mv);
        let mut replies = Vec::new();
        after.legal_moves(&mut replies);
        let mates = replies.iter().any(|&reply| {
            let mut end = after.clone();
            end.play(reply);
            matches!(end.status(), Status::Over { winner: Some(winner), .. } if winner != lost.to_move())
        });
        assert!(mates, "{mv} escapes");
    }
    assert_eq!(legal_moves(ONE_MOVE), ["d0d1"]);
    assert!(mates(SOLVED, "e2e1") && mates(SOLVED, "e2d2") && !mates(SOLVED, "e2f2"));
    assert!(legal_moves(MATED).is_empty());
}

#[test]
fn every_limit_ends_every_players_search_in_every_position() {
    let mut slowest = Vec::new();
    for spec in PLAYERS {
        for (fen, expected) in [(LOST, None), (SOLVED, Some("mate")), (ONE_MOVE, Some("d0d1")), (MATED, Some("(none)"))]
        {
            for limit in LIMITS {
                let (output, elapsed) = answer(spec, fen, limit);
                let best = bestmove(&output);
                let case = format!("{spec} in {fen} after {limit:?}");
                match expected {
                    // Every player but the random one plays a mate in one when it has one.
                    Some("mate") if spec != "random" => assert!(mates(fen, best), "{case}:\n{output}"),
                    Some(expected) if expected != "mate" => assert_eq!(best, expected, "{case}:\n{output}"),
                    _ => assert!(legal_moves(fen).contains(&best.to_string()), "{case}:\n{output}"),
                }
                slowest.push((elapsed, case));
            }
        }
    }
    slowest.sort();
    eprintln!("slowest answer: {:?}", slowest.last());
}

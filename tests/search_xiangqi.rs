//! The Xiangqi alpha-beta baseline: it finds the forced wins of
//! `tests/data/xiangqi-mates-public.jsonl` (mate in 1–3, stalemate included, rulings by
//! Fairy-Stockfish), by depth and selectively, never returns an illegal move, respects its limits, and judges
//! repetitions by the rules (a perpetual checker loses).

mod common;

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::Deserialize;
use xiangqi_zero::game::xiangqi::{Board, Move, MoveList, Xiangqi};
use xiangqi_zero::game::Game;
use xiangqi_zero::search::xiangqi::AlphaBeta;
use xiangqi_zero::search::{Limits, Score};

#[derive(Deserialize)]
struct MateCase {
    fen: String,
    mate_in: i32,
    winning_moves: Vec<String>,
}

fn search(game: &Xiangqi, limits: Limits) -> xiangqi_zero::search::Report<Move> {
    AlphaBeta::new(4).search(game, &limits, &mut |_| {})
}

/// Whether the side to move can force a win (mate or stalemate) within `moves` of its
/// moves: plain AND-OR search over every legal move, the arbiter for the reference data.
fn forced_win(board: &Board, moves: u32) -> bool {
    let mut list = MoveList::new();
    board.legal_moves(&mut list);
    moves > 0 && list.iter().any(|&mv| wins_after(board, mv, moves))
}

/// Whether `mv` forces a win within `moves` moves (itself included).
fn wins_after(board: &Board, mv: Move, moves: u32) -> bool {
    let mut child = *board;
    child.play(mv);
    let mut replies = MoveList::new();
    child.legal_moves(&mut replies);
    replies.is_empty()
        || (moves > 1
            && replies.iter().all(|&reply| {
                let mut next = child;
                next.play(reply);
                forced_win(&next, moves - 1)
            }))
}

#[test]
fn finds_every_forced_win_in_one_to_three_moves() {
    let cases: Vec<MateCase> = common::read_jsonl("xiangqi-mates-public.jsonl");
    assert!(cases.len() >= 50);
    let mut searcher = AlphaBeta::new(16);
    let mut agrees_with_reference = 0;
    for case in &cases {
        let game = Xiangqi::from_text(&case.fen).unwrap();
        let board = game.board();
        // The reference engine's depth-limited search may miss a shorter win (often a
        // stalemate) or an equally short one: exhaustive search decides.
        let shortest = (1..=case.mate_in as u32).find(|&m| forced_win(board, m)).expect("the reference win exists");
        searcher.clear();
        let depth = 2 * case.mate_in as u32 + 1;
        let report = searcher.search(&game, &Limits::depth(depth), &mut |_| {});
        let best = report.best.expect("a move");
        let pv: Vec<String> = report.pv.iter().map(ToString::to_string).collect();
        assert_eq!(report.score, Score::Mate(shortest as i32), "{}: {best}, pv {pv:?}", case.fen);
        assert!(wins_after(board, best, shortest), "{}: {best} does not win in {shortest}, pv {pv:?}", case.fen);
        agrees_with_reference += case.winning_moves.contains(&best.to_string()) as usize;
    }
    // Where the reference is exact, the move is among its winning moves.
    assert!(agrees_with_reference >= cases.len() - 5, "{agrees_with_reference} of {}", cases.len());
}

/// The selective search (limited by nodes, as by time) prunes quiet moves near the
/// horizon and reduces late ones; it still finds each forced win, the shortest, and plays
/// a move that forces it.
#[test]
fn the_selective_search_finds_every_forced_win() {
    let cases: Vec<MateCase> = common::read_jsonl("xiangqi-mates-public.jsonl");
    let mut searcher = AlphaBeta::new(16);
    for case in &cases {
        let game = Xiangqi::from_text(&case.fen).unwrap();
        let board = game.board();
        let shortest = (1..=case.mate_in as u32).find(|&m| forced_win(board, m)).expect("the reference win exists");
        searcher.clear();
        let report = searcher.search(&game, &Limits::nodes(200_000), &mut |_| {});
        let best = report.best.expect("a move");
        assert_eq!(report.score, Score::Mate(shortest as i32), "{}: {best}", case.fen);
        assert!(wins_after(board, best, shortest), "{}: {best} does not win in {shortest}", case.fen);
    }
}

#[test]
fn the_mated_side_knows_it() {
    // After the winning move of each mate-in-1 case, the loser sees mate in 0 moves
    // (no legal move) or, one move earlier, a loss.
    let cases: Vec<MateCase> = common::read_jsonl("xiangqi-mates-public.jsonl");
    for case in cases.iter().filter(|c| c.mate_in == 2) {
        let mut game = Xiangqi::from_text(&case.fen).unwrap();
        game.play(game.parse_move(&case.winning_moves[0]).unwrap());
        let report = search(&game, Limits::depth(4));
        assert_eq!(report.score, Score::Mate(-1), "{} after {}", case.fen, case.winning_moves[0]);
    }
}

/// Positions reached by random play from the start, some long into the game.
fn random_positions(count: usize, seed: u64) -> Vec<Xiangqi> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut positions = Vec::new();
    let mut moves = Vec::new();
    while positions.len() < count {
        let mut game = Xiangqi::start();
        let plies = rng.random_range(0..160);
        for _ in 0..plies {
            game.legal_moves(&mut moves);
            if moves.is_empty() || game.status().is_over() {
                break;
            }
            game.play(moves[rng.random_range(0..moves.len())]);
        }
        positions.push(game);
    }
    positions
}

#[test]
fn always_returns_a_legal_move() {
    let mut searcher = AlphaBeta::new(4);
    let mut legal = Vec::new();
    for (i, game) in random_positions(300, 1).iter().enumerate() {
        game.legal_moves(&mut legal);
        let limits = match i % 3 {
            0 => Limits::depth(1 + (i % 4) as u32),
            1 => Limits::nodes(1 + (i as u64 * 37) % 3000),
            _ => Limits::movetime(Duration::from_millis((i % 5) as u64)),
        };
        let report = searcher.search(game, &limits, &mut |_| {});
        match report.best {
            Some(best) => {
                assert!(legal.contains(&best), "{}: illegal {best}", game.to_text());
                // The principal variation is playable.
                let mut line = game.clone();
                for &mv in &report.pv {
                    assert!(line.parse_move(&mv.to_string()).is_ok(), "{}: pv {:?}", game.to_text(), report.pv);
                    line.play(mv);
                }
            }
            None => assert!(legal.is_empty(), "{}: no move", game.to_text()),
        }
    }
}

#[test]
fn respects_node_limits_and_stops() {
    let game = Xiangqi::start();
    for nodes in [0, 1, 2, 10, 1000, 20_000] {
        let report = search(&game, Limits::nodes(nodes));
        assert!(report.nodes <= nodes, "{} > {nodes}", report.nodes);
        assert!(report.best.is_some());
    }
    let stop = Arc::new(AtomicBool::new(true));
    let report = search(&game, Limits { stop: Some(stop), depth: Some(30), ..Limits::default() });
    assert!(report.best.is_some());
    assert!(report.nodes <= 1024);
    // Depth 1 always completes under a depth limit.
    let mut depths = Vec::new();
    let report = AlphaBeta::new(1).search(&game, &Limits::depth(0), &mut |r| depths.push(r.depth));
    assert_eq!((depths, report.depth), (vec![1], 1));
}

#[test]
fn respects_time_limits() {
    let game = random_positions(1, 7).pop().unwrap();
    // The time limit stops a search that nothing else would: far within the bound,
    // however loaded the machine; not a measure of speed.
    let started = Instant::now();
    let report = search(&game, Limits::movetime(Duration::from_millis(100)));
    assert!(started.elapsed() < Duration::from_secs(30), "{:?}", started.elapsed());
    assert!(report.depth >= 1 && report.best.is_some());
}

#[test]
fn iterations_are_reported_in_order() {
    let game = Xiangqi::start();
    let mut seen = Vec::new();
    let report = AlphaBeta::new(4).search(&game, &Limits::depth(5), &mut |r| seen.push((r.depth, r.nodes, r.best)));
    assert_eq!(seen.iter().map(|s| s.0).collect::<Vec<_>>(), vec![1, 2, 3, 4, 5]);
    assert!(seen.windows(2).all(|w| w[0].1 <= w[1].1));
    assert_eq!(report.depth, 5);
    assert_eq!(Some(report.best), seen.last().map(|s| s.2));
    assert_eq!(report.pv.first().copied(), report.best);
    assert!(matches!(report.score, Score::Cp(v) if v.abs() < 100), "{:?}", report.score);
}

#[test]
fn wins_material_when_offered() {
    // Red's chariot on e5 takes the undefended black horse on e7.
    let game = Xiangqi::from_text("3k5/9/4n4/9/4R4/9/9/9/9/4K4 w - - 0 1").unwrap();
    let report = search(&game, Limits::depth(3));
    assert_eq!(report.best.unwrap().to_string(), "e5e7");
}

#[test]
fn the_no_capture_limit_draws_a_won_position_at_every_depth_and_selectively() {
    // Red's chariot against the bare black general, 119 plies without a capture: Red has
    // no capture and no mate in one, so whatever Red plays completes the 120 plies and the
    // game is drawn. One ply short of the limit, Red is simply a chariot up.
    let drawn = Xiangqi::from_text("3k5/9/9/9/9/9/9/9/9/R4K3 w - - 119 60").unwrap();
    for limits in [Limits::depth(1), Limits::depth(2), Limits::depth(4), Limits::nodes(20_000)] {
        let report = search(&drawn, limits.clone());
        assert_eq!(report.score, Score::Cp(0), "{limits:?}");
    }
    let won = Xiangqi::from_text("3k5/9/9/9/9/9/9/9/9/R4K3 w - - 100 60").unwrap();
    assert!(matches!(search(&won, Limits::depth(2)).score, Score::Cp(cp) if cp > 300));
}

#[test]
fn a_perpetual_checker_loses_under_asian_rules() {
    // Red checks with the chariot from a8/a9 while the black general steps d9/d8;
    // Black has nothing else. After two rounds of checks Red's next check would
    // complete a perpetual check, which loses: Red must find another move.
    let mut game = Xiangqi::from_text("3k5/R8/9/9/9/9/9/9/9/5K3 w - - 0 1").unwrap();
    for mv in ["a8a9", "d9d8", "a9a8", "d8d9", "a8a9", "d9d8", "a9a8"] {
        game.play(game.parse_move(mv).unwrap());
    }
    // Black to move: d8d9 would repeat the start position a third time; the checker
    // (Red) loses by it, so Black welcomes it.
    let report = search(&game, Limits::depth(4));
    assert!(matches!(report.score, Score::Mate(n) if n > 0), "{:?}", report.score);
}

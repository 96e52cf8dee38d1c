//! The NNUE evaluation: the accumulator kept move by move equals the one summed afresh
//! over thousands of random moves (captures, general moves, and unmaking back up the
//! line), and the search's evaluation gives each position met again its value; the integer net stays within rounding of its float original; its file reads
//! back as written and a wrong file is refused; a fresh net values material as the
//! hand-written tables do; and the alpha-beta searching with it
//! still finds every forced win of `tests/data/xiangqi-mates-public.jsonl`. The shipped
//! net is what `nnue` with no file plays, and it knows a chariot from a pawn.

mod common;

use std::path::Path;
use std::sync::Arc;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::Deserialize;
use xiangqi_zero::game::xiangqi::{Board, Kind, Move, MoveList, Xiangqi};
use xiangqi_zero::game::Game;
use xiangqi_zero::nnue::{shipped_nnue, Accumulator, FloatNet, Nnue, NnueEvaluation};
use xiangqi_zero::search::evaluation::{Evaluation, PieceSquares};
use xiangqi_zero::search::xiangqi::AlphaBeta;
use xiangqi_zero::search::{Limits, Score};

/// A random net, quantized.
fn random_net(seed: u64) -> Nnue {
    Nnue::quantize(&FloatNet::random(seed), "random, for the tests")
}

/// Positions of random games from the start, up to 150 plies in.
fn random_boards(count: usize, seed: u64) -> Vec<Board> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut moves = Vec::new();
    (0..count)
        .map(|_| {
            let mut game = Xiangqi::start();
            for _ in 0..rng.random_range(0..150) {
                game.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                game.play(moves[rng.random_range(0..moves.len())]);
            }
            *game.board()
        })
        .collect()
}

#[test]
fn the_accumulator_kept_move_by_move_is_the_one_summed_afresh() {
    let net = random_net(1);
    // The evaluation the search reads, which keeps its values by position: a position met
    // again (after unmaking) is given the value it was given the first time.
    let mut evaluation = NnueEvaluation::new(Arc::new(net.clone()));
    let mut rng = StdRng::seed_from_u64(2);
    let (mut moves, mut captures, mut king_moves, mut unmade) = (0, 0, 0, 0);
    for _ in 0..40 {
        // The line from the start, each position with its accumulator: unmaking is going
        // back to an earlier entry and playing on from there.
        let mut line = vec![(Board::start(), Accumulator::new(&net, &Board::start()))];
        for _ in 0..200 {
            if rng.random_range(0..10) == 0 && line.len() > 4 {
                let back = rng.random_range(1..4);
                line.truncate(line.len() - back);
                unmade += back;
            }
            let (board, accumulator) = *line.last().unwrap();
            assert_eq!(evaluation.value(&accumulator, &board), accumulator.evaluate(&net, board.side_to_move()));
            let mut list = MoveList::new();
            board.legal_moves(&mut list);
            if list.is_empty() {
                break;
            }
            let mv: Move = list.iter().copied().nth(rng.random_range(0..list.len())).unwrap();
            captures += board.piece_at(mv.to).is_some() as usize;
            king_moves += (board.piece_at(mv.from).unwrap().kind() == Kind::King) as usize;
            let mut child = board;
            child.play(mv);
            let kept = accumulator.after(&net, &board, mv, &child);
            assert_eq!(
                kept,
                Accumulator::new(&net, &child),
                "after {mv} from {}",
                xiangqi_zero::game::xiangqi::fen::write(
                    &board,
                    xiangqi_zero::game::xiangqi::fen::Counters { since_capture: 0, move_number: 1 }
                )
            );
            assert_eq!(evaluation.value(&kept, &child), kept.evaluate(&net, child.side_to_move()));
            line.push((child, kept));
            moves += 1;
        }
    }
    eprintln!("{moves} moves: {captures} captures, {king_moves} general moves, {unmade} unmade");
    assert!(moves > 5000 && captures > 500 && king_moves > 200 && unmade > 500);
}

#[test]
fn the_integer_net_computes_its_float_net_within_rounding() {
    // The integers against the float net they stand for: only the activations' rounding
    // (the int8 layers' outputs shifted down to 0–127) differs.
    let mut float = FloatNet::random(3);
    float.hidden1_weights.iter_mut().chain(&mut float.hidden2_weights).for_each(|w| *w *= 8.0);
    let net = Nnue::quantize(&float, "random");
    let dequantized = net.dequantize();
    assert_eq!(Nnue::quantize(&dequantized, "random"), net, "quantizing is exact on the grid");
    let (mut worst, mut spread): (f32, f32) = (0.0, 0.0);
    for board in &random_boards(300, 4) {
        let exact = dequantized.output(board);
        let integer = Accumulator::new(&net, board).output(&net, board.side_to_move());
        worst = worst.max((exact - integer).abs());
        spread = spread.max(exact.abs());
    }
    eprintln!("largest difference {worst:.4} for outputs up to {spread:.3}");
    assert!(spread > 0.3, "the random net's outputs vary: {spread}");
    assert!(worst < 0.02 * spread, "largest difference {worst}");
}

#[test]
fn a_fresh_net_judges_material_as_the_hand_written_tables_do() {
    // Its direct term starts at the tables; the layers add what the tables miss, and
    // with their output weights at zero nothing.
    let mut float = FloatNet::random(7);
    float.output_weights.iter_mut().for_each(|w| *w = 0.0);
    let net = Nnue::quantize(&float, "the tables");
    let mut tables = PieceSquares;
    let mut checked = 0;
    for board in &random_boards(200, 8) {
        let nnue = Accumulator::new(&net, board).evaluate(&net, board.side_to_move());
        let classical = tables.value(&tables.state(board), board);
        assert!((nnue - classical).abs() <= 1, "{nnue} against {classical}");
        checked += (classical.abs() > 200) as usize;
    }
    assert!(checked > 20, "positions with material imbalance: {checked}");
}

#[test]
fn the_file_reads_back_as_written_and_a_wrong_one_is_refused() {
    let net = random_net(5);
    let dir = std::env::temp_dir().join(format!("xz-nnue-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("net.nnue");
    net.save(&path).unwrap();
    assert_eq!(Nnue::load(&path).unwrap(), net);
    let size = std::fs::metadata(&path).unwrap().len();
    assert!(size < 8 << 20, "{size} bytes");

    let shipped_policy_net = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/nets/xiangqi.safetensors");
    if shipped_policy_net.exists() {
        let error = Nnue::load(&shipped_policy_net).unwrap_err();
        assert!(error.contains("format"), "{error}");
    }
    std::fs::write(&path, b"not a net").unwrap();
    assert!(Nnue::load(&path).unwrap_err().contains("not an NNUE"));
    assert!(Nnue::load(&dir.join("missing.nnue")).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[derive(Deserialize)]
struct MateCase {
    fen: String,
    mate_in: i32,
}

#[test]
fn the_search_with_the_nnue_finds_every_forced_win() {
    let cases: Vec<MateCase> = common::read_jsonl("xiangqi-mates-public.jsonl");
    let mut nnue = AlphaBeta::with_evaluation(NnueEvaluation::new(Arc::new(random_net(6))), 16);
    let mut classical = AlphaBeta::new(16);
    for case in &cases {
        let game = Xiangqi::from_text(&case.fen).unwrap();
        let limits = Limits::depth(2 * case.mate_in as u32 + 1);
        nnue.clear();
        classical.clear();
        let with_nnue = nnue.search(&game, &limits, &mut |_| {});
        let with_tables = classical.search(&game, &limits, &mut |_| {});
        // The same shortest win, whatever the evaluation says of the other positions.
        assert_eq!(with_nnue.score, with_tables.score, "{}", case.fen);
        assert!(matches!(with_nnue.score, Score::Mate(m) if m > 0), "{}", case.fen);
    }
}

#[test]
fn the_shipped_nnue_plays_with_no_file_and_counts_a_missing_chariot() {
    let net = shipped_nnue().unwrap();
    assert!(net.provenance.contains("NNUE run"), "{}", net.provenance);
    // The start without Red's left chariot: Black is a chariot (about 600) up, whoever moves.
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABNR";
    for (side, sign) in [("w", 1), ("b", -1)] {
        let game = Xiangqi::from_text(&format!("{fen} {side} - - 0 1")).unwrap();
        let board = game.board();
        let value = Accumulator::new(&net, board).evaluate(&net, board.side_to_move());
        assert!(sign * value < -300, "{side} to move: {value}");
    }
    let output = common::run_with_input(&["uci", "--player", "nnue"], b"uci\nposition startpos\ngo depth 4\nquit\n");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.lines().any(|line| line.starts_with("bestmove ")), "{stdout}");
}

//! The encoders: label sets of the right size, every legal move a distinct label that
//! maps back to it, and the board symmetries carrying planes and labels along (the
//! encoding of a transformed position is the transformed encoding).

mod common;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::Deserialize;
use xiangqi_zero::game::banqi::{self, Banqi};
use xiangqi_zero::game::xiangqi::{fen, Board, Move, Piece, Square, Xiangqi};
use xiangqi_zero::game::Game;
use xiangqi_zero::nn::{encode_banqi, encode_xiangqi, transform_planes, transform_policy, Encoding};

#[derive(Deserialize)]
struct Entry {
    fen: String,
}

fn movegen_positions() -> Vec<Xiangqi> {
    let entries: Vec<Entry> = common::read_jsonl("xiangqi-movegen-public.jsonl");
    entries.iter().map(|entry| Xiangqi::from_text(&entry.fen).unwrap()).collect()
}

fn encoded<G: Encoding>(game: &G) -> Vec<f32> {
    let mut planes = vec![f32::NAN; G::INPUT_SIZE];
    game.encode(&mut planes);
    planes
}

/// Every legal move gets a distinct label below `POLICY_SIZE` that maps back to it.
fn assert_labels_round_trip<G: Encoding>(game: &G) {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut seen = vec![false; G::POLICY_SIZE];
    for &mv in &moves {
        let label = game.move_label(mv);
        assert!(label < G::POLICY_SIZE);
        assert!(!seen[label], "two moves share label {label} in {}", game.to_text());
        seen[label] = true;
        assert_eq!(game.label_move(label), mv, "label {label} of {mv} in {}", game.to_text());
    }
}

/// The encoding of `transformed` (`game` under symmetry `sym`, `map` sending its moves
/// along) is `game`'s encoding transformed, planes and policy alike.
fn assert_symmetric<G: Encoding>(sym: usize, game: &G, transformed: &G, map: impl Fn(G::Move) -> G::Move) {
    let mut planes = vec![0.0; G::INPUT_SIZE];
    transform_planes::<G>(sym, &encoded(game), &mut planes);
    assert_eq!(planes, encoded(transformed), "planes under symmetry {sym} of {}", game.to_text());
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut policy = vec![0.0; G::POLICY_SIZE];
    let mut expected = vec![0.0; G::POLICY_SIZE];
    for (i, &mv) in moves.iter().enumerate() {
        policy[game.move_label(mv)] = (i + 1) as f32;
        expected[transformed.move_label(map(mv))] = (i + 1) as f32;
    }
    let mut policy_out = vec![0.0; G::POLICY_SIZE];
    transform_policy::<G>(sym, &policy, &mut policy_out);
    assert_eq!(policy_out, expected, "policy under symmetry {sym} of {}", game.to_text());
}

#[test]
fn label_sets_have_2086_and_352_labels() {
    assert_eq!(encode_xiangqi::label_count(), 2086);
    assert_eq!(Xiangqi::POLICY_SIZE, 2086);
    assert_eq!(encode_banqi::label_count(), 352);
    assert_eq!(Banqi::POLICY_SIZE, 352);
}

#[test]
fn xiangqi_legal_moves_have_distinct_labels_that_map_back() {
    for game in movegen_positions() {
        assert_labels_round_trip(&game);
    }
}

/// The position with `board` mirrored, under the same counters.
fn mirrored(game: &Xiangqi) -> Xiangqi {
    let (_, counters) = fen::parse(&game.to_text()).unwrap();
    Xiangqi::from_text(&fen::write(&game.board().mirror(), counters)).unwrap()
}

#[test]
fn xiangqi_mirror_carries_planes_and_labels() {
    for game in movegen_positions() {
        assert_symmetric(1, &game, &mirrored(&game), Move::mirror);
    }
}

#[test]
fn xiangqi_mirror_holds_along_random_games_with_counters() {
    let mut rng = StdRng::seed_from_u64(7);
    let mut moves = Vec::new();
    for _ in 0..20 {
        let (mut game, mut mirror) = (Xiangqi::start(), Xiangqi::start());
        for _ in 0..150 {
            assert_symmetric(1, &game, &mirror, Move::mirror);
            assert_labels_round_trip(&game);
            game.legal_moves(&mut moves);
            if moves.is_empty() || game.status().is_over() {
                break;
            }
            let mv = moves[rng.random_range(0..moves.len())];
            game.play(mv);
            mirror.play(mv.mirror());
        }
    }
}

/// The position with the board turned 180° and the colours swapped: the same position
/// for the other side, which must look the same to the side to move.
fn colours_swapped(game: &Xiangqi) -> Xiangqi {
    let board = game.board();
    let pieces: Vec<(Square, Piece)> =
        board.pieces().map(|(sq, piece)| (sq.rotate(), Piece::new(piece.color().opponent(), piece.kind()))).collect();
    let swapped = Board::new(&pieces, board.side_to_move().opponent()).unwrap();
    let (_, counters) = fen::parse(&game.to_text()).unwrap();
    Xiangqi::from_text(&fen::write(&swapped, counters)).unwrap()
}

#[test]
fn xiangqi_planes_and_labels_are_from_the_movers_point_of_view() {
    let rotated = |mv: Move| Move::new(mv.from.rotate(), mv.to.rotate());
    for game in movegen_positions() {
        let swapped = colours_swapped(&game);
        assert_eq!(encoded(&game), encoded(&swapped), "{} against {}", game.to_text(), swapped.to_text());
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        for mv in moves {
            assert_eq!(game.move_label(mv), swapped.move_label(rotated(mv)));
        }
    }
}

#[test]
fn xiangqi_rule_planes_count_repetitions_and_quiet_plies() {
    let mut game = Xiangqi::start();
    let cells = 90;
    for (i, mv) in ["b0c2", "b9c7", "c2b0", "c7b9"].iter().enumerate() {
        game.play(game.parse_move(mv).unwrap());
        let planes = encoded(&game);
        assert_eq!(planes[15 * cells], (i + 1) as f32 / 120.0);
        assert_eq!(planes[16 * cells + 89], 1.0);
    }
    // The start position again, for the second time.
    assert_eq!(encoded(&game)[14 * cells], 0.5);
}

/// Where symmetry `sym` sends a Banqi square: bit 0 mirrors files, bit 1 ranks.
fn banqi_square(sym: usize, sq: banqi::Square) -> banqi::Square {
    let file = if sym & 1 != 0 { 3 - sq.file() } else { sq.file() };
    let rank = if sym & 2 != 0 { 7 - sq.rank() } else { sq.rank() };
    banqi::Square::from_coords(file as i32, rank as i32).unwrap()
}

fn banqi_move(sym: usize) -> impl Fn(banqi::Move) -> banqi::Move {
    move |mv| banqi::Move::new(banqi_square(sym, mv.from), banqi_square(sym, mv.to))
}

/// Seeded random Banqi games, each played on the four symmetric boards at once (the
/// same pieces revealed), checking labels and symmetries at every decision point.
fn banqi_random_games(rules: banqi::Rules, seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut moves = Vec::new();
    for _ in 0..30 {
        let mut games: Vec<Banqi> = (0..4).map(|_| Banqi::with_rules(rules)).collect();
        for _ in 0..300 {
            if games[0].is_chance() {
                let piece = games[0].resolve_chance(&mut rng).unwrap();
                games[1..].iter_mut().for_each(|g| g.apply_outcome(piece));
                continue;
            }
            if games[0].status().is_over() {
                break;
            }
            assert_labels_round_trip(&games[0]);
            for sym in 0..4 {
                assert_symmetric(sym, &games[0], &games[sym], banqi_move(sym));
            }
            games[0].legal_moves(&mut moves);
            let mv = moves[rng.random_range(0..moves.len())];
            for (sym, game) in games.iter_mut().enumerate() {
                game.play(banqi_move(sym)(mv));
            }
        }
    }
}

#[test]
fn banqi_symmetries_carry_planes_and_labels() {
    banqi_random_games(banqi::Rules::default(), 11);
}

#[test]
fn banqi_symmetries_hold_with_chain_captures() {
    banqi_random_games(banqi::Rules { chain_captures: true, ..banqi::Rules::default() }, 12);
}

#[test]
fn banqi_start_planes() {
    let planes = encoded(&Banqi::start());
    let cells = 32;
    assert!(planes[14 * cells..15 * cells].iter().all(|&v| v == 1.0), "all face-down");
    assert!(planes[..14 * cells].iter().all(|&v| v == 0.0), "nothing face-up");
    assert!(planes[16 * cells..30 * cells].iter().all(|&v| v == 1.0), "the whole pool hidden");
    assert!(planes[33 * cells..].iter().all(|&v| v == 1.0));
}

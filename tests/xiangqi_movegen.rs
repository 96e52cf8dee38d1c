//! Legal moves, check flags and perft(2)/(3) of 2000 positions from an independent
//! engine (`tests/data/xiangqi-movegen-public.jsonl`, made with Fairy-Stockfish).

mod common;

use serde::Deserialize;
use xiangqi_zero::game::xiangqi::Xiangqi;
use xiangqi_zero::game::{EndReason, Game, Status};

#[derive(Deserialize)]
struct Entry {
    fen: String,
    moves: Vec<String>,
    in_check: bool,
    perft2: u64,
    perft3: Option<u64>,
}

fn entries() -> Vec<Entry> {
    let entries: Vec<Entry> = common::read_jsonl("xiangqi-movegen-public.jsonl");
    assert_eq!(entries.len(), 2000);
    entries
}

#[test]
fn legal_move_lists_match() {
    let mut moves = Vec::new();
    for entry in entries() {
        let game = Xiangqi::from_text(&entry.fen).unwrap();
        game.legal_moves(&mut moves);
        let mut ours: Vec<String> = moves.iter().map(ToString::to_string).collect();
        ours.sort();
        assert_eq!(ours, entry.moves, "{}", entry.fen);
        assert_eq!(game.in_check(), entry.in_check, "in_check of {}", entry.fen);
    }
}

#[test]
fn perft_two_and_three_match() {
    for entry in entries() {
        let game = Xiangqi::from_text(&entry.fen).unwrap();
        assert_eq!(game.perft(2), entry.perft2, "perft2 of {}", entry.fen);
        if let Some(perft3) = entry.perft3 {
            assert_eq!(game.perft(3), perft3, "perft3 of {}", entry.fen);
        }
    }
}

#[test]
fn no_legal_move_loses() {
    let mut finished = 0;
    for entry in entries().iter().filter(|e| e.moves.is_empty()) {
        let game = Xiangqi::from_text(&entry.fen).unwrap();
        let reason = if entry.in_check { EndReason::Checkmate } else { EndReason::Stalemate };
        let loser = game.to_move();
        assert_eq!(game.status(), Status::Over { winner: Some(loser.opponent()), reason }, "{}", entry.fen);
        finished += 1;
    }
    assert_eq!(finished, 68);
}

#[test]
fn positions_with_moves_are_ongoing_and_every_listed_move_parses() {
    for entry in entries().iter().filter(|e| !e.moves.is_empty()) {
        let game = Xiangqi::from_text(&entry.fen).unwrap();
        assert_eq!(game.status(), Status::Ongoing, "{}", entry.fen);
        for text in &entry.moves {
            assert_eq!(game.parse_move(text).unwrap().to_string(), *text);
        }
    }
}

#[derive(Deserialize)]
struct Mate {
    fen: String,
    mate_in: u32,
    winning_moves: Vec<String>,
}

#[test]
fn mates_in_one_end_the_game_for_the_mover() {
    let mates: Vec<Mate> = common::read_jsonl("xiangqi-mates-public.jsonl");
    let mut checked = 0;
    for mate in mates.iter().filter(|m| m.mate_in == 1) {
        let game = Xiangqi::from_text(&mate.fen).unwrap();
        for text in &mate.winning_moves {
            let mut after = game.clone();
            after.play(game.parse_move(text).unwrap());
            match after.status() {
                Status::Over { winner, reason: EndReason::Checkmate | EndReason::Stalemate } => {
                    assert_eq!(winner, Some(game.to_move()), "{} {text}", mate.fen)
                }
                other => panic!("{} {text}: {other:?}", mate.fen),
            }
            checked += 1;
        }
    }
    assert!(checked >= 10, "only {checked} mates in one");
}

#[test]
fn legal_captures_are_the_legal_moves_that_capture() {
    use xiangqi_zero::game::xiangqi::MoveList;
    for entry in entries() {
        let game = Xiangqi::from_text(&entry.fen).unwrap();
        let board = game.board();
        let mut captures = MoveList::new();
        board.legal_captures(&mut captures);
        let mut ours: Vec<String> = captures.iter().map(ToString::to_string).collect();
        ours.sort();
        let expected: Vec<String> =
            entry.moves.iter().filter(|m| board.piece_at(game.parse_move(m).unwrap().to).is_some()).cloned().collect();
        assert_eq!(ours, expected, "{}", entry.fen);
    }
}

#[test]
fn the_winning_move_is_a_mate_in_one_exactly_where_there_is_one() {
    let mates: Vec<Mate> = common::read_jsonl("xiangqi-mates-public.jsonl");
    let mut moves = Vec::new();
    let (mut found, mut none) = (0, 0);
    for mate in &mates {
        let game = Xiangqi::from_text(&mate.fen).unwrap();
        game.legal_moves(&mut moves);
        match game.winning_move(&moves).map(|i| moves[i]) {
            Some(mv) => {
                assert_eq!(mate.mate_in, 1, "{}: {mv} wins at once, yet the shortest win is longer", mate.fen);
                assert!(mate.winning_moves.contains(&mv.to_string()), "{}: {mv} is no mate in one", mate.fen);
                found += 1;
            }
            None => {
                assert!(mate.mate_in > 1, "{}: the mate in one {:?} is missed", mate.fen, mate.winning_moves);
                none += 1;
            }
        }
    }
    assert!(found >= 10 && none >= 10, "{found} mates in one, {none} longer mates");
}

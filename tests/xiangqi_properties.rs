//! Properties over random games: the incremental hash equals the hash from scratch, FEN
//! round-trips, and the mirrored position has the mirrored move list.

use proptest::prelude::*;
use xiangqi_zero::game::xiangqi::{Board, Move, MoveList, Xiangqi};
use xiangqi_zero::game::Game;

/// Plays a random game from the start, choosing each move by the next number in `picks`
/// and stopping when no move is left; calls `check` on every position reached.
fn random_game(picks: &[usize], mut check: impl FnMut(&Xiangqi)) {
    let mut game = Xiangqi::start();
    let mut moves = Vec::new();
    for &pick in picks {
        check(&game);
        game.legal_moves(&mut moves);
        if moves.is_empty() {
            return;
        }
        game.play(moves[pick % moves.len()]);
    }
    check(&game);
}

fn sorted_moves(board: &Board) -> Vec<Move> {
    let mut list = MoveList::new();
    board.legal_moves(&mut list);
    let mut moves = list.to_vec();
    moves.sort();
    moves
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn incremental_hash_equals_hash_from_scratch(picks in prop::collection::vec(any::<usize>(), 0..200)) {
        random_game(&picks, |game| assert_eq!(game.board().hash(), game.board().hash_from_scratch()));
    }

    #[test]
    fn legal_moves_are_the_pseudo_legal_moves_that_leave_the_general_safe(picks in prop::collection::vec(any::<usize>(), 0..200)) {
        random_game(&picks, |game| {
            let board = game.board();
            let mut pseudo = MoveList::new();
            board.pseudo_legal_moves(&mut pseudo);
            let mut naive: Vec<Move> = pseudo
                .iter()
                .copied()
                .filter(|&mv| {
                    let mut after = *board;
                    after.play(mv);
                    !after.in_check(board.side_to_move())
                })
                .collect();
            naive.sort();
            assert_eq!(sorted_moves(board), naive, "{}", game.to_text());
        });
    }

    #[test]
    fn fen_round_trips(picks in prop::collection::vec(any::<usize>(), 0..200)) {
        random_game(&picks, |game| {
            let text = game.to_text();
            let again = Xiangqi::from_text(&text).unwrap();
            assert_eq!(again.board(), game.board(), "{text}");
            assert_eq!(again.to_text(), text);
        });
    }

    #[test]
    fn mirrored_position_has_mirrored_moves(picks in prop::collection::vec(any::<usize>(), 0..200)) {
        random_game(&picks, |game| {
            let mut mirrored: Vec<Move> = sorted_moves(game.board()).into_iter().map(Move::mirror).collect();
            mirrored.sort();
            assert_eq!(sorted_moves(&game.board().mirror()), mirrored, "{}", game.to_text());
        });
    }
}

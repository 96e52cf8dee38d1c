//! Fast perft on the bare board: copy-make, and the last ply counted without playing it.

use super::{Board, Move, MoveList};

/// The number of leaves `depth` plies below `board` (repetition is not considered).
pub fn perft(board: &Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => board.count_legal_moves() as u64,
        _ => {
            let mut moves = MoveList::new();
            board.legal_moves(&mut moves);
            moves
                .iter()
                .map(|&mv| {
                    let mut child = *board;
                    child.play(mv);
                    perft(&child, depth - 1)
                })
                .sum()
        }
    }
}

/// Each legal move with the number of leaves below it.
pub fn divide(board: &Board, depth: u32) -> Vec<(Move, u64)> {
    let mut moves = MoveList::new();
    board.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&mv| {
            let mut child = *board;
            child.play(mv);
            (mv, perft(&child, depth.saturating_sub(1)))
        })
        .collect()
}

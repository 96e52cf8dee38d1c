//! Fast perft on the bare board: copy-make, the last ply counted without playing it.
//! A flip counts once per piece it could reveal; a side with no pieces has no children.

use super::{Board, Cell, Move, MoveList};

/// The number of leaves `depth` plies below `board` (repetition and the no-progress
/// limit are not considered).
pub fn perft(board: &Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => board.count_children() as u64,
        _ => {
            let mut moves = MoveList::new();
            board.legal_moves(&mut moves);
            moves.iter().map(|&mv| below(board, mv, depth - 1)).sum()
        }
    }
}

/// Each legal move with the number of leaves below it (a flip's count sums its outcomes).
pub fn divide(board: &Board, depth: u32) -> Vec<(Move, u64)> {
    let mut moves = MoveList::new();
    board.legal_moves(&mut moves);
    moves.iter().map(|&mv| (mv, below(board, mv, depth.saturating_sub(1)))).collect()
}

/// The leaves `depth` plies below the position `mv` leads to, summed over a flip's outcomes.
#[inline]
fn below(board: &Board, mv: Move, depth: u32) -> u64 {
    if mv.is_in_place() && board.cell(mv.from) == Cell::Hidden {
        board
            .pool()
            .outcomes()
            .map(|(piece, _)| {
                let mut child = *board;
                child.flip(mv.from, piece);
                perft(&child, depth)
            })
            .sum()
    } else {
        let mut child = *board;
        child.play(mv);
        perft(&child, depth)
    }
}

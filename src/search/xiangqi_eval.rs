//! Xiangqi evaluation: material and piece-square tables, kept up to date move by move.
//!
//! Each table gives a piece's worth on each square in centipawns, material included,
//! as Red sees the board; a Black piece uses the square mirrored across the river. The
//! value of a position is the sum over Red's pieces minus the sum over Black's.

use crate::game::xiangqi::{Board, Color, Kind, Move, Piece, Square};

/// Tables as printed: ten rows from rank 9 (the far side) down to rank 0 (Red's back
/// rank), files a–i.
type Printed = [[i16; 9]; 10];

const KING: Printed = [
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, -10, -8, -10, 0, 0, 0],
    [0, 0, 0, 2, 4, 2, 0, 0, 0],
    [0, 0, 0, 6, 8, 6, 0, 0, 0],
];

const ADVISOR: Printed = [
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 116, 0, 116, 0, 0, 0],
    [0, 0, 0, 0, 123, 0, 0, 0, 0],
    [0, 0, 0, 120, 0, 120, 0, 0, 0],
];

const ELEPHANT: Printed = [
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 116, 0, 0, 0, 116, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [112, 0, 0, 0, 125, 0, 0, 0, 112],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 120, 0, 0, 0, 120, 0, 0],
];

const HORSE: Printed = [
    [270, 270, 270, 276, 270, 276, 270, 270, 270],
    [270, 278, 290, 282, 276, 282, 290, 278, 270],
    [274, 284, 288, 296, 288, 296, 288, 284, 274],
    [276, 290, 292, 300, 294, 300, 292, 290, 276],
    [272, 286, 288, 294, 296, 294, 288, 286, 272],
    [272, 282, 286, 290, 292, 290, 286, 282, 272],
    [268, 276, 282, 282, 286, 282, 282, 276, 268],
    [266, 272, 276, 276, 280, 276, 276, 272, 266],
    [262, 266, 272, 274, 250, 274, 272, 266, 262],
    [258, 264, 266, 262, 264, 262, 266, 264, 258],
];

const ROOK: Printed = [
    [606, 612, 609, 616, 618, 616, 609, 612, 606],
    [612, 618, 613, 620, 630, 620, 613, 618, 612],
    [606, 612, 609, 616, 618, 616, 609, 612, 606],
    [606, 614, 612, 618, 620, 618, 612, 614, 606],
    [608, 616, 614, 619, 621, 619, 614, 616, 608],
    [608, 613, 611, 617, 619, 617, 611, 613, 608],
    [604, 610, 608, 614, 616, 614, 608, 610, 604],
    [598, 608, 604, 612, 612, 612, 604, 608, 598],
    [600, 608, 606, 614, 600, 614, 606, 608, 600],
    [594, 606, 604, 612, 600, 612, 604, 606, 594],
];

const CANNON: Printed = [
    [290, 290, 286, 282, 280, 282, 286, 290, 290],
    [288, 288, 286, 282, 278, 282, 286, 288, 288],
    [287, 287, 286, 283, 288, 283, 286, 287, 287],
    [286, 286, 286, 286, 290, 286, 286, 286, 286],
    [285, 286, 286, 286, 290, 286, 286, 286, 285],
    [284, 285, 286, 285, 290, 285, 286, 285, 284],
    [284, 284, 285, 285, 288, 285, 285, 284, 284],
    [285, 286, 288, 288, 292, 288, 288, 286, 285],
    [285, 285, 286, 286, 288, 286, 286, 285, 285],
    [286, 286, 286, 287, 286, 287, 286, 286, 286],
];

const PAWN: Printed = [
    [40, 40, 40, 50, 60, 50, 40, 40, 40],
    [70, 90, 110, 130, 140, 130, 110, 90, 70],
    [70, 90, 110, 120, 130, 120, 110, 90, 70],
    [70, 80, 90, 100, 110, 100, 90, 80, 70],
    [60, 65, 70, 80, 85, 80, 70, 65, 60],
    [35, 0, 38, 0, 45, 0, 38, 0, 35],
    [30, 0, 32, 0, 38, 0, 32, 0, 30],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
];

/// The printed table of each kind, in `Kind` order.
const PRINTED: [&Printed; 7] = [&KING, &ADVISOR, &ELEPHANT, &HORSE, &ROOK, &CANNON, &PAWN];

/// For each piece index (Red's kinds then Black's) and square, the piece's worth from
/// Red's view: positive for Red's pieces, negative for Black's.
static TABLE: [[i32; 90]; 14] = {
    let mut table = [[0i32; 90]; 14];
    let mut kind = 0;
    while kind < 7 {
        let mut sq = 0;
        while sq < 90 {
            let (file, rank) = (sq % 9, sq / 9);
            table[kind][sq] = PRINTED[kind][9 - rank][file] as i32;
            // Black's rank r is Red's rank 9 - r, which is printed on row r.
            table[7 + kind][sq] = -(PRINTED[kind][rank][file] as i32);
            sq += 1;
        }
        kind += 1;
    }
    table
};

/// A rough material value per kind, for ordering captures and pruning in quiescence.
pub(crate) const fn material(kind: Kind) -> i32 {
    match kind {
        Kind::King => 5000,
        Kind::Advisor | Kind::Elephant => 120,
        Kind::Horse => 280,
        Kind::Rook => 610,
        Kind::Cannon => 285,
        Kind::Pawn => 60,
    }
}

/// The worth of `piece` on `sq` from Red's view.
#[inline]
pub(crate) fn piece_value(piece: Piece, sq: Square) -> i32 {
    TABLE[piece.index()][sq.index()]
}

/// The value of `board` from Red's view, from scratch.
pub(crate) fn evaluate(board: &Board) -> i32 {
    board.pieces().map(|(sq, piece)| piece_value(piece, sq)).sum()
}

/// How `mv` of `piece`, capturing `captured`, changes the value from Red's view.
#[inline]
pub(crate) fn delta(piece: Piece, mv: Move, captured: Option<Piece>) -> i32 {
    let moved = piece_value(piece, mv.to) - piece_value(piece, mv.from);
    match captured {
        Some(victim) => moved - piece_value(victim, mv.to),
        None => moved,
    }
}

/// A value from Red's view seen by `side`.
#[inline]
pub(crate) fn for_side(red_value: i32, side: Color) -> i32 {
    match side {
        Color::Red => red_value,
        Color::Black => -red_value,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_is_balanced() {
        assert_eq!(evaluate(&Board::start()), 0);
    }

    #[test]
    fn tables_are_symmetric_left_to_right() {
        for table in PRINTED {
            for row in table {
                for file in 0..9 {
                    assert_eq!(row[file], row[8 - file]);
                }
            }
        }
    }

    #[test]
    fn pieces_stand_on_squares_with_values() {
        // Every square a piece can reach has a positive worth (the king's is 0 by design).
        let board = Board::start();
        for (sq, piece) in board.pieces() {
            if piece.kind() != Kind::King {
                assert_ne!(piece_value(piece, sq), 0, "{piece:?} on {sq}");
            }
        }
    }
}

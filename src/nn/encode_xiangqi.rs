//! The Xiangqi encoding: 17 planes of 10 × 9 from the side to move's point of view
//! (the board turned 180° when Black moves), and 2086 from-to policy labels in that view.
//!
//! Planes: 0–6 the mover's General, Advisors, Elephants, Horses, Chariots, Cannons and
//! Soldiers; 7–13 the opponent's; 14 earlier occurrences of the position (0, ½, 1);
//! 15 plies without a capture over the no-capture limit; 16 all ones (shows the conv
//! where the board ends). Symmetry 1 is the left-right mirror.

use std::sync::LazyLock;

use super::labels::PairLabels;
use super::Encoding;
use crate::game::xiangqi::{Color, Move, Square, Xiangqi};

/// Files of the board: plane width.
const FILES: usize = 9;
/// Ranks of the board: plane height.
const RANKS: usize = 10;
/// Squares of the board: cells of a plane.
const CELLS: usize = FILES * RANKS;
/// The first rule plane, after the 14 piece planes.
const RULE_PLANES: usize = 14;

/// The 2086 from-to pairs any piece can ever make, and the mirror of each.
struct Labels {
    pairs: PairLabels,
    mirror: Vec<u16>,
}

static LABELS: LazyLock<Labels> = LazyLock::new(|| {
    let pairs = PairLabels::new(CELLS, |from, to| geometric_move(coords(from), coords(to)));
    let mirror = pairs.permuted(mirror_cell);
    Labels { pairs, mirror }
});

/// (file, rank) of square index `sq`.
fn coords(sq: usize) -> (i32, i32) {
    ((sq % FILES) as i32, (sq / FILES) as i32)
}

/// The square index seen in a mirror down the middle file.
fn mirror_cell(sq: usize) -> usize {
    sq - sq % FILES + (FILES - 1 - sq % FILES)
}

/// Whether some piece could ever move from `from` to `to` (as (file, rank)): along a
/// rank or file (Chariot, Cannon, and the steps of General and Soldier), a Horse's jump,
/// an Advisor's diagonal step in a palace, or an Elephant's diagonal jump on its half.
fn geometric_move(from: (i32, i32), to: (i32, i32)) -> bool {
    let (df, dr) = ((to.0 - from.0).abs(), (to.1 - from.1).abs());
    let line = (df == 0) != (dr == 0);
    let horse = (df, dr) == (1, 2) || (df, dr) == (2, 1);
    let palace = |(f, r): (i32, i32)| (3..=5).contains(&f) && (r <= 2 || r >= 7);
    let palace_centre = |(f, r): (i32, i32)| f == 4 && (r == 1 || r == 8);
    let advisor = df == 1 && dr == 1 && palace(from) && palace(to) && (palace_centre(from) || palace_centre(to));
    let elephant_square = |(f, r): (i32, i32)| {
        let own_rank = if r <= 4 { r } else { 9 - r };
        f % 2 == 0 && own_rank % 2 == 0 && (f + own_rank) % 4 == 2
    };
    let same_half = (from.1 <= 4) == (to.1 <= 4);
    let elephant = df == 2 && dr == 2 && same_half && elephant_square(from) && elephant_square(to);
    line || horse || advisor || elephant
}

impl Xiangqi {
    /// The square as the side to move sees it (turned 180° when Black moves).
    fn view(&self, sq: Square) -> usize {
        match self.board().side_to_move() {
            Color::Red => sq.index(),
            Color::Black => sq.rotate().index(),
        }
    }
}

impl Encoding for Xiangqi {
    const PLANES: usize = 17;
    const HEIGHT: usize = RANKS;
    const WIDTH: usize = FILES;
    const POLICY_SIZE: usize = 2086;
    const SYMMETRIES: usize = 2;

    fn encode(&self, out: &mut [f32]) {
        let out = &mut out[..Self::INPUT_SIZE];
        out.fill(0.0);
        let board = self.board();
        let us = board.side_to_move();
        for (sq, piece) in board.pieces() {
            let side = if piece.color() == us { 0 } else { 7 };
            let plane = side + piece.kind() as usize - 1;
            out[plane * CELLS + self.view(sq)] = 1.0;
        }
        let repetitions = self.repetitions().min(2) as f32 / 2.0;
        let limit = self.rules().no_capture_plies.max(1);
        let no_capture = self.plies_since_capture().min(limit) as f32 / limit as f32;
        let rules = &mut out[RULE_PLANES * CELLS..];
        rules[..CELLS].fill(repetitions);
        rules[CELLS..2 * CELLS].fill(no_capture);
        rules[2 * CELLS..3 * CELLS].fill(1.0);
    }

    fn move_label(&self, mv: Move) -> usize {
        LABELS.pairs.label(self.view(mv.from), self.view(mv.to)).expect("every Xiangqi move has a label")
    }

    fn label_move(&self, label: usize) -> Move {
        let (from, to) = LABELS.pairs.pair(label);
        let square = |view: usize| {
            let sq = Square::from_index(view).expect("labels name squares of the board");
            match self.board().side_to_move() {
                Color::Red => sq,
                Color::Black => sq.rotate(),
            }
        };
        Move::new(square(from), square(to))
    }

    fn label_cells() -> &'static [(u8, u8)] {
        LABELS.pairs.pairs()
    }

    fn symmetry_cell(sym: usize, cell: usize) -> usize {
        if sym == 0 {
            cell
        } else {
            mirror_cell(cell)
        }
    }

    fn symmetry_label(sym: usize, label: usize) -> usize {
        if sym == 0 {
            label
        } else {
            LABELS.mirror[label] as usize
        }
    }
}

/// How many labels the enumeration of every geometrically possible move gives (2086).
pub fn label_count() -> usize {
    LABELS.pairs.len()
}

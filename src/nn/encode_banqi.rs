//! The Banqi encoding: 34 planes of 8 × 4 and 352 policy labels (32 in-place moves —
//! flips, or ending a chain capture — and 320 from-to pairs along a rank or file).
//!
//! Planes: 0–6 the mover's face-up General, Advisors, Elephants, Chariots, Horses,
//! Cannons and Soldiers; 7–13 the opponent's; 14 face-down squares; 15 empty squares;
//! 16–29 the hidden pool, the mover's 7 kinds then the opponent's, each count over the
//! full set's, broadcast; 30 plies without progress over the limit; 31 earlier
//! occurrences of the position (0, ½, 1); 32 the square of a chain capture in progress;
//! 33 all ones. Before the first flip nothing is face-up and the pool is whole, so the
//! mover counts as Red. The board is not turned: its four symmetries (identity,
//! left-right, up-down, both: bit 0 mirrors files, bit 1 ranks) are all the game's.

use std::sync::LazyLock;

use super::labels::PairLabels;
use super::Encoding;
use crate::game::banqi::{Banqi, Cell, Color, Kind, Move, Square};

/// Files of the board: plane width.
const FILES: usize = 4;
/// Ranks of the board: plane height.
const RANKS: usize = 8;
/// Squares of the board: cells of a plane.
const CELLS: usize = FILES * RANKS;
/// The first pool plane.
const POOL_PLANES: usize = 16;
/// The first rule plane, after the pool planes.
const RULE_PLANES: usize = 30;

/// The 352 labels, and where each of the 4 symmetries sends each of them.
struct Labels {
    pairs: PairLabels,
    symmetric: [Vec<u16>; 4],
}

static LABELS: LazyLock<Labels> = LazyLock::new(|| {
    let same_line = |from: usize, to: usize| from == to || from % FILES == to % FILES || from / FILES == to / FILES;
    let pairs = PairLabels::new(CELLS, same_line);
    let symmetric = std::array::from_fn(|sym| pairs.permuted(|sq| symmetric_cell(sym, sq)));
    Labels { pairs, symmetric }
});

/// Where symmetry `sym` sends square index `sq`: bit 0 mirrors files, bit 1 ranks.
fn symmetric_cell(sym: usize, sq: usize) -> usize {
    let (mut file, mut rank) = (sq % FILES, sq / FILES);
    if sym & 1 != 0 {
        file = FILES - 1 - file;
    }
    if sym & 2 != 0 {
        rank = RANKS - 1 - rank;
    }
    rank * FILES + file
}

impl Encoding for Banqi {
    const PLANES: usize = 34;
    const HEIGHT: usize = RANKS;
    const WIDTH: usize = FILES;
    const POLICY_SIZE: usize = 352;
    const SYMMETRIES: usize = 4;

    fn encode(&self, out: &mut [f32]) {
        let out = &mut out[..Self::INPUT_SIZE];
        out.fill(0.0);
        let board = self.board();
        let us = board.side_to_move().unwrap_or(Color::Red);
        for sq in Square::all() {
            let plane = match board.cell(sq) {
                Cell::Piece(piece) => (if piece.color() == us { 0 } else { 7 }) + piece.kind().index(),
                Cell::Hidden => 14,
                Cell::Empty => 15,
            };
            out[plane * CELLS + sq.index()] = 1.0;
        }
        let pool = board.pool();
        for (side, color) in [us, us.opponent()].into_iter().enumerate() {
            for (kind, &count) in Kind::ALL.iter().zip(&pool.counts_of(color)) {
                let plane = POOL_PLANES + side * 7 + kind.index();
                out[plane * CELLS..(plane + 1) * CELLS].fill(count as f32 / kind.full_count() as f32);
            }
        }
        let limit = self.rules().no_progress_plies.max(1);
        let no_progress = self.counters().since_progress.min(limit) as f32 / limit as f32;
        let repetitions = self.repetitions().min(2) as f32 / 2.0;
        let rules = &mut out[RULE_PLANES * CELLS..];
        rules[..CELLS].fill(no_progress);
        rules[CELLS..2 * CELLS].fill(repetitions);
        if let Some(sq) = board.chain_square() {
            rules[2 * CELLS + sq.index()] = 1.0;
        }
        rules[3 * CELLS..4 * CELLS].fill(1.0);
    }

    fn move_label(&self, mv: Move) -> usize {
        LABELS.pairs.label(mv.from.index(), mv.to.index()).expect("every Banqi move has a label")
    }

    fn label_move(&self, label: usize) -> Move {
        let (from, to) = LABELS.pairs.pair(label);
        let square = |index| Square::from_index(index).expect("labels name squares of the board");
        Move::new(square(from), square(to))
    }

    fn label_cells() -> &'static [(u8, u8)] {
        LABELS.pairs.pairs()
    }

    fn symmetry_cell(sym: usize, cell: usize) -> usize {
        symmetric_cell(sym, cell)
    }

    fn symmetry_label(sym: usize, label: usize) -> usize {
        LABELS.symmetric[sym][label] as usize
    }
}

/// How many labels the enumeration of in-place and same-line pairs gives (352).
pub fn label_count() -> usize {
    LABELS.pairs.len()
}

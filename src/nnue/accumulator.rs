//! The accumulator: for each side's view, the first layer's sums over its active
//! features (int16), kept up to date move by move — the "efficiently updatable" part of
//! the net. A move subtracts the rows of the features it removes and adds those it adds
//! (two or three per view); a move of a side's own general changes that side's bucket,
//! so its view is summed afresh. The direct (PSQT) weights are summed beside them.

use super::features::View;
use super::net::Nnue;
use super::shape::L1;
use super::widened::widened;
use crate::game::xiangqi::{Board, Color, Kind, Move};

/// The first layer's sums of both sides' views (indexed by [`Color::index`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(C, align(64))]
pub struct Accumulator {
    /// Each side's sums: the bias plus the rows of its active features.
    pub sums: [[i16; L1]; 2],
    /// Each side's sum of its active features' direct weights.
    pub psqt: [i32; 2],
}

impl Accumulator {
    /// Both views of `board`, summed from scratch.
    pub fn new(net: &Nnue, board: &Board) -> Accumulator {
        let mut accumulator = Accumulator { sums: [[0; L1]; 2], psqt: [0; 2] };
        for side in [Color::Red, Color::Black] {
            accumulator.refresh(net, board, side);
        }
        accumulator
    }

    /// The sums of `side`'s view, then the other side's, then the difference of their
    /// direct sums: the net's input with `side` to move.
    #[inline]
    pub fn views(&self, side: Color) -> (&[i16; L1], &[i16; L1], i32) {
        let (us, them) = (side.index(), side.opponent().index());
        (&self.sums[us], &self.sums[them], self.psqt[us] - self.psqt[them])
    }

    /// The net's value (centipawns) of the position of this accumulator, `side` to move.
    #[inline]
    pub fn evaluate(&self, net: &Nnue, side: Color) -> i32 {
        let (ours, theirs, psqt) = self.views(side);
        net.evaluate(ours, theirs, psqt)
    }

    /// The net's output (a logit) for the position of this accumulator, `side` to move.
    pub fn output(&self, net: &Nnue, side: Color) -> f32 {
        let (ours, theirs, psqt) = self.views(side);
        net.output(ours, theirs, psqt)
    }

    /// Sums `side`'s view of `board` from scratch.
    #[inline(always)]
    fn refresh(&mut self, net: &Nnue, board: &Board, side: Color) {
        let sums = &mut self.sums[side.index()];
        *sums = *net.feature_bias();
        let mut psqt = 0;
        for feature in View::of(board, side).active(board) {
            add(sums, net.feature_row(feature));
            psqt += net.psqt_weight(feature);
        }
        self.psqt[side.index()] = psqt;
    }

    /// The accumulator after `mv` is played on `board`, giving `child`: with AVX-512 or
    /// AVX2 where the CPU has them (the same sums, in wider registers).
    #[inline]
    pub fn after(&self, net: &Nnue, board: &Board, mv: Move, child: &Board) -> Accumulator {
        after_widened(self, net, board, mv, child)
    }

    /// [`Self::after`] for any CPU (inlined into the wider versions).
    #[inline(always)]
    fn after_plain(&self, net: &Nnue, board: &Board, mv: Move, child: &Board) -> Accumulator {
        let piece = board.piece_at(mv.from).expect("a move moves a piece");
        let captured = board.piece_at(mv.to);
        let mut next = *self;
        for side in [Color::Red, Color::Black] {
            if piece.kind() == Kind::King && piece.color() == side {
                next.refresh(net, child, side);
                continue;
            }
            let view = View::of(child, side);
            let sums = &mut next.sums[side.index()];
            let (from, to) = (view.feature(piece, mv.from), view.feature(piece, mv.to));
            let psqt = &mut next.psqt[side.index()];
            *psqt += net.psqt_weight(to) - net.psqt_weight(from);
            match captured {
                Some(victim) => {
                    let victim = view.feature(victim, mv.to);
                    *psqt -= net.psqt_weight(victim);
                    move_and_remove(sums, net.feature_row(from), net.feature_row(to), net.feature_row(victim));
                }
                None => move_piece(sums, net.feature_row(from), net.feature_row(to)),
            }
        }
        next
    }
}

widened! {
    /// [`Accumulator::after`], as wide as the CPU allows.
    fn after_widened(accumulator: &Accumulator, net: &Nnue, board: &Board, mv: Move, child: &Board) -> Accumulator
        = Accumulator::after_plain;
}

/// `sums += row`.
#[inline(always)]
fn add(sums: &mut [i16; L1], row: &[i16; L1]) {
    for (s, r) in sums.iter_mut().zip(row) {
        *s = s.wrapping_add(*r);
    }
}

/// `sums += to − from`: a piece moved.
#[inline(always)]
fn move_piece(sums: &mut [i16; L1], from: &[i16; L1], to: &[i16; L1]) {
    for i in 0..L1 {
        sums[i] = sums[i].wrapping_add(to[i].wrapping_sub(from[i]));
    }
}

/// `sums += to − from − victim`: a piece moved and took another.
#[inline(always)]
fn move_and_remove(sums: &mut [i16; L1], from: &[i16; L1], to: &[i16; L1], victim: &[i16; L1]) {
    for i in 0..L1 {
        sums[i] = sums[i].wrapping_add(to[i].wrapping_sub(from[i]).wrapping_sub(victim[i]));
    }
}

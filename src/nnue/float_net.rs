//! The net in f32, as the trainer holds it: what [`super::Nnue::quantize`] turns into the
//! integer net the search runs, and the reference its integers are checked against.
//!
//! Beside the layers, each feature has a weight added straight to the output (Stockfish's
//! "PSQT" term): half the side to move's view's sum less half the other's. A fresh net
//! starts it at the hand-written piece-square tables, so that the net begins as good a
//! judge of material as the classical evaluation and learns what they miss.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::features::{feature_index, View, FEATURES, KING_BUCKETS};
use super::shape::{CENTIPAWNS_PER_UNIT, L1, L2, L3};
use crate::game::xiangqi::{Board, Piece, Square};
use crate::search::evaluation::piece_square_value;

/// The net's parameters in f32, row-major (`[outputs][inputs]`).
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    /// The first layer: one row of `L1` per feature.
    pub feature_weights: Vec<f32>,
    /// The first layer's bias.
    pub feature_bias: Vec<f32>,
    /// `[L2][2·L1]`: the side to move's view then the other's.
    pub hidden1_weights: Vec<f32>,
    /// `[L2]`.
    pub hidden1_bias: Vec<f32>,
    /// `[L3][L2]`.
    pub hidden2_weights: Vec<f32>,
    /// `[L3]`.
    pub hidden2_bias: Vec<f32>,
    /// `[L3]`.
    pub output_weights: Vec<f32>,
    /// The output's bias.
    pub output_bias: f32,
    /// Each feature's weight added straight to the output (halved, the other view's
    /// subtracted).
    pub psqt_weights: Vec<f32>,
}

impl FloatNet {
    /// A net drawn at random as training starts: each layer uniform in ±1/√fan-in (the
    /// first layer's fan-in counted as the pieces on a full board), biases the first
    /// layer's a half (so its clipped units start in their linear range), the others 0;
    /// the direct term the hand-written tables.
    pub fn random(seed: u64) -> FloatNet {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut draw = |count: usize, fan_in: usize| -> Vec<f32> {
            let bound = 1.0 / (fan_in as f32).sqrt();
            (0..count).map(|_| rng.random_range(-bound..bound)).collect()
        };
        FloatNet {
            feature_weights: draw(FEATURES * L1, 32),
            feature_bias: vec![0.5; L1],
            hidden1_weights: draw(L2 * 2 * L1, 2 * L1),
            hidden1_bias: vec![0.0; L2],
            hidden2_weights: draw(L3 * L2, L2),
            hidden2_bias: vec![0.0; L3],
            output_weights: draw(L3, L3),
            output_bias: 0.0,
            psqt_weights: tables(),
        }
    }

    /// The output (the logit of the side to move's expected score) for `board`, in f32.
    pub fn output(&self, board: &Board) -> f32 {
        let side = board.side_to_move();
        let mut input = Vec::with_capacity(2 * L1);
        let mut psqt = [0.0f32; 2];
        for (v, view) in [side, side.opponent()].into_iter().enumerate() {
            psqt[v] = View::of(board, view).active(board).map(|feature| self.psqt_weights[feature]).sum();
            let mut sums = self.feature_bias.clone();
            for feature in View::of(board, view).active(board) {
                for (s, w) in sums.iter_mut().zip(&self.feature_weights[feature * L1..][..L1]) {
                    *s += w;
                }
            }
            input.extend(sums.iter().map(|s| s.clamp(0.0, 1.0)));
        }
        let hidden1 = dense(&self.hidden1_weights, &self.hidden1_bias, &input);
        let hidden2 = dense(&self.hidden2_weights, &self.hidden2_bias, &hidden1);
        hidden2.iter().zip(&self.output_weights).map(|(x, w)| x * w).sum::<f32>()
            + self.output_bias
            + (psqt[0] - psqt[1]) / 2.0
    }
}

/// The hand-written tables as direct weights, in the output's units: in every bucket, a
/// piece's worth on a square as the side sees the board (the side's own pieces as Red's,
/// from its back rank; the other side's as Black's), its own positive.
fn tables() -> Vec<f32> {
    let mut weights = vec![0.0; FEATURES];
    for bucket in 0..KING_BUCKETS {
        for relative in 0..14 {
            let piece = Piece::from_index(relative).expect("14 pieces");
            for sq in Square::all() {
                weights[feature_index(bucket, relative, sq)] =
                    piece_square_value(piece, sq) as f32 / CENTIPAWNS_PER_UNIT;
            }
        }
    }
    weights
}

/// A clipped-ReLU dense layer: `clamp(weights · input + bias, 0, 1)`.
fn dense(weights: &[f32], bias: &[f32], input: &[f32]) -> Vec<f32> {
    bias.iter()
        .zip(weights.chunks_exact(input.len()))
        .map(|(b, row)| (b + row.iter().zip(input).map(|(w, x)| w * x).sum::<f32>()).clamp(0.0, 1.0))
        .collect()
}

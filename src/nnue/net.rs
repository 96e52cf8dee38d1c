//! The quantized net the search runs: the first layer (features × `L1`, int16) feeds
//! the accumulator; the side to move's sums then the other side's, clipped to 0–127,
//! go through two int8 layers of 32 ([`super::dense`]) and a last f32 layer to one value.
//!
//! Scales (as Stockfish's): the first layer's weights and bias are the float ones ×127,
//! so its clipped sums are the float activations (0–1) ×127; the int8 layers' weights are
//! ×64 and their biases ×127·64, and each output shifted right by 6 is again ×127. The
//! direct (PSQT) weights are int32, ×127·64 as well.

use super::dense::{DenseWeights, OUTPUTS};
use super::float_net::FloatNet;
use super::shape::{CENTIPAWNS_PER_UNIT, L1, L2, L3};
use super::widened::widened;

/// The first layer's quantization: float × this.
pub const FEATURE_SCALE: f32 = 127.0;
/// The int8 layers' weights' quantization: float × this.
pub const WEIGHT_SCALE: f32 = 64.0;
/// The largest value (in centipawns) the net returns, well inside the search's mate scores.
const MAX_VALUE: i32 = 20_000;

/// A quantized NNUE for Xiangqi.
#[derive(Clone, Debug, PartialEq)]
pub struct Nnue {
    pub(super) feature_weights: Vec<[i16; L1]>,
    pub(super) feature_bias: [i16; L1],
    pub(super) hidden1: DenseWeights,
    pub(super) hidden1_bias: [i32; L2],
    pub(super) hidden2: DenseWeights,
    pub(super) hidden2_bias: [i32; L3],
    pub(super) output_weights: [f32; L3],
    pub(super) output_bias: f32,
    pub(super) psqt_weights: Vec<i32>,
    /// Where the net comes from (the run, its data), as its file records it.
    pub provenance: String,
}

impl Nnue {
    /// The float net quantized, with its provenance.
    pub fn quantize(float: &FloatNet, provenance: &str) -> Nnue {
        let to_i16 = |x: f32| (x * FEATURE_SCALE).round().clamp(i16::MIN as f32, i16::MAX as f32) as i16;
        let to_i8 = |x: f32| (x * WEIGHT_SCALE).round().clamp(-127.0, 127.0) as i8;
        let bias = |x: f32| (x * FEATURE_SCALE * WEIGHT_SCALE).round() as i32;
        Nnue {
            feature_weights: float
                .feature_weights
                .chunks_exact(L1)
                .map(|row| std::array::from_fn(|i| to_i16(row[i])))
                .collect(),
            feature_bias: std::array::from_fn(|i| to_i16(float.feature_bias[i])),
            hidden1: DenseWeights::from_rows(
                &float.hidden1_weights.iter().map(|&w| to_i8(w)).collect::<Vec<_>>(),
                2 * L1,
            ),
            hidden1_bias: std::array::from_fn(|i| bias(float.hidden1_bias[i])),
            hidden2: DenseWeights::from_rows(&float.hidden2_weights.iter().map(|&w| to_i8(w)).collect::<Vec<_>>(), L2),
            hidden2_bias: std::array::from_fn(|i| bias(float.hidden2_bias[i])),
            output_weights: std::array::from_fn(|i| float.output_weights[i]),
            output_bias: float.output_bias,
            psqt_weights: float.psqt_weights.iter().map(|&w| bias(w)).collect(),
            provenance: provenance.to_string(),
        }
    }

    /// The float net these integers stand for (each weight divided by its scale): the
    /// quantization's round trip, checked by the tests.
    pub fn dequantize(&self) -> FloatNet {
        let feature = |w: &i16| *w as f32 / FEATURE_SCALE;
        let weight = |w: &i8| *w as f32 / WEIGHT_SCALE;
        let bias = |b: &i32| *b as f32 / (FEATURE_SCALE * WEIGHT_SCALE);
        FloatNet {
            feature_weights: self.feature_weights.iter().flatten().map(feature).collect(),
            feature_bias: self.feature_bias.iter().map(feature).collect(),
            hidden1_weights: self.hidden1.rows().iter().map(weight).collect(),
            hidden1_bias: self.hidden1_bias.iter().map(bias).collect(),
            hidden2_weights: self.hidden2.rows().iter().map(weight).collect(),
            hidden2_bias: self.hidden2_bias.iter().map(bias).collect(),
            output_weights: self.output_weights.to_vec(),
            output_bias: self.output_bias,
            psqt_weights: self.psqt_weights.iter().map(bias).collect(),
        }
    }

    /// The first layer's row of `feature`.
    #[inline]
    pub fn feature_row(&self, feature: usize) -> &[i16; L1] {
        &self.feature_weights[feature]
    }

    /// The direct (PSQT) weight of `feature`.
    #[inline]
    pub fn psqt_weight(&self, feature: usize) -> i32 {
        self.psqt_weights[feature]
    }

    /// The first layer's bias.
    #[inline]
    pub fn feature_bias(&self) -> &[i16; L1] {
        &self.feature_bias
    }

    /// The net's output from the first layer's sums of the side to move's view (`ours`)
    /// and the other side's (`theirs`) and the difference of their direct sums (`psqt`):
    /// the logit of the side to move's expected score. Run with AVX-512 or AVX2 where the
    /// CPU has them, to the same bits as without.
    #[inline]
    pub fn output(&self, ours: &[i16; L1], theirs: &[i16; L1], psqt: i32) -> f32 {
        output_widened(self, ours, theirs, psqt)
    }

    /// [`Self::output`] for any CPU (inlined into the wider versions).
    #[inline(always)]
    fn output_plain(&self, ours: &[i16; L1], theirs: &[i16; L1], psqt: i32) -> f32 {
        let mut input = [0u8; 2 * L1];
        let (first, second) = input.split_at_mut(L1);
        clip(ours, first);
        clip(theirs, second);
        let hidden1 = shift_clip(self.hidden1.apply(&input, &self.hidden1_bias));
        let hidden2 = shift_clip(self.hidden2.apply(&hidden1, &self.hidden2_bias));
        dot(&hidden2, &self.output_weights) / FEATURE_SCALE
            + self.output_bias
            + psqt as f32 / (2.0 * FEATURE_SCALE * WEIGHT_SCALE)
    }

    /// [`Self::output`] in centipawns, as the search reads it.
    #[inline]
    pub fn evaluate(&self, ours: &[i16; L1], theirs: &[i16; L1], psqt: i32) -> i32 {
        ((self.output(ours, theirs, psqt) * CENTIPAWNS_PER_UNIT).round() as i32).clamp(-MAX_VALUE, MAX_VALUE)
    }
}

widened! {
    /// [`Nnue::output`], as wide as the CPU allows.
    fn output_widened(net: &Nnue, ours: &[i16; L1], theirs: &[i16; L1], psqt: i32) -> f32 = Nnue::output_plain;
}

/// The first layer's clipped ReLU: each sum clamped to 0–127.
#[inline(always)]
fn clip(sums: &[i16; L1], out: &mut [u8]) {
    for (o, &s) in out.iter_mut().zip(sums) {
        *o = s.clamp(0, 127) as u8;
    }
}

/// An int8 layer's output back to the activations' scale (÷64), clamped to 0–127.
#[inline(always)]
fn shift_clip(sums: [i32; OUTPUTS]) -> [u8; OUTPUTS] {
    std::array::from_fn(|i| (sums[i] >> 6).clamp(0, 127) as u8)
}

/// The last layer's sum of `x` times `weights`, in sixteen running sums (every
/// sixteenth product each) added up pairwise: one fixed order of the additions, which
/// the compiler keeps in vector registers as it is.
#[inline(always)]
fn dot(x: &[u8; L3], weights: &[f32; L3]) -> f32 {
    let mut lanes = [0f32; 16];
    for (i, (&x, &w)) in x.iter().zip(weights).enumerate() {
        lanes[i % 16] += x as f32 * w;
    }
    let mut width = 16;
    while width > 1 {
        width /= 2;
        for i in 0..width {
            lanes[i] += lanes[i + width];
        }
    }
    lanes[0]
}

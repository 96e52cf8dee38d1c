//! The NNUE as a burn module, for training: the first layer a table gathered by each
//! view's active features (an embedding summed over the pieces), then the clipped
//! layers. The int8 layers' weights are clamped in the forward pass to what int8 holds
//! (±127/64), so the trained net is the one that quantizes.

use burn::module::{Module, Param};
use burn::tensor::module::embedding;
use burn::tensor::{Device, Int, Tensor, TensorData};

use super::features::{View, FEATURES, MAX_ACTIVE};
use super::float_net::FloatNet;
use super::net::WEIGHT_SCALE;
use super::shape::{L1, L2, L3};
use crate::game::xiangqi::Board;

/// The NNUE's parameters as burn tensors (the dense layers' weights `[inputs, outputs]`).
#[derive(Module, Debug)]
pub struct NnueModel {
    feature_weights: Param<Tensor<2>>,
    feature_bias: Param<Tensor<1>>,
    hidden1_weights: Param<Tensor<2>>,
    hidden1_bias: Param<Tensor<1>>,
    hidden2_weights: Param<Tensor<2>>,
    hidden2_bias: Param<Tensor<1>>,
    output_weights: Param<Tensor<2>>,
    output_bias: Param<Tensor<1>>,
    psqt_weights: Param<Tensor<2>>,
}

/// A batch of positions as the model reads them: each view's active features (padded)
/// with a mask of the real ones.
pub struct Inputs {
    ours: Tensor<2, Int>,
    ours_mask: Tensor<3>,
    theirs: Tensor<2, Int>,
    theirs_mask: Tensor<3>,
}

impl Inputs {
    /// The inputs of `boards` on `device`: the side to move's view, then the other's.
    pub fn new(boards: &[&Board], device: &Device) -> Inputs {
        let n = boards.len();
        let mut features = [vec![0i64; n * MAX_ACTIVE], vec![0i64; n * MAX_ACTIVE]];
        let mut masks = [vec![0f32; n * MAX_ACTIVE], vec![0f32; n * MAX_ACTIVE]];
        for (i, board) in boards.iter().enumerate() {
            let side = board.side_to_move();
            for (v, view) in [side, side.opponent()].into_iter().enumerate() {
                for (k, feature) in View::of(board, view).active(board).enumerate() {
                    features[v][i * MAX_ACTIVE + k] = feature as i64;
                    masks[v][i * MAX_ACTIVE + k] = 1.0;
                }
            }
        }
        let [ours, theirs] = features.map(|f| Tensor::from_data(TensorData::new(f, [n, MAX_ACTIVE]), device));
        let [ours_mask, theirs_mask] = masks.map(|m| Tensor::from_data(TensorData::new(m, [n, MAX_ACTIVE, 1]), device));
        Inputs { ours, ours_mask, theirs, theirs_mask }
    }
}

/// A parameter of `shape` holding `values`.
fn param<const D: usize>(values: &[f32], shape: [usize; D], device: &Device) -> Param<Tensor<D>> {
    Param::from_tensor(Tensor::from_data(TensorData::new(values.to_vec(), shape), device))
}

/// `[rows][columns]` row-major values transposed to `[columns][rows]`.
fn transpose(values: &[f32], rows: usize, columns: usize) -> Vec<f32> {
    (0..columns * rows).map(|i| values[(i % rows) * columns + i / rows]).collect()
}

/// A tensor's values.
fn values<const D: usize>(tensor: &Param<Tensor<D>>) -> Vec<f32> {
    tensor.val().into_data().try_to_vec::<f32>().expect("the model computes in f32")
}

impl NnueModel {
    /// The model holding `net`'s values, on `device`.
    pub fn new(net: &FloatNet, device: &Device) -> NnueModel {
        NnueModel {
            feature_weights: param(&net.feature_weights, [FEATURES, L1], device),
            feature_bias: param(&net.feature_bias, [L1], device),
            hidden1_weights: param(&transpose(&net.hidden1_weights, L2, 2 * L1), [2 * L1, L2], device),
            hidden1_bias: param(&net.hidden1_bias, [L2], device),
            hidden2_weights: param(&transpose(&net.hidden2_weights, L3, L2), [L2, L3], device),
            hidden2_bias: param(&net.hidden2_bias, [L3], device),
            output_weights: param(&net.output_weights, [L3, 1], device),
            output_bias: param(&[net.output_bias], [1], device),
            psqt_weights: param(&net.psqt_weights, [FEATURES, 1], device),
        }
    }

    /// The model's values as a float net (the int8 layers' weights clamped as the forward
    /// pass reads them).
    pub fn to_float(&self) -> FloatNet {
        let clamped = |values: Vec<f32>| values.into_iter().map(|w| w.clamp(-LIMIT, LIMIT)).collect::<Vec<_>>();
        FloatNet {
            feature_weights: values(&self.feature_weights),
            feature_bias: values(&self.feature_bias),
            hidden1_weights: clamped(transpose(&values(&self.hidden1_weights), 2 * L1, L2)),
            hidden1_bias: values(&self.hidden1_bias),
            hidden2_weights: clamped(transpose(&values(&self.hidden2_weights), L2, L3)),
            hidden2_bias: values(&self.hidden2_bias),
            output_weights: values(&self.output_weights),
            output_bias: values(&self.output_bias)[0],
            psqt_weights: values(&self.psqt_weights),
        }
    }

    /// The outputs `[batch, 1]` (logits of the side to move's expected score).
    pub fn forward(&self, inputs: &Inputs) -> Tensor<2> {
        // The sum of each position's rows of `table` `[features, width]`: `[batch, width]`.
        let gathered = |table: Tensor<2>, features: &Tensor<2, Int>, mask: &Tensor<3>| {
            let rows = embedding(table, features.clone()) * mask.clone();
            let [batch, _, width] = rows.dims();
            rows.sum_dim(1).reshape([batch, width])
        };
        let view = |features: &Tensor<2, Int>, mask: &Tensor<3>| {
            let sums = gathered(self.feature_weights.val(), features, mask) + self.feature_bias.val().unsqueeze_dim(0);
            sums.clamp(0.0, 1.0)
        };
        let psqt = gathered(self.psqt_weights.val(), &inputs.ours, &inputs.ours_mask)
            - gathered(self.psqt_weights.val(), &inputs.theirs, &inputs.theirs_mask);
        let x = Tensor::cat(vec![view(&inputs.ours, &inputs.ours_mask), view(&inputs.theirs, &inputs.theirs_mask)], 1);
        let dense = |x: Tensor<2>, weights: &Param<Tensor<2>>, bias: &Param<Tensor<1>>| {
            (x.matmul(weights.val().clamp(-LIMIT, LIMIT)) + bias.val().unsqueeze_dim(0)).clamp(0.0, 1.0)
        };
        let x = dense(x, &self.hidden1_weights, &self.hidden1_bias);
        let x = dense(x, &self.hidden2_weights, &self.hidden2_bias);
        x.matmul(self.output_weights.val()) + self.output_bias.val().unsqueeze_dim(0) + psqt.div_scalar(2.0)
    }
}

/// The largest int8 weight, in float.
const LIMIT: f32 = 127.0 / WEIGHT_SCALE;

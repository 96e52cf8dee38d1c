//! The burn net's weights made ready for our forward pass: each batch-norm folded into
//! the conv before it (a scale per output channel on the weights, and a bias), conv
//! weights laid out as `[kernel rows × kernel columns × input channels, output
//! channels]` for channels-last GEMMs (the 3×3 ones then Winograd-transformed), and the
//! dense policy head's linear layer with its rows reordered to take the 1×1 conv's output
//! channels-last.

use burn::module::Param;
use burn::nn::conv::Conv2d;
use burn::nn::Linear;
use burn::tensor::Tensor;

use super::precision::Precision;
use super::trunk_conv::TrunkConv;
use super::winograd::{FoldedConv, Geometry};
use crate::nn::flex_data::floats;
use crate::nn::model::{ConvBn, Net, NetConfig, PolicyLayers};

/// A linear layer: `weight` is `[inputs, outputs]`, row-major.
#[derive(Clone, Debug)]
pub(crate) struct Dense {
    /// Inputs.
    pub inputs: usize,
    /// Outputs.
    pub outputs: usize,
    /// `[inputs, outputs]`, row-major.
    pub weight: Vec<f32>,
    /// One per output.
    pub bias: Vec<f32>,
}

/// The policy head's layer after its 1×1 convs.
#[derive(Clone, Debug)]
pub(crate) enum PolicyLayer {
    /// The dense head's linear layer, rows in channels-last order (cell-major, then the
    /// head's planes).
    Dense(Dense),
    /// The attention head: each cell's `dim` query values then `dim` key values, and a
    /// label's logit the dot product of its from-cell's query and to-cell's key over √dim.
    Attention {
        /// Values per query (and per key).
        dim: usize,
    },
}

impl PolicyLayer {
    /// Values per cell the head's 1×1 convs give this layer.
    pub(crate) fn width(&self, cells: usize) -> usize {
        match self {
            PolicyLayer::Dense(fc) => fc.inputs / cells,
            PolicyLayer::Attention { dim } => 2 * dim,
        }
    }
}

/// Every weight of the net, folded and laid out for the forward pass.
#[derive(Clone, Debug)]
pub(crate) struct Weights {
    pub config: NetConfig,
    /// The board and the tiles the convs' weights are transformed for.
    pub geometry: Geometry,
    /// The input planes' conv (f32 or bf16: the planes are not a ReLU's output).
    pub stem: TrunkConv,
    /// Two convs per residual block.
    pub blocks: Vec<[TrunkConv; 2]>,
    /// Both heads' 1×1 convs as one: the policy's values (`policy.width`), then the
    /// value plane.
    pub heads: FoldedConv,
    /// The policy head's last layer.
    pub policy: PolicyLayer,
    pub value_fc1: Dense,
    pub value_fc2: Dense,
    /// The input planes' means to the value logits (`NetConfig::count_value`).
    pub value_counts: Option<Dense>,
}

fn param<const D: usize>(param: &Param<Tensor<D>>) -> Vec<f32> {
    floats(param.val())
}

/// Folds the batch-norm of `layer` into its conv, in inference mode (running statistics).
fn fold(layer: &ConvBn) -> FoldedConv {
    let [output, input, kh, kw] = layer.conv.weight.val().dims();
    let conv = param(&layer.conv.weight);
    let (gamma, beta) = (param(&layer.bn.gamma), param(&layer.bn.beta));
    let (mean, var) = (floats(layer.bn.running_mean.value()), floats(layer.bn.running_var.value()));
    let scale: Vec<f32> = gamma.iter().zip(&var).map(|(g, v)| g / (v + layer.bn.epsilon as f32).sqrt()).collect();
    let bias = (0..output).map(|o| beta[o] - mean[o] * scale[o]).collect();
    let mut weight = vec![0.0; kh * kw * input * output];
    for (o, &scale) in scale.iter().enumerate() {
        for i in 0..input {
            for y in 0..kh {
                for x in 0..kw {
                    let from = ((o * input + i) * kh + y) * kw + x;
                    let to = ((y * kw + x) * input + i) * output + o;
                    weight[to] = conv[from] * scale;
                }
            }
        }
    }
    FoldedConv { input, output, weight, bias }
}

/// A 1×1 conv with its bias and no batch-norm, laid out as [`fold`] lays them.
fn plain(conv: &Conv2d) -> FoldedConv {
    let [output, input, ..] = conv.weight.val().dims();
    let weight = param(&conv.weight);
    let weight =
        (0..input).flat_map(|i| (0..output).map(move |o| (i, o))).map(|(i, o)| weight[o * input + i]).collect();
    let bias = conv.bias.as_ref().map_or_else(|| vec![0.0; output], param);
    FoldedConv { input, output, weight, bias }
}

/// Two 1×1 convs over the same input as one, `a`'s outputs first.
fn side_by_side(a: &FoldedConv, b: &FoldedConv) -> FoldedConv {
    let output = a.output + b.output;
    let weight = (0..a.input)
        .flat_map(|i| {
            a.weight[i * a.output..(i + 1) * a.output].iter().chain(&b.weight[i * b.output..(i + 1) * b.output])
        })
        .copied()
        .collect();
    FoldedConv { input: a.input, output, weight, bias: [a.bias.as_slice(), &b.bias].concat() }
}

/// The dense policy head's linear layer `fc` with its rows reordered: burn flattens the
/// head's [plane, cell] planes; ours come as [cell, plane].
fn channels_last(mut fc: Dense, config: NetConfig) -> Dense {
    let cells = config.height * config.width;
    let (planes, outputs) = (fc.inputs / cells, fc.outputs);
    let mut reordered = vec![0.0; fc.weight.len()];
    for cell in 0..cells {
        for plane in 0..planes {
            let (from, to) = ((plane * cells + cell) * outputs, (cell * planes + plane) * outputs);
            reordered[to..to + outputs].copy_from_slice(&fc.weight[from..from + outputs]);
        }
    }
    fc.weight = reordered;
    fc
}

/// A linear layer as it is (burn keeps `[inputs, outputs]` already).
fn dense(layer: &Linear) -> Dense {
    let [inputs, outputs] = layer.weight.val().dims();
    let bias = layer.bias.as_ref().map_or_else(|| vec![0.0; outputs], param);
    Dense { inputs, outputs, weight: param(&layer.weight), bias }
}

impl Weights {
    /// The weights of `net` (batch-norms in inference mode), its 3×3 convs in `precision`
    /// where they can run so.
    pub(crate) fn of(net: &Net, precision: Precision) -> Weights {
        let config = net.config;
        let geometry = Geometry::new(config.height, config.width, precision);
        let conv = |conv| TrunkConv::new(&fold(conv), precision, geometry);
        // int8 quantizes a ReLU's output; the stem reads the encoder's planes.
        let stem_precision = if precision == Precision::Int8 { Precision::F32 } else { precision };
        let value_conv = fold(&net.value_conv);
        let (heads, policy) = match net.policy_layers() {
            PolicyLayers::Dense(conv, fc) => {
                (side_by_side(&fold(conv), &value_conv), PolicyLayer::Dense(channels_last(dense(fc), config)))
            }
            PolicyLayers::Attention(attention) => {
                let queries_keys = side_by_side(&plain(&attention.query), &plain(&attention.key));
                let dim = queries_keys.output / 2;
                (side_by_side(&queries_keys, &value_conv), PolicyLayer::Attention { dim })
            }
        };
        Weights {
            config,
            geometry,
            stem: TrunkConv::new(&fold(&net.stem), stem_precision, geometry),
            blocks: net.blocks.iter().map(|block| [conv(&block.first), conv(&block.second)]).collect(),
            heads,
            policy,
            value_fc1: dense(&net.value_fc1),
            value_fc2: dense(&net.value_fc2),
            value_counts: net.value_counts.as_ref().map(dense),
        }
    }
}

//! Our own CPU forward pass, for self-play and play: the burn net's weights with every
//! batch-norm folded into its conv, channels-last activations, 3×3 convs by Winograd's
//! F(2×3, 3×3) (or F(3×2, 3×3), [`winograd::Tiling`]) as 20 small products each, bias, ReLU and the residual add
//! fused into the output transform, and buffers kept from call to call. Batches are
//! split across rayon's threads, each running whole tiles of positions through the net
//! so that a tile's working set stays in cache.

#[cfg(target_arch = "x86_64")]
mod amx;
mod attention;
pub mod bf16;
pub mod int8;
pub(crate) mod kernels;
pub(crate) mod precision;
pub(crate) mod transpose;
mod trunk_conv;
mod weights;
pub(crate) mod winograd;

use std::sync::Arc;

use rayon::prelude::*;

use super::model::{Net, NetConfig};
use attention::{attention_logits, AttentionScratch};
use kernels::{add_bias, add_matmul, bias_relu, matmul, sized};
use precision::Precision;
use transpose::transpose;
use trunk_conv::ConvScratch;
use weights::{PolicyLayer, Weights};
use winograd::Epilogue;

/// Positions a thread runs through the net at once.
const TILE: usize = 4;

/// The scratch buffers of one thread.
#[derive(Debug, Default)]
struct Buffers {
    /// The tile's input planes, channels-last.
    input: Vec<f32>,
    /// The trunk's activations.
    trunk: Vec<f32>,
    /// The middle of a residual block.
    middle: Vec<f32>,
    /// The convs' scratch (Winograd's transformed inputs and products, int8's bytes).
    conv: ConvScratch,
    /// The heads' 1×1 conv outputs.
    heads: Vec<f32>,
    /// The policy head's 1×1 conv outputs (channels-last), for the whole part.
    policy_in: Vec<f32>,
    /// The value head's flattened plane, for the whole part.
    value_in: Vec<f32>,
    /// The value head's hidden layer.
    hidden: Vec<f32>,
    /// Each input plane's mean, for the whole part (with `NetConfig::count_value`).
    counts: Vec<f32>,
    /// The attention head's queries, keys and their products.
    attention: AttentionScratch,
}

/// A net ready for fast CPU inference. Cloning shares the weights and gives fresh
/// buffers (one clone per self-play thread, say).
#[derive(Debug)]
pub struct CpuNet {
    weights: Arc<Weights>,
    workers: Vec<Buffers>,
}

impl Clone for CpuNet {
    fn clone(&self) -> CpuNet {
        CpuNet { weights: Arc::clone(&self.weights), workers: Vec::new() }
    }
}

impl CpuNet {
    /// Takes the weights of `net` (batch-norms on their running statistics), its convs to
    /// run in the best precision of this CPU ([`Precision::for_this_cpu`]).
    pub fn new(net: &Net) -> CpuNet {
        CpuNet::in_precision(net, Precision::for_this_cpu())
    }

    /// [`CpuNet::new`] with the convs in `precision` where the CPU and their sizes allow.
    pub fn in_precision(net: &Net, precision: Precision) -> CpuNet {
        CpuNet { weights: Arc::new(Weights::of(net, precision)), workers: Vec::new() }
    }

    /// The precision of the trunk's convs (the stem's may be f32 where theirs is bf16: its
    /// input planes are not whole tiles).
    pub fn precision(&self) -> Precision {
        self.weights.blocks.first().map_or(self.weights.stem.precision(), |[first, _]| first.precision())
    }

    /// The net's shape.
    pub fn config(&self) -> NetConfig {
        self.weights.config
    }

    /// Runs `batch` encoded positions (`batch × input_size` floats, the encoder's
    /// layout) and writes policy logits (`batch × policy_size`) and win/draw/loss
    /// logits (`batch × 3`), as burn's forward pass of the same net would.
    pub fn forward(&mut self, input: &[f32], batch: usize, policy: &mut [f32], value: &mut [f32]) {
        let config = self.weights.config;
        assert_eq!(input.len(), batch * config.input_size(), "input of {batch} positions");
        assert_eq!(policy.len(), batch * config.policy_size, "policy of {batch} positions");
        assert_eq!(value.len(), batch * 3, "value of {batch} positions");
        if batch == 0 {
            return;
        }
        let threads = rayon::current_num_threads().max(1);
        let parts = threads.min(batch);
        // One position per thread at the least: a position's 16 small products per conv
        // shared among threads cost more in handing over than they save (batch 1 ran
        // 25% slower on two threads than on one).
        let per_part = batch.div_ceil(parts);
        if self.workers.len() < parts {
            self.workers.resize_with(parts, Buffers::default);
        }
        let weights = &*self.weights;
        self.workers
            .par_iter_mut()
            .zip(input.par_chunks(per_part * config.input_size()))
            .zip(policy.par_chunks_mut(per_part * config.policy_size))
            .zip(value.par_chunks_mut(per_part * 3))
            .for_each(|(((buffers, input), policy), value)| {
                let positions = value.len() / 3;
                let cells = config.height * config.width;
                sized(&mut buffers.policy_in, positions * cells * weights.policy.width(cells));
                sized(&mut buffers.value_in, positions * cells);
                if weights.value_counts.is_some() {
                    plane_means(input, cells, sized(&mut buffers.counts, positions * config.planes));
                }
                for start in (0..positions).step_by(TILE) {
                    let n = TILE.min(positions - start);
                    let input = &input[start * config.input_size()..(start + n) * config.input_size()];
                    run_trunk(weights, buffers, input, start, n);
                }
                run_head_layers(weights, buffers, positions, policy, value);
            });
    }
}

/// Runs `n` positions (at most `TILE`) through the trunk and the heads' 1×1 convs,
/// leaving the heads' planes of the part's positions from `start` on in
/// `buffers.policy_in` and `buffers.value_in`.
fn run_trunk(weights: &Weights, buffers: &mut Buffers, input: &[f32], start: usize, n: usize) {
    let config = &weights.config;
    let cells = config.height * config.width;
    let rows = n * cells;
    let channels = config.channels;

    // The encoder's planes ([position, plane, cell]) to channels-last ([position, cell, plane]).
    let planes = config.planes;
    let nhwc = sized(&mut buffers.input, rows * planes);
    for (input, nhwc) in input.chunks_exact(planes * cells).zip(nhwc.chunks_exact_mut(cells * planes)) {
        transpose(planes, cells, input, nhwc);
    }

    let geometry = weights.geometry;
    let scratch = &mut buffers.conv;
    let trunk = sized(&mut buffers.trunk, rows * channels);
    weights.stem.forward(geometry, n, nhwc, scratch, Epilogue::Relu(trunk));
    let middle = sized(&mut buffers.middle, rows * channels);
    for [first, second] in &weights.blocks {
        first.forward(geometry, n, trunk, scratch, Epilogue::Relu(middle));
        second.forward(geometry, n, middle, scratch, Epilogue::ResidualRelu(trunk));
    }

    let heads = &weights.heads;
    let head_out = sized(&mut buffers.heads, rows * heads.output);
    matmul(rows, channels, heads.output, trunk, &heads.weight, head_out);
    add_bias(head_out, &heads.bias);
    let width = weights.policy.width(cells);
    // The dense head's planes and the value plane go through a ReLU; queries and keys do not.
    let policy_relu = matches!(weights.policy, PolicyLayer::Dense(_));
    let policy_in = &mut buffers.policy_in[start * cells * width..(start + n) * cells * width];
    let value_in = &mut buffers.value_in[start * cells..(start + n) * cells];
    for ((policy, value), out) in
        policy_in.chunks_exact_mut(width).zip(value_in.iter_mut()).zip(head_out.chunks_exact(heads.output))
    {
        policy.copy_from_slice(&out[..width]);
        if policy_relu {
            policy.iter_mut().for_each(|v| *v = v.max(0.0));
        }
        *value = out[width].max(0.0);
    }
}

/// The heads' linear layers over all `positions` of a part at once (one pass over the
/// policy layer's large weights, not one per tile).
fn run_head_layers(weights: &Weights, buffers: &mut Buffers, positions: usize, policy: &mut [f32], value: &mut [f32]) {
    match &weights.policy {
        PolicyLayer::Dense(fc) => {
            matmul(positions, fc.inputs, fc.outputs, &buffers.policy_in, &fc.weight, policy);
            add_bias(policy, &fc.bias);
        }
        PolicyLayer::Attention { dim } => {
            let cells = weights.config.height * weights.config.width;
            let label_cells = weights.config.label_cells;
            attention_logits(&buffers.policy_in, [cells, *dim], label_cells, &mut buffers.attention, policy);
        }
    }
    let (fc1, fc2) = (&weights.value_fc1, &weights.value_fc2);
    let hidden = sized(&mut buffers.hidden, positions * fc1.outputs);
    matmul(positions, fc1.inputs, fc1.outputs, &buffers.value_in, &fc1.weight, hidden);
    bias_relu(hidden, &fc1.bias);
    matmul(positions, fc2.inputs, fc2.outputs, hidden, &fc2.weight, value);
    add_bias(value, &fc2.bias);
    if let Some(counts) = &weights.value_counts {
        add_matmul(positions, counts.inputs, counts.outputs, &buffers.counts, &counts.weight, value);
        add_bias(value, &counts.bias);
    }
}

/// The mean of each plane of `input` (`[position, plane, cell]`, `cells` a plane) into
/// `means` (`[position, plane]`).
fn plane_means(input: &[f32], cells: usize, means: &mut [f32]) {
    for (mean, plane) in means.iter_mut().zip(input.chunks_exact(cells)) {
        *mean = plane.iter().sum::<f32>() / cells as f32;
    }
}

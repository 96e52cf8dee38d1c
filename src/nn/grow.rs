//! A larger net that computes what a smaller one does (Net2Net: Chen, Goodfellow and
//! Shlens, 2016): a trained `blocks × channels` net grown to more blocks and channels,
//! so that a run can move to a bigger net without losing what the small one learned.
//!
//! - **Wider**: each new trunk channel copies an old one (its incoming weights and its
//!   batch-norm), and every layer reading the trunk splits the old channel's outgoing
//!   weights among its copies, in random shares that sum to one. The sums are unchanged,
//!   and the unequal shares give the copies different gradients, so training tells them
//!   apart. Each block's inner channels are widened the same way, on a map of their own.
//! - **Deeper**: a new block is inserted with its second batch-norm's scale and shift at
//!   zero: it adds nothing to the residual stream (whose values, after a ReLU, pass the
//!   block's ReLU unchanged) until training gives it a scale.
//! - **The attention policy head** (and the reply and soft policies', alike) keeps its old
//!   query and key dimensions, scaled so the dot product's `1/√dim` is unchanged; the new
//!   dimensions' queries start at zero.
//!
//! Everything else (the heads' linear layers, the piece-count value) is copied.

use std::collections::HashMap;

use burn::store::bridge::from_data;
use burn::store::ModuleSnapshot;
use burn::tensor::TensorData;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::average::values;
use super::model::{Net, NetConfig};

/// Why a net could not be grown: one line.
#[derive(Debug, thiserror::Error)]
#[error("cannot grow {from} into {to}: {why}")]
pub struct GrowError {
    from: String,
    to: String,
    why: String,
}

/// Where each channel of a wider layer comes from: new channel `j` copies old channel
/// `source[j]`, and what reads it takes `share[j]` of what the old channel gave.
struct ChannelMap {
    source: Vec<usize>,
    share: Vec<f32>,
}

impl ChannelMap {
    /// `old` channels widened to `new`: the first `old` keep their place, each of the
    /// others copies one drawn at random; the copies of a channel share its outgoing
    /// weights in random parts of 0.5–1.5 each, normalized to sum to one.
    fn widen(old: usize, new: usize, rng: &mut StdRng) -> ChannelMap {
        let source: Vec<usize> = (0..new).map(|j| if j < old { j } else { rng.random_range(0..old) }).collect();
        let parts: Vec<f32> = (0..new).map(|_| rng.random_range(0.5..1.5)).collect();
        let mut totals = vec![0.0; old];
        for (&k, &part) in source.iter().zip(&parts) {
            totals[k] += part;
        }
        let share = source.iter().zip(&parts).map(|(&k, &part)| part / totals[k]).collect();
        ChannelMap { source, share }
    }
}

/// The role of one tensor of the grown net, by which its values are made from the old.
enum Role<'a> {
    /// A convolution's weight `[out, in, kh, kw]`: its outputs copied along `out`, its
    /// inputs split along `inputs` (`None`: unchanged).
    Conv { out: Option<&'a ChannelMap>, inputs: Option<&'a ChannelMap> },
    /// A per-channel tensor (batch-norm) of a layer whose outputs follow the map.
    Channels(&'a ChannelMap),
    /// The attention head's query or key weight (`bias` false) or bias, reading the trunk
    /// along `inputs`. A query's old dimensions are scaled by `query_scale` and its new ones
    /// set to zero; a key's (`None`) old dimensions are copied and its new ones left as drawn.
    Attention { inputs: &'a ChannelMap, query_scale: Option<f32>, bias: bool },
    /// Copied as it is.
    Same,
    /// Left as `Net::new` drew it (a new block's layers), or set to zero.
    New { zero: bool },
}

/// How the old net's tensors map onto the grown one's.
struct Plan {
    /// The residual stream's channels.
    trunk: ChannelMap,
    /// Each old block's inner channels (between its two convolutions).
    inner: Vec<ChannelMap>,
    /// The old block at each place of the grown trunk that holds one.
    old_block: HashMap<usize, usize>,
    /// `√(new channels / old)`, which keeps the attention head's `1/√dim` as it was.
    scale: f32,
}

impl Plan {
    /// The old tensor that grown tensor `name` is made from, and how; `None` for a name
    /// this module does not know.
    fn role(&self, name: &str) -> Option<(String, Role<'_>)> {
        let parts: Vec<&str> = name.split('.').collect();
        let same = |role| Some((name.to_string(), role));
        match parts.as_slice() {
            ["stem", "conv", _] => same(Role::Conv { out: Some(&self.trunk), inputs: None }),
            ["stem", "bn", _] => same(Role::Channels(&self.trunk)),
            // `blocks.{place}.{first|second}.{conv|bn}.{field}`.
            ["blocks", place, half, layer, field] => {
                let Some(&b) = self.old_block.get(&place.parse().ok()?) else {
                    let zero = *half == "second" && *layer == "bn" && matches!(*field, "gamma" | "beta");
                    return same(Role::New { zero });
                };
                let (out, inputs) =
                    if *half == "first" { (&self.inner[b], &self.trunk) } else { (&self.trunk, &self.inner[b]) };
                let role = if *layer == "conv" {
                    Role::Conv { out: Some(out), inputs: Some(inputs) }
                } else {
                    Role::Channels(out)
                };
                Some((format!("blocks.{b}.{half}.{layer}.{field}"), role))
            }
            [head, "conv", "weight"] if head.ends_with("_conv") => {
                same(Role::Conv { out: None, inputs: Some(&self.trunk) })
            }
            ["policy_attention" | "policy_reply" | "policy_soft", which, field] => {
                let query_scale = (*which == "query").then_some(self.scale);
                same(Role::Attention { inputs: &self.trunk, query_scale, bias: *field == "bias" })
            }
            _ => same(Role::Same),
        }
    }
}

impl Role<'_> {
    /// Makes `out`, a grown tensor of shape `target` (holding `Net::new`'s draw), from
    /// `old`, the old tensor's shape and values (`None`: the old net has none); or says why
    /// the two do not fit.
    fn fill(&self, out: &mut [f32], target: &[usize], old: Option<&(Vec<usize>, Vec<f32>)>) -> Result<(), String> {
        if let Role::New { zero } = *self {
            if zero {
                out.fill(0.0);
            }
            return Ok(());
        }
        let (shape, values) = old.ok_or("the old net has no such tensor")?;
        match *self {
            Role::New { .. } => {}
            Role::Same if shape != target => return Err(format!("{shape:?} in the old net, {target:?} in the new")),
            Role::Same => out.copy_from_slice(values),
            Role::Channels(map) => out.iter_mut().enumerate().for_each(|(j, v)| *v = values[map.source[j]]),
            Role::Conv { out: outs, inputs } => {
                let (old_in, kernel) = (shape[1], shape[2] * shape[3]);
                for (o, row) in out.chunks_mut(target[1] * kernel).enumerate() {
                    let o_old = outs.map_or(o, |m| m.source[o]);
                    for (i, cell) in row.chunks_mut(kernel).enumerate() {
                        let (i_old, share) = inputs.map_or((i, 1.0), |m| (m.source[i], m.share[i]));
                        let from = &values[(o_old * old_in + i_old) * kernel..][..kernel];
                        cell.iter_mut().zip(from).for_each(|(v, w)| *v = w * share);
                    }
                }
            }
            Role::Attention { inputs, query_scale, bias } => {
                // A bias is a weight of one input.
                let (old_in, new_in) = if bias { (1, 1) } else { (shape[1], target[1]) };
                for (d, row) in out.chunks_mut(new_in).enumerate() {
                    for (i, v) in row.iter_mut().enumerate() {
                        if d < shape[0] {
                            let (i_old, share) = if bias { (0, 1.0) } else { (inputs.source[i], inputs.share[i]) };
                            *v = values[d * old_in + i_old] * share * query_scale.unwrap_or(1.0);
                        } else if query_scale.is_some() {
                            *v = 0.0;
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

impl Net {
    /// This net grown into a net of `blocks` blocks of `channels` channels that computes
    /// the same policy and value (up to rounding), its new weights drawn from `seed`. The
    /// shape may not shrink, and nothing but the trunk's size may change.
    pub fn grow(&self, blocks: usize, channels: usize, seed: u64) -> Result<Net, GrowError> {
        let old = self.config;
        let new = NetConfig { blocks, channels, ..old };
        let error = |why: String| GrowError { from: old.to_string(), to: new.to_string(), why };
        if blocks < old.blocks || channels < old.channels {
            return Err(error("a net can only grow".into()));
        }
        let mut rng = StdRng::seed_from_u64(seed);
        let plan = Plan {
            trunk: ChannelMap::widen(old.channels, channels, &mut rng),
            inner: (0..old.blocks).map(|_| ChannelMap::widen(old.channels, channels, &mut rng)).collect(),
            // Old block `b` goes to place `b · blocks / old.blocks`; the places between are new.
            old_block: (0..old.blocks).map(|b| (b * blocks / old.blocks, b)).collect(),
            scale: (channels as f32 / old.channels as f32).sqrt(),
        };
        let sources: HashMap<String, (Vec<usize>, Vec<f32>)> = self
            .collect(None, None, false)
            .iter()
            .map(|t| Ok((t.name.clone(), (t.shape.as_slice().to_vec(), values(t)?))))
            .collect::<Result<_, String>>()
            .map_err(error)?;
        let mut grown = Net::new(new, &self.device());
        let mut tensors = grown.collect(None, None, false);
        for tensor in &mut tensors {
            let name = tensor.name.clone();
            let (source, role) =
                plan.role(&name).ok_or_else(|| error(format!("a tensor `{name}` of no known layer")))?;
            let target = tensor.shape.as_slice().to_vec();
            let mut out = values(tensor).map_err(error)?;
            role.fill(&mut out, &target, sources.get(&source))
                .map_err(|why| error(format!("`{name}` (from `{source}`): {why}")))?;
            *tensor = from_data(TensorData::new(out, target), name, tensor.param_id);
        }
        let applied = grown.apply(tensors, None, None, false);
        if let Some(failure) = applied.errors.first() {
            return Err(error(format!("{failure:?}")));
        }
        Ok(grown)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::xiangqi::Xiangqi;
    use crate::nn::PolicyHead;

    /// `net` with every tensor drawn at random (positive variances), so that no weight,
    /// shift or running statistic is the trivial value `Net::new` gives it.
    fn randomized(net: Net, seed: u64) -> Net {
        let mut rng = StdRng::seed_from_u64(seed);
        let tensors = net
            .collect(None, None, false)
            .into_iter()
            .map(|t| {
                let n = t.shape.num_elements();
                let positive = t.name.ends_with("running_var");
                let data: Vec<f32> = (0..n)
                    .map(|_| if positive { rng.random_range(0.5..2.0) } else { rng.random_range(-0.5..0.5) })
                    .collect();
                from_data(TensorData::new(data, t.shape.clone()), t.name.clone(), t.param_id)
            })
            .collect();
        let mut net = net;
        assert!(net.apply(tensors, None, None, false).errors.is_empty());
        net
    }

    /// Random input planes for `batch` positions: any values, the identity is algebra.
    fn input(net: &Net, batch: usize) -> Vec<f32> {
        let mut rng = StdRng::seed_from_u64(9);
        (0..batch * net.config.input_size()).map(|_| rng.random_range(0.0..1.0)).collect()
    }

    /// The training-only heads' logits of `planes` (4 positions), those the net has: the
    /// reply's, then the soft policy's.
    fn training_logits(net: &Net, planes: Vec<f32>) -> Vec<f32> {
        let output = net.forward(net.input(planes, 4));
        let heads = [output.reply, output.soft].into_iter().flatten();
        heads.flat_map(|logits| logits.into_data().try_to_vec::<f32>().unwrap()).collect()
    }

    fn grows_exactly(head: PolicyHead, training_heads: bool) {
        let device = burn::tensor::Device::default();
        let config = NetConfig::new::<Xiangqi>(2, 8)
            .with_count_value(true)
            .with_policy_head(head)
            .with_reply_policy(training_heads)
            .with_soft_policy(training_heads);
        let small = randomized(Net::new(config, &device), 1);
        let big = small.grow(3, 12, 5).unwrap();
        assert_eq!((big.config.blocks, big.config.channels), (3, 12));
        let planes = input(&small, 4);
        let (p_small, v_small) = small.infer(planes.clone(), 4);
        let (p_big, v_big) = big.infer(planes.clone(), 4);
        let (t_small, t_big) = (training_logits(&small, planes.clone()), training_logits(&big, planes));
        assert_eq!(t_small.len(), if training_heads { 2 * 4 * small.config.policy_size } else { 0 });
        let worst = p_small
            .iter()
            .zip(&p_big)
            .chain(v_small.iter().zip(&v_big))
            .chain(t_small.iter().zip(&t_big))
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f32::max);
        let spread = p_small.iter().map(|v| v.abs()).fold(0.0, f32::max);
        assert!(spread > 0.1, "the small net's logits are not trivial ({spread})");
        assert!(worst < 1e-3 * spread.max(1.0), "the grown net computes otherwise: {worst}");
        // A net of random weights of the big shape computes something else entirely.
        let other = randomized(Net::new(big.config, &device), 2);
        let (p_other, _) = other.infer(input(&small, 4), 4);
        assert!(p_small.iter().zip(&p_other).any(|(a, b)| (a - b).abs() > 0.01));
    }

    #[test]
    fn a_grown_net_with_a_dense_policy_computes_what_the_small_one_did() {
        grows_exactly(PolicyHead::Dense, false);
    }

    #[test]
    fn a_grown_net_with_an_attention_policy_computes_what_the_small_one_did() {
        grows_exactly(PolicyHead::Attention, false);
    }

    #[test]
    fn a_grown_net_predicts_the_reply_and_the_soft_policy_as_the_small_one_did() {
        grows_exactly(PolicyHead::Attention, true);
    }

    #[test]
    fn the_copies_of_a_channel_read_by_the_next_layer_get_unequal_shares() {
        let mut rng = StdRng::seed_from_u64(3);
        let map = ChannelMap::widen(4, 8, &mut rng);
        for k in 0..4 {
            let shares: Vec<f32> = (0..8).filter(|&j| map.source[j] == k).map(|j| map.share[j]).collect();
            assert!((shares.iter().sum::<f32>() - 1.0).abs() < 1e-6);
            if shares.len() > 1 {
                assert!(shares.windows(2).any(|w| (w[0] - w[1]).abs() > 1e-3), "copies of {k} share equally");
            }
        }
    }

    #[test]
    fn a_net_does_not_shrink() {
        let device = burn::tensor::Device::default();
        let net = Net::new(NetConfig::new::<Xiangqi>(2, 8), &device);
        assert!(net.grow(1, 8, 0).unwrap_err().to_string().contains("only grow"));
        assert!(net.grow(2, 4, 0).is_err());
    }
}

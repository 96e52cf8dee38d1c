//! Gumbel search (Danihelka et al., "Policy improvement by planning with Gumbel", ICLR
//! 2022), as DeepMind's `mctx` implements it: the schedule of Sequential Halving, the
//! completed Q-values and their monotone transform σ, the root's choice among the
//! considered moves, the inner nodes' improved-policy selection and the improved policy
//! that serves as training target.

use super::config::SearchConfig;
use super::node::{sign, Node};
use super::tree::Tree;

/// The visit count a root move must have to be chosen next, simulation by simulation:
/// Sequential Halving of `simulations` over `considered` moves (`mctx`'s
/// `get_sequence_of_considered_visits`). With `considered` moves at first, each phase
/// gives every move still considered the same number of visits and then halves them.
pub fn considered_visits(considered: u32, simulations: u32) -> Vec<u32> {
    let simulations = simulations as usize;
    if considered <= 1 {
        return (0..simulations as u32).collect();
    }
    let log2 = (considered as f64).log2().ceil() as usize;
    let mut sequence = Vec::with_capacity(simulations);
    let mut visits = vec![0u32; considered as usize];
    let mut live = considered as usize;
    while sequence.len() < simulations {
        let extra = (simulations / (log2 * live)).max(1);
        for _ in 0..extra {
            sequence.extend_from_slice(&visits[..live]);
            visits[..live].iter_mut().for_each(|v| *v += 1);
        }
        live = (live / 2).max(2);
    }
    sequence.truncate(simulations);
    sequence
}

/// The log of a prior, finite even for a prior of 0.
#[inline]
pub fn logit(prior: f32) -> f32 {
    prior.max(1e-20).ln()
}

/// Writes into `out`, for each child of the decision node `node`, σ(q̂): its completed,
/// rescaled Q-value from the mover's view, times `(c_visit + max visits) · c_scale`
/// (`mctx`'s `qtransform_completed_by_mix_value`). Unvisited children get the mixed
/// value of the node's own evaluation and its visited children's prior-weighted Q. With
/// `virtual_loss`, visits in flight count as visits that lost that much.
pub fn sigma_completed_q<M, O>(
    tree: &Tree<M, O>,
    node: usize,
    config: &SearchConfig,
    virtual_loss: Option<f32>,
    out: &mut Vec<f32>,
) where
    M: Copy,
    O: Copy,
{
    let parent = &tree[node];
    let mover = parent.mover;
    let children = tree.children(node);
    let visits = |child: &Node<M, O>| match virtual_loss {
        Some(_) => child.visits_in_flight(),
        None => child.visits,
    };
    let q = |child: &Node<M, O>| {
        let n = visits(child);
        let lost = virtual_loss.unwrap_or(0.0) * child.in_flight as f32;
        (sign(mover) * child.w as f32 - if virtual_loss.is_some() { lost } else { 0.0 }) / n as f32
    };
    let (mut total_visits, mut max_visits, mut visited_prior, mut weighted_q) = (0u32, 0u32, 0.0f32, 0.0f32);
    for child in children {
        let n = visits(child);
        if n > 0 {
            total_visits += n;
            max_visits = max_visits.max(n);
            let p = child.prior.max(f32::MIN_POSITIVE);
            visited_prior += p;
            weighted_q += p * q(child);
        }
    }
    let raw = sign(mover) * parent.raw;
    let mixed = if total_visits == 0 {
        raw
    } else {
        (raw + total_visits as f32 * weighted_q / visited_prior) / (total_visits as f32 + 1.0)
    };
    out.clear();
    out.extend(children.iter().map(|child| if visits(child) > 0 { q(child) } else { mixed }));
    let (lo, hi) = out.iter().fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), &v| (lo.min(v), hi.max(v)));
    let scale = (config.gumbel_c_visit + max_visits as f32) * config.gumbel_c_scale / (hi - lo).max(1e-8);
    out.iter_mut().for_each(|v| *v = (*v - lo) * scale);
}

/// `softmax(logits + sigma)` into `out`: the improved policy.
pub fn improved_policy<M, O>(children: &[Node<M, O>], sigma: &[f32], out: &mut Vec<f32>) {
    out.clear();
    out.extend(children.iter().zip(sigma).map(|(child, s)| logit(child.prior) + s));
    let max = out.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut total = 0.0;
    for x in out.iter_mut() {
        *x = (*x - max).exp();
        total += *x;
    }
    out.iter_mut().for_each(|x| *x /= total);
}

/// Gumbel MuZero's choice at an inner decision node: the child maximizing
/// `π'(a) − n(a) / (1 + Σn)`, with the improved policy π' and visits in flight counted.
pub fn select_inner<M: Copy, O: Copy>(
    tree: &Tree<M, O>,
    node: usize,
    config: &SearchConfig,
    scratch: &mut [Vec<f32>; 2],
) -> usize {
    let [sigma, policy] = scratch;
    sigma_completed_q(tree, node, config, Some(config.virtual_loss), sigma);
    let children = tree.children(node);
    improved_policy(children, sigma, policy);
    let total: u32 = children.iter().map(|c| c.visits_in_flight()).sum();
    let mut best = (0, f32::NEG_INFINITY);
    for (i, (child, p)) in children.iter().zip(policy.iter()).enumerate() {
        let score = p - child.visits_in_flight() as f32 / (1.0 + total as f32);
        if score > best.1 {
            best = (i, score);
        }
    }
    best.0
}

/// The root's choice under Sequential Halving: among the moves whose visit count this
/// search (`counts`, in flight included) equals `target`, the one maximizing
/// `g + logit + σ(q̂)`. `None` if no move has that count.
pub fn select_considered(counts: &[u32], target: u32, gumbel: &[f32], logits: &[f32], sigma: &[f32]) -> Option<usize> {
    let mut best: Option<(usize, f32)> = None;
    for i in 0..counts.len() {
        if counts[i] != target {
            continue;
        }
        let score = gumbel[i] + logits[i] + sigma[i];
        if best.is_none_or(|(_, s)| score > s) {
            best = Some((i, score));
        }
    }
    best.map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequential_halving_matches_mctx() {
        // mctx: get_sequence_of_considered_visits(4, 16).
        assert_eq!(considered_visits(4, 16), vec![0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]);
        assert_eq!(considered_visits(1, 4), vec![0, 1, 2, 3]);
        // With more considered moves than simulations every simulation visits a new move.
        assert_eq!(considered_visits(16, 8), vec![0; 8]);
        assert_eq!(considered_visits(2, 5), vec![0, 0, 1, 1, 2]);
    }
}

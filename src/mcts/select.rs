//! Choosing the child to descend into: PUCT with first-play urgency and virtual loss at
//! decision nodes, and the deterministic low-variance rule at chance nodes.

use super::config::SearchConfig;
use super::node::sign;
use super::tree::Tree;

/// PUCT's exploration constant at a node whose children have `visits` visits in all.
#[inline]
pub fn c_puct(config: &SearchConfig, visits: f32) -> f32 {
    if config.c_puct_factor == 0.0 {
        config.c_puct
    } else {
        config.c_puct + config.c_puct_factor * ((visits + config.c_puct_base) / config.c_puct_base).ln()
    }
}

/// The child of decision node `node` maximizing `Q + c·P·√N / (1 + n)`, where visits in
/// flight count as visits that lost `virtual_loss`, and an unvisited child is valued at
/// the parent's Q less `fpu_reduction · √(prior mass visited)`. With `forced_k`, a visited
/// child below its forced playouts `√(k·P·N)` is taken first (KataGo), and with
/// `config.forced_playouts_unvisited` an unvisited one too. A child proven lost for
/// the mover is never taken again while another child is left (the MCTS-solver): however
/// high its prior, its visits would only drag the parent's value, the first-play urgency
/// and the policy target towards a known loss; when every child is, the longest loss is
/// taken. Returns the child's position among the children.
#[inline]
pub fn puct<M: Copy, O: Copy>(
    tree: &Tree<M, O>,
    node: usize,
    config: &SearchConfig,
    fpu_reduction: f32,
    forced_k: Option<f32>,
) -> usize {
    let parent = &tree[node];
    let s = sign(parent.mover);
    // Each visit of an expanded decision node but its first (the evaluation) went to one
    // child; each visit in flight but the current one is on its way down one child.
    let total = (parent.visits + parent.in_flight as u32).saturating_sub(2);
    debug_assert_eq!(total, tree.children(node).iter().map(|c| c.visits_in_flight()).sum::<u32>());
    let total = total as f32;
    let explore = c_puct(config, total) * total.max(1.0).sqrt();
    let forced = forced_k.map(|k| k * total);
    let virtual_loss = config.virtual_loss;
    let mut best = (0, f32::NEG_INFINITY);
    // Every unvisited child has the same Q (the FPU), so the best of them is the one
    // with the largest prior: found in the same pass, scored after it.
    let mut unvisited = (usize::MAX, f32::NEG_INFINITY);
    let mut visited_prior = 0.0;
    let mut longest_loss = (0, i32::MIN);
    for (i, child) in tree.children(node).iter().enumerate() {
        if child.proof.is_loss_for(parent.mover) {
            let preference = child.proof.preference(parent.mover);
            if preference > longest_loss.1 {
                longest_loss = (i, preference);
            }
            continue;
        }
        let n = child.visits_in_flight();
        if let Some(forced) = forced {
            if (n > 0 || config.forced_playouts_unvisited) && (n as f32) * (n as f32) < forced * child.prior {
                // Below √(k·P·N): forced, the least visited first. An unvisited child
                // waits for PUCT (KataGo forces none) unless the config forces it too, so
                // that every legal move takes a playout, however small its prior.
                let score = 1e9 - n as f32;
                if score > best.1 {
                    best = (i, score);
                }
                continue;
            }
        }
        if n == 0 {
            if child.prior > unvisited.1 {
                unvisited = (i, child.prior);
            }
            continue;
        }
        visited_prior += child.prior;
        let q = (s * child.w as f32 - virtual_loss * child.in_flight as f32) / n as f32;
        let score = q + explore * child.prior / (1.0 + n as f32);
        if score > best.1 {
            best = (i, score);
        }
    }
    if unvisited.0 != usize::MAX {
        let parent_q = s * (parent.w / parent.visits.max(1) as f64) as f32;
        let fpu = parent_q - fpu_reduction * visited_prior.sqrt();
        if fpu + explore * unvisited.1 > best.1 {
            best.0 = unvisited.0;
        }
    } else if best.1 == f32::NEG_INFINITY {
        return longest_loss.0;
    }
    best.0
}

/// The outcome of chance node `node` to follow: the one whose share of the visits (in
/// flight included) lags its probability most, `argmax p − n / (N + 1)`. Deterministic,
/// so the visits track the probabilities closely with no sampling noise.
#[inline]
pub fn chance<M: Copy, O: Copy>(tree: &Tree<M, O>, node: usize) -> usize {
    let children = tree.children(node);
    let total: u32 = children.iter().map(|c| c.visits_in_flight()).sum();
    let scale = 1.0 / (total as f32 + 1.0);
    let mut best = (0, f32::NEG_INFINITY);
    for (i, child) in children.iter().enumerate() {
        let score = child.prior - child.visits_in_flight() as f32 * scale;
        if score > best.1 {
            best = (i, score);
        }
    }
    best.0
}

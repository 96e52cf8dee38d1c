//! The training loss: policy cross-entropy plus win/draw/loss cross-entropy, both
//! against soft targets (a search's visit distribution, a game's outcome), the policy's
//! weighted per sample (KataGo's playout-cap randomization trains the policy only on
//! fully searched moves).

use burn::tensor::activation::log_softmax;
use burn::tensor::Tensor;

use super::model::NetOutput;

/// The loss of a batch and its two parts (shape `[1]` each).
#[derive(Clone, Debug)]
pub struct Losses {
    /// `policy + value`: what the optimiser minimises (weight decay is the optimiser's).
    pub total: Tensor<1>,
    /// Cross-entropy of the policy logits against the policy targets: the policy
    /// weights' weighted mean over the batch (0 when every weight is 0).
    pub policy: Tensor<1>,
    /// Cross-entropy of the win/draw/loss logits against the outcome targets, the mean
    /// over the batch.
    pub value: Tensor<1>,
}

/// The losses of `output` against `policy_target` (`[batch, policy_size]`, rows
/// summing to 1), weighted per sample by `policy_weight` (`[batch]`, 0 or more), and
/// `value_target` (`[batch, 3]`, win/draw/loss, rows summing to 1).
pub fn losses(
    output: &NetOutput,
    policy_target: Tensor<2>,
    policy_weight: Tensor<1>,
    value_target: Tensor<2>,
) -> Losses {
    // Per sample, `[batch, 1]`.
    let cross_entropy = |logits: Tensor<2>, target: Tensor<2>| (target * log_softmax(logits, 1)).sum_dim(1).neg();
    let [batch] = policy_weight.dims();
    let weight_sum = policy_weight.clone().sum().clamp_min(1e-6);
    let weighted = cross_entropy(output.policy.clone(), policy_target) * policy_weight.reshape([batch, 1]);
    let policy = weighted.sum() / weight_sum;
    let value = cross_entropy(output.value.clone(), value_target).mean();
    Losses { total: policy.clone() + value.clone(), policy, value }
}

//! The training loss: policy cross-entropy plus win/draw/loss cross-entropy, both
//! against soft targets (a search's visit distribution, a game's outcome).

use burn::tensor::activation::log_softmax;
use burn::tensor::Tensor;

use super::model::NetOutput;

/// The loss of a batch and its two parts, each a mean over the batch (shape `[1]`).
#[derive(Clone, Debug)]
pub struct Losses {
    /// `policy + value`: what the optimiser minimises (weight decay is the optimiser's).
    pub total: Tensor<1>,
    /// Cross-entropy of the policy logits against the policy targets.
    pub policy: Tensor<1>,
    /// Cross-entropy of the win/draw/loss logits against the outcome targets.
    pub value: Tensor<1>,
}

/// The losses of `output` against `policy_target` (`[batch, policy_size]`, rows
/// summing to 1) and `value_target` (`[batch, 3]`, win/draw/loss, rows summing to 1).
pub fn losses(output: &NetOutput, policy_target: Tensor<2>, value_target: Tensor<2>) -> Losses {
    let cross_entropy =
        |logits: Tensor<2>, target: Tensor<2>| (target * log_softmax(logits, 1)).sum_dim(1).mean().neg();
    let policy = cross_entropy(output.policy.clone(), policy_target);
    let value = cross_entropy(output.value.clone(), value_target);
    Losses { total: policy.clone() + value.clone(), policy, value }
}

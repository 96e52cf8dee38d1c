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

#[cfg(test)]
mod tests {
    use burn::tensor::{Device, Tensor, TensorData};

    use super::*;

    fn scalar(t: Tensor<1>) -> f32 {
        t.into_data().try_to_vec::<f32>().unwrap()[0]
    }

    #[test]
    fn each_part_is_a_cross_entropy_and_the_total_is_their_sum() {
        let device = Device::flex();
        let tensor =
            |values: Vec<f32>, shape: [usize; 2]| Tensor::<2>::from_data(TensorData::new(values, shape), &device);
        // Two labels with equal logits, the target on the first: ln 2. Value logits all
        // equal, the target a win: ln 3.
        let output = NetOutput { policy: tensor(vec![0.0, 0.0], [1, 2]), value: tensor(vec![0.0; 3], [1, 3]) };
        let weight = Tensor::<1>::ones([1], &device);
        let parts = losses(&output, tensor(vec![1.0, 0.0], [1, 2]), weight, tensor(vec![1.0, 0.0, 0.0], [1, 3]));
        let (ln2, ln3) = (2f32.ln(), 3f32.ln());
        assert!((scalar(parts.policy) - ln2).abs() < 1e-6);
        assert!((scalar(parts.value) - ln3).abs() < 1e-6);
        assert!((scalar(parts.total) - (ln2 + ln3)).abs() < 1e-5);
    }
}

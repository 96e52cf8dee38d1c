//! The training loss: policy cross-entropy plus win/draw/loss cross-entropy, both
//! against soft targets (a search's visit distribution, a game's outcome), the policy's
//! weighted per sample (KataGo's playout-cap randomization trains the policy only on
//! fully searched moves); and, for a net with a reply policy, the cross-entropy of the
//! opponent's reply, weighted as KataGo weighs its auxiliary policy target.

use burn::tensor::activation::log_softmax;
use burn::tensor::Tensor;

use super::model::NetOutput;

/// The reply policy's share of the total loss (KataGo's weight for the opponent's move).
pub const REPLY_WEIGHT: f32 = 0.15;

/// The loss of a batch and its parts (shape `[1]` each).
#[derive(Clone, Debug)]
pub struct Losses {
    /// `policy + value + REPLY_WEIGHT · reply`: what the optimiser minimises (weight decay
    /// is the optimiser's).
    pub total: Tensor<1>,
    /// Cross-entropy of the policy logits against the policy targets: the policy
    /// weights' weighted mean over the batch (0 when every weight is 0).
    pub policy: Tensor<1>,
    /// Cross-entropy of the win/draw/loss logits against the outcome targets, the mean
    /// over the batch.
    pub value: Tensor<1>,
    /// Cross-entropy of the reply logits against the replies played, over the samples
    /// with one (for a net with a reply policy).
    pub reply: Option<Tensor<1>>,
}

/// What a batch is trained towards.
#[derive(Clone, Debug)]
pub struct LossTargets {
    /// `[batch, policy_size]`, rows summing to 1.
    pub policy: Tensor<2>,
    /// `[batch]`, 0 or more: each sample's share in the policy loss.
    pub policy_weight: Tensor<1>,
    /// `[batch, 3]`, win/draw/loss, rows summing to 1.
    pub value: Tensor<2>,
    /// For a net with a reply policy: the opponent's replies, one-hot `[batch,
    /// policy_size]`, and `[batch]` 1 where a reply was played.
    pub reply: Option<(Tensor<2>, Tensor<1>)>,
}

/// The losses of `output` against `targets`.
pub fn losses(output: &NetOutput, targets: LossTargets) -> Losses {
    let policy = weighted_cross_entropy(output.policy.clone(), targets.policy, targets.policy_weight);
    let value = cross_entropy(output.value.clone(), targets.value).mean();
    let reply = output
        .reply
        .clone()
        .zip(targets.reply)
        .map(|(logits, (target, weight))| weighted_cross_entropy(logits, target, weight));
    let total = policy.clone() + value.clone();
    let total = match &reply {
        Some(reply) => total + reply.clone().mul_scalar(REPLY_WEIGHT),
        None => total,
    };
    Losses { total, policy, value, reply }
}

/// Per sample, `[batch, 1]`: the cross-entropy of `logits` against `target`.
fn cross_entropy(logits: Tensor<2>, target: Tensor<2>) -> Tensor<2> {
    (target * log_softmax(logits, 1)).sum_dim(1).neg()
}

/// The mean of the cross-entropies weighted by `weight` (0 when every weight is 0).
fn weighted_cross_entropy(logits: Tensor<2>, target: Tensor<2>, weight: Tensor<1>) -> Tensor<1> {
    let [batch] = weight.dims();
    let weight_sum = weight.clone().sum().clamp_min(1e-6);
    (cross_entropy(logits, target) * weight.reshape([batch, 1])).sum() / weight_sum
}

#[cfg(test)]
mod tests {
    use burn::tensor::{Device, Tensor, TensorData};

    use super::*;

    fn scalar(t: Tensor<1>) -> f32 {
        t.into_data().try_to_vec::<f32>().unwrap()[0]
    }

    #[test]
    fn each_part_is_a_cross_entropy_and_the_total_their_weighted_sum() {
        let device = Device::flex();
        let tensor =
            |values: Vec<f32>, shape: [usize; 2]| Tensor::<2>::from_data(TensorData::new(values, shape), &device);
        // Two labels with equal logits, the target on the first: ln 2. Value logits all
        // equal, the target a win: ln 3.
        // The reply: logits ln 1 and ln 3 over two labels, the reply the second: ln 4/3.
        let output = NetOutput {
            policy: tensor(vec![0.0, 0.0], [1, 2]),
            value: tensor(vec![0.0; 3], [1, 3]),
            reply: Some(tensor(vec![0.0, 3f32.ln()], [1, 2])),
        };
        let targets = || LossTargets {
            policy: tensor(vec![1.0, 0.0], [1, 2]),
            policy_weight: Tensor::<1>::ones([1], &device),
            value: tensor(vec![1.0, 0.0, 0.0], [1, 3]),
            reply: Some((tensor(vec![0.0, 1.0], [1, 2]), Tensor::<1>::ones([1], &device))),
        };
        let parts = losses(&output, targets());
        let (ln2, ln3, reply) = (2f32.ln(), 3f32.ln(), (4.0f32 / 3.0).ln());
        assert!((scalar(parts.policy) - ln2).abs() < 1e-6);
        assert!((scalar(parts.value) - ln3).abs() < 1e-6);
        assert!((scalar(parts.reply.unwrap()) - reply).abs() < 1e-6);
        assert!((scalar(parts.total) - (ln2 + ln3 + REPLY_WEIGHT * reply)).abs() < 1e-5);
        // Without the head, no reply loss and the total of the two.
        let parts = losses(&NetOutput { reply: None, ..output }, targets());
        assert!(parts.reply.is_none());
        assert!((scalar(parts.total) - (ln2 + ln3)).abs() < 1e-5);
    }
}

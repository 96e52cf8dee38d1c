//! The training loss: policy cross-entropy plus win/draw/loss cross-entropy, both
//! against soft targets (a search's visit distribution, a game's outcome), the policy's
//! weighted per sample (KataGo's playout-cap randomization trains the policy only on
//! fully searched moves); and, for a net with a reply policy, the cross-entropy of the
//! opponent's reply, weighted as KataGo weighs its auxiliary policy target; for a net
//! with a soft policy, the cross-entropy of the policy target flattened (KataGo's
//! auxiliary soft policy target, weighted as KataGo weighs it).

use burn::tensor::activation::log_softmax;
use burn::tensor::Tensor;

use super::model::NetOutput;

/// The reply policy's share of the total loss (KataGo's weight for the opponent's move).
pub const REPLY_WEIGHT: f32 = 0.15;
/// The soft policy's share of the total loss (KataGo's).
pub const SOFT_WEIGHT: f32 = 8.0;
/// The soft policy's target is the policy target to this power, renormalized (KataGo's
/// temperature of 4; the labels the search never visited stay at zero, where KataGo gives
/// every legal move a floor of 1e-7 first).
const SOFT_POWER: f32 = 0.25;

/// The loss of a batch and its parts (shape `[1]` each).
#[derive(Clone, Debug)]
pub struct Losses {
    /// `policy + value + REPLY_WEIGHT · reply + SOFT_WEIGHT · soft`: what the optimiser
    /// minimises (weight decay is the optimiser's).
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
    /// Cross-entropy of the soft policy logits against the policy targets flattened, over
    /// the samples the policy is trained on (for a net with a soft policy).
    pub soft: Option<Tensor<1>>,
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
    let soft = output.soft.clone().map(|logits| {
        let flattened = targets.policy.clone().powf_scalar(SOFT_POWER);
        let flattened = flattened.clone() / flattened.sum_dim(1).clamp_min(1e-12);
        weighted_cross_entropy(logits, flattened, targets.policy_weight.clone())
    });
    let policy = weighted_cross_entropy(output.policy.clone(), targets.policy, targets.policy_weight);
    let value = cross_entropy(output.value.clone(), targets.value).mean();
    let reply = output
        .reply
        .clone()
        .zip(targets.reply)
        .map(|(logits, (target, weight))| weighted_cross_entropy(logits, target, weight));
    let mut total = policy.clone() + value.clone();
    for (part, weight) in [(&reply, REPLY_WEIGHT), (&soft, SOFT_WEIGHT)] {
        if let Some(part) = part {
            total = total + part.clone().mul_scalar(weight);
        }
    }
    Losses { total, policy, value, reply, soft }
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
        // Three labels with equal logits, the target 16/17, 1/17, 0: ln 3. Value logits all
        // equal, the target a win: ln 3. The reply: logits 0, ln 2, 0, the reply the
        // second: softmax 1/4, 1/2, 1/4, so ln 2. The soft policy: the target to the power
        // 1/4 is 2/3, 1/3, 0; logits ln 2, 0, 0 give 1/2, 1/4, 1/4, so
        // −(2/3 ln 1/2 + 1/3 ln 1/4) = 4/3 ln 2. A second sample, of policy weight 0 and
        // an all-zero policy target (a cheap search's move) and no reply, counts in the value
        // alone, and its flattened target of zeros is no NaN.
        let two = |first: Vec<f32>, second: Vec<f32>| tensor([first, second].concat(), [2, 3]);
        let output = NetOutput {
            policy: two(vec![0.0; 3], vec![0.0; 3]),
            value: two(vec![0.0; 3], vec![0.0; 3]),
            reply: Some(two(vec![0.0, 2f32.ln(), 0.0], vec![0.0; 3])),
            soft: Some(two(vec![2f32.ln(), 0.0, 0.0], vec![1.0, 0.0, 0.0])),
        };
        let weights = || Tensor::<1>::from_data(TensorData::new(vec![1.0f32, 0.0], [2]), &device);
        let targets = || LossTargets {
            policy: two(vec![16.0 / 17.0, 1.0 / 17.0, 0.0], vec![0.0; 3]),
            policy_weight: weights(),
            value: two(vec![1.0, 0.0, 0.0], vec![1.0, 0.0, 0.0]),
            reply: Some((two(vec![0.0, 1.0, 0.0], vec![0.0; 3]), weights())),
        };
        let parts = losses(&output, targets());
        let (ln2, ln3, soft) = (2f32.ln(), 3f32.ln(), 4.0 / 3.0 * 2f32.ln());
        assert!((scalar(parts.policy) - ln3).abs() < 1e-6);
        assert!((scalar(parts.value) - ln3).abs() < 1e-6);
        assert!((scalar(parts.reply.unwrap()) - ln2).abs() < 1e-6);
        assert!((scalar(parts.soft.unwrap()) - soft).abs() < 1e-5);
        let total = ln3 + ln3 + REPLY_WEIGHT * ln2 + SOFT_WEIGHT * soft;
        assert!((scalar(parts.total) - total).abs() < 1e-4);
        // Without the training heads, neither loss and the total of the two.
        let parts = losses(&NetOutput { reply: None, soft: None, ..output }, targets());
        assert!(parts.reply.is_none() && parts.soft.is_none());
        assert!((scalar(parts.total) - 2.0 * ln3).abs() < 1e-5);
    }
}

//! Batch-norm under autodiff: the forward on the inner backend, recorded with a
//! hand-written backward step that calls the inner backend's backward operation.

use burn::backend::autodiff::checkpoint::base::Checkpointer;
use burn::backend::autodiff::checkpoint::strategy::CheckpointStrategy;
use burn::backend::autodiff::grads::Gradients;
use burn::backend::autodiff::ops::{Backward, Ops, OpsKind};
use burn::backend::autodiff::Autodiff;
use burn::backend::tensor::FloatTensor;
use burn::backend::AutodiffBackend;

use super::BatchNormBackend;

/// The backward step of one batch-norm; its state is the forward's input, `gamma`, the
/// batch's mean and variance, and epsilon.
#[derive(Debug)]
struct BatchNormBackward;

impl<B: BatchNormBackend> Backward<B, 3> for BatchNormBackward {
    type State = (FloatTensor<B>, FloatTensor<B>, FloatTensor<B>, FloatTensor<B>, f64);

    fn backward(self, ops: Ops<Self::State, 3>, grads: &mut Gradients, _checkpointer: &mut Checkpointer) {
        let [node_x, node_gamma, node_beta] = ops.parents;
        let grad = grads.consume::<B>(&ops.node);
        let (x, gamma, mean, variance, epsilon) = ops.state;
        let (x_grad, gamma_grad, beta_grad) = B::batch_norm_backward(x, gamma, mean, variance, epsilon, grad);
        for (node, grad) in [(node_x, x_grad), (node_gamma, gamma_grad), (node_beta, beta_grad)] {
            if let Some(node) = node {
                grads.register::<B>(node.id, grad);
            }
        }
    }
}

/// Only the forward is recorded, its statistics returned untracked (they feed the
/// running statistics only); the backward keeps the trait's default (nothing
/// differentiates it twice).
impl<B: BatchNormBackend, C: CheckpointStrategy> BatchNormBackend for Autodiff<B, C> {
    fn batch_norm_forward(
        x: FloatTensor<Self>,
        gamma: FloatTensor<Self>,
        beta: FloatTensor<Self>,
        epsilon: f64,
    ) -> (FloatTensor<Self>, FloatTensor<Self>, FloatTensor<Self>) {
        let prepared = BatchNormBackward.prepare::<C>([x.node(), gamma.node(), beta.node()]).compute_bound().stateful();
        let (x, gamma, beta) = (x.into_primitive(), gamma.into_primitive(), beta.into_primitive());
        let (output, mean, variance) = B::batch_norm_forward(x.clone(), gamma.clone(), beta, epsilon);
        let output = match prepared {
            OpsKind::Tracked(prep) => prep.finish((x, gamma, mean.clone(), variance.clone(), epsilon), output),
            OpsKind::UnTracked(prep) => prep.finish(output),
        };
        (output, Self::from_inner(mean), Self::from_inner(variance))
    }
}

//! Batch-norm (with its residual add and ReLU) under autodiff: the forward on the inner
//! backend, recorded with a hand-written backward step that calls the inner backend's
//! backward operation.

use burn::backend::autodiff::checkpoint::base::Checkpointer;
use burn::backend::autodiff::checkpoint::strategy::CheckpointStrategy;
use burn::backend::autodiff::grads::Gradients;
use burn::backend::autodiff::ops::{Backward, Ops, OpsKind};
use burn::backend::autodiff::Autodiff;
use burn::backend::tensor::FloatTensor;
use burn::backend::AutodiffBackend;

use super::BatchNormBackend;

/// What the backward step needs of the forward: its input, `gamma`, the batch's mean and
/// variance, epsilon and its output.
type State<B> = (FloatTensor<B>, FloatTensor<B>, FloatTensor<B>, FloatTensor<B>, f64, FloatTensor<B>);

/// A forward's output, mean and variance.
type Outputs<B> = (FloatTensor<B>, FloatTensor<B>, FloatTensor<B>);

/// The backward step of one batch-norm; its parents are `x`, `gamma`, `beta` and, where
/// `N` is 4, the residual.
#[derive(Debug)]
struct BatchNormBackward<const N: usize>;

impl<B: BatchNormBackend, const N: usize> Backward<B, N> for BatchNormBackward<N> {
    type State = State<B>;

    fn backward(self, ops: Ops<Self::State, N>, grads: &mut Gradients, _checkpointer: &mut Checkpointer) {
        let grad = grads.consume::<B>(&ops.node);
        let (x, gamma, mean, variance, epsilon, output) = ops.state;
        let (x_grad, gamma_grad, beta_grad, through) =
            B::batch_norm_relu_backward(x, gamma, mean, variance, epsilon, output, grad);
        for (node, grad) in ops.parents.into_iter().zip([x_grad, gamma_grad, beta_grad, through]) {
            if let Some(node) = node {
                grads.register::<B>(node.id, grad);
            }
        }
    }
}

/// Only the forwards are recorded, their statistics returned untracked (they feed the
/// running statistics only); the backward keeps the trait's default (nothing
/// differentiates it twice).
impl<B: BatchNormBackend, C: CheckpointStrategy> BatchNormBackend for Autodiff<B, C> {
    fn batch_norm_relu_forward(
        x: FloatTensor<Self>,
        gamma: FloatTensor<Self>,
        beta: FloatTensor<Self>,
        epsilon: f64,
    ) -> (FloatTensor<Self>, FloatTensor<Self>, FloatTensor<Self>) {
        let nodes = [x.node(), gamma.node(), beta.node()];
        let prepared = BatchNormBackward::<3>.prepare::<C>(nodes).compute_bound().stateful();
        let (x, gamma, beta) = (x.into_primitive(), gamma.into_primitive(), beta.into_primitive());
        let forward = B::batch_norm_relu_forward(x.clone(), gamma.clone(), beta, epsilon);
        record(prepared, (x, gamma, epsilon), forward)
    }

    fn batch_norm_add_relu_forward(
        x: FloatTensor<Self>,
        residual: FloatTensor<Self>,
        gamma: FloatTensor<Self>,
        beta: FloatTensor<Self>,
        epsilon: f64,
    ) -> (FloatTensor<Self>, FloatTensor<Self>, FloatTensor<Self>) {
        let nodes = [x.node(), gamma.node(), beta.node(), residual.node()];
        let prepared = BatchNormBackward::<4>.prepare::<C>(nodes).compute_bound().stateful();
        let (x, gamma, beta) = (x.into_primitive(), gamma.into_primitive(), beta.into_primitive());
        let forward =
            B::batch_norm_add_relu_forward(x.clone(), residual.into_primitive(), gamma.clone(), beta, epsilon);
        record(prepared, (x, gamma, epsilon), forward)
    }
}

/// The output of a forward (`output`, mean, variance on the inner backend) as the tracked
/// output of `prepared`, whose state it completes from the forward's `x`, `gamma` and
/// `epsilon`; the statistics untracked.
fn record<B: BatchNormBackend, C: CheckpointStrategy, const N: usize>(
    prepared: OpsKind<BatchNormBackward<N>, B, State<B>, C, N>,
    (x, gamma, epsilon): (FloatTensor<B>, FloatTensor<B>, f64),
    (output, mean, variance): Outputs<B>,
) -> Outputs<Autodiff<B, C>>
where
    BatchNormBackward<N>: Backward<B, N, State = State<B>>,
{
    let output = match prepared {
        OpsKind::Tracked(prep) => {
            prep.finish((x, gamma, mean.clone(), variance.clone(), epsilon, output.clone()), output)
        }
        OpsKind::UnTracked(prep) => prep.finish(output),
    };
    (output, Autodiff::<B, C>::from_inner(mean), Autodiff::<B, C>::from_inner(variance))
}

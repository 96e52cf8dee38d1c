//! The convolution under autodiff: the forward on the inner backend, recorded with a
//! hand-written backward step that calls the inner backend's two gradient operations.

use burn::backend::autodiff::checkpoint::base::Checkpointer;
use burn::backend::autodiff::checkpoint::strategy::CheckpointStrategy;
use burn::backend::autodiff::grads::Gradients;
use burn::backend::autodiff::ops::{Backward, Ops, OpsKind};
use burn::backend::autodiff::Autodiff;
use burn::backend::tensor::FloatTensor;

use super::Conv3x3Backend;

/// The backward step of one convolution; its state is the forward's input and weight.
#[derive(Debug)]
struct Conv3x3Backward;

impl<B: Conv3x3Backend> Backward<B, 2> for Conv3x3Backward {
    type State = (FloatTensor<B>, FloatTensor<B>);

    fn backward(self, ops: Ops<Self::State, 2>, grads: &mut Gradients, _checkpointer: &mut Checkpointer) {
        let [node_x, node_weight] = ops.parents;
        let grad = grads.consume::<B>(&ops.node);
        let (x, weight) = ops.state;
        if let Some(node) = node_x {
            grads.register::<B>(node.id, B::conv3x3_grad_input(x.clone(), weight.clone(), grad.clone()));
        }
        if let Some(node) = node_weight {
            grads.register::<B>(node.id, B::conv3x3_grad_weight(x, weight, grad));
        }
    }
}

/// Only the forward is recorded; the gradient operations keep the trait's differentiable
/// defaults (nothing differentiates them twice).
impl<B: Conv3x3Backend, C: CheckpointStrategy> Conv3x3Backend for Autodiff<B, C> {
    fn conv3x3(x: FloatTensor<Self>, weight: FloatTensor<Self>) -> FloatTensor<Self> {
        match Conv3x3Backward.prepare::<C>([x.node(), weight.node()]).compute_bound().stateful() {
            OpsKind::Tracked(prep) => {
                let (x, weight) = (x.into_primitive(), weight.into_primitive());
                let output = B::conv3x3(x.clone(), weight.clone());
                prep.finish((x, weight), output)
            }
            OpsKind::UnTracked(prep) => prep.finish(B::conv3x3(x.into_primitive(), weight.into_primitive())),
        }
    }
}

//! The extension trait: batch-norm's training forward, with the residual add and the ReLU
//! that follow it in the net, and its backward, on channels-last tensors, routed by burn's
//! `Dispatch` to the backend a tensor lives on.

use burn::backend::backend_extension;
use burn::backend::tensor::FloatTensor;

/// Batch-norm in training mode over the channels-last `x` `[batch, height, width,
/// channels]` with `gamma` and `beta` `[channels]` (the statistics are the batch's, per
/// channel), plus a residual shaped as `x` where there is one, through a ReLU. The default
/// bodies are burn's own between transposes ([`by_burn`]), so every backend has a correct
/// one; `flex` overrides them with our kernels, `Autodiff` adds the backward step.
#[backend_extension(Flex, Autodiff)]
pub trait BatchNormBackend: burn::backend::Backend {
    /// The output, `relu(normalised x)`, the batch's mean and its biased variance
    /// (`[channels]` both, what the running statistics are updated with).
    fn batch_norm_relu_forward(
        x: FloatTensor<Self>,
        gamma: FloatTensor<Self>,
        beta: FloatTensor<Self>,
        epsilon: f64,
    ) -> (FloatTensor<Self>, FloatTensor<Self>, FloatTensor<Self>) {
        by_burn::forward::<Self>(x, gamma, beta, epsilon, None)
    }

    /// The output, `relu(normalised x + residual)`, the batch's mean and its biased
    /// variance: the end of a residual block.
    fn batch_norm_add_relu_forward(
        x: FloatTensor<Self>,
        residual: FloatTensor<Self>,
        gamma: FloatTensor<Self>,
        beta: FloatTensor<Self>,
        epsilon: f64,
    ) -> (FloatTensor<Self>, FloatTensor<Self>, FloatTensor<Self>) {
        by_burn::forward::<Self>(x, gamma, beta, epsilon, Some(residual))
    }

    /// The loss's gradients to `x`, `gamma`, `beta` and the residual (where there was
    /// one) from its gradient `grad` to the forward's `output`, given the mean and
    /// variance the forward returned.
    fn batch_norm_relu_backward(
        x: FloatTensor<Self>,
        gamma: FloatTensor<Self>,
        mean: FloatTensor<Self>,
        variance: FloatTensor<Self>,
        epsilon: f64,
        output: FloatTensor<Self>,
        grad: FloatTensor<Self>,
    ) -> (FloatTensor<Self>, FloatTensor<Self>, FloatTensor<Self>, FloatTensor<Self>) {
        by_burn::backward::<Self>(x, gamma, [mean, variance], epsilon, [output, grad])
    }
}

/// The two operations by burn's channels-first batch-norm ([`ModuleOps::batch_norm_train`]
/// and its backward), add and ReLU, the channels-last tensors transposed to it and back.
pub(super) mod by_burn {
    use burn::backend::ops::ModuleOps;
    use burn::backend::tensor::FloatTensor;
    use burn::backend::Backend;

    /// `[batch, height, width, channels]` to `[batch, channels, height, width]`.
    fn first<B: Backend>(x: FloatTensor<B>) -> FloatTensor<B> {
        B::float_permute(x, &[0, 3, 1, 2])
    }

    /// `[batch, channels, height, width]` to `[batch, height, width, channels]`.
    fn last<B: Backend>(x: FloatTensor<B>) -> FloatTensor<B> {
        B::float_permute(x, &[0, 2, 3, 1])
    }

    /// The output, mean and variance.
    pub fn forward<B: Backend>(
        x: FloatTensor<B>,
        gamma: FloatTensor<B>,
        beta: FloatTensor<B>,
        epsilon: f64,
        residual: Option<FloatTensor<B>>,
    ) -> (FloatTensor<B>, FloatTensor<B>, FloatTensor<B>) {
        let result = <B as ModuleOps<B>>::batch_norm_train(first::<B>(x), gamma, beta, epsilon);
        let normalised = last::<B>(result.output);
        let sum = match residual {
            Some(residual) => B::float_add(normalised, residual),
            None => normalised,
        };
        (B::relu(sum), result.mean, result.variance)
    }

    /// The gradients to `x`, `gamma`, `beta` and the residual.
    pub fn backward<B: Backend>(
        x: FloatTensor<B>,
        gamma: FloatTensor<B>,
        [mean, variance]: [FloatTensor<B>; 2],
        epsilon: f64,
        [output, grad]: [FloatTensor<B>; 2],
    ) -> (FloatTensor<B>, FloatTensor<B>, FloatTensor<B>, FloatTensor<B>) {
        let through = B::relu_backward(output, grad);
        let (x, grad) = (first::<B>(x), first::<B>(through.clone()));
        let result = <B as ModuleOps<B>>::batch_norm_train_backward(x, gamma, mean, variance, epsilon, grad);
        (last::<B>(result.x_grad), result.gamma_grad, result.beta_grad, through)
    }
}

//! The extension trait: batch-norm's training forward and its backward on channels-last
//! tensors, routed by burn's `Dispatch` to the backend a tensor lives on.

use burn::backend::backend_extension;
use burn::backend::tensor::FloatTensor;

/// Batch-norm in training mode over the channels-last `x` `[batch, height, width,
/// channels]` with `gamma` and `beta` `[channels]`: the statistics are the batch's, per
/// channel. The default bodies are burn's own between transposes ([`by_burn`]), so every
/// backend has a correct one; `flex` overrides them with our kernels, `Autodiff` adds the
/// backward step.
#[backend_extension(Flex, Autodiff)]
pub trait BatchNormBackend: burn::backend::Backend {
    /// The normalised output, the batch's mean and its biased variance (`[channels]`
    /// both, what the running statistics are updated with).
    fn batch_norm_forward(
        x: FloatTensor<Self>,
        gamma: FloatTensor<Self>,
        beta: FloatTensor<Self>,
        epsilon: f64,
    ) -> (FloatTensor<Self>, FloatTensor<Self>, FloatTensor<Self>) {
        by_burn::forward::<Self>(x, gamma, beta, epsilon)
    }

    /// The loss's gradients to `x`, `gamma` and `beta` from its gradient `grad` to the
    /// output, given the mean and variance the forward returned.
    fn batch_norm_backward(
        x: FloatTensor<Self>,
        gamma: FloatTensor<Self>,
        mean: FloatTensor<Self>,
        variance: FloatTensor<Self>,
        epsilon: f64,
        grad: FloatTensor<Self>,
    ) -> (FloatTensor<Self>, FloatTensor<Self>, FloatTensor<Self>) {
        by_burn::backward::<Self>(x, gamma, [mean, variance], epsilon, grad)
    }
}

/// The two operations by burn's channels-first batch-norm ([`ModuleOps::batch_norm_train`]
/// and its backward), the channels-last tensors transposed to it and back.
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
    ) -> (FloatTensor<B>, FloatTensor<B>, FloatTensor<B>) {
        let result = <B as ModuleOps<B>>::batch_norm_train(first::<B>(x), gamma, beta, epsilon);
        (last::<B>(result.output), result.mean, result.variance)
    }

    /// The gradients to `x`, `gamma` and `beta`.
    pub fn backward<B: Backend>(
        x: FloatTensor<B>,
        gamma: FloatTensor<B>,
        [mean, variance]: [FloatTensor<B>; 2],
        epsilon: f64,
        grad: FloatTensor<B>,
    ) -> (FloatTensor<B>, FloatTensor<B>, FloatTensor<B>) {
        let (x, grad) = (first::<B>(x), first::<B>(grad));
        let result = <B as ModuleOps<B>>::batch_norm_train_backward(x, gamma, mean, variance, epsilon, grad);
        (last::<B>(result.x_grad), result.gamma_grad, result.beta_grad)
    }
}

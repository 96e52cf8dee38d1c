//! The extension trait: batch-norm's training forward and its backward, routed by burn's
//! `Dispatch` to the backend a tensor lives on.

use burn::backend::backend_extension;
use burn::backend::ops::ModuleOps;
use burn::backend::tensor::FloatTensor;

/// Batch-norm in training mode over `x` `[batch, channels, …]` with `gamma` and `beta`
/// `[channels]`: the statistics are the batch's, per channel. The default bodies are
/// burn's own ([`ModuleOps::batch_norm_train`] and its backward), so every backend has a
/// correct one; `flex` overrides them with our kernels, `Autodiff` adds the backward step.
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
        let result = <Self as ModuleOps<Self>>::batch_norm_train(x, gamma, beta, epsilon);
        (result.output, result.mean, result.variance)
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
        let result = <Self as ModuleOps<Self>>::batch_norm_train_backward(x, gamma, mean, variance, epsilon, grad);
        (result.x_grad, result.gamma_grad, result.beta_grad)
    }
}

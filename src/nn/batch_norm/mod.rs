//! Batch-norm in training mode on CPU: the statistics of a batch and the normalisation,
//! forward and backward, of channels-last activations (the trunk's layout in training on
//! CPU) on burn's `flex` backend through a backend extension ([`BatchNormBackend`]) with
//! our own kernels. The module, its parameters and running statistics stay burn's
//! [`BatchNorm`]; inference, and any device but `flex`, keep burn's own batch-norm.

mod autodiff;
mod backend;
mod flex;
mod kernels;

use burn::backend::Dispatch;
use burn::nn::BatchNorm;
use burn::tensor::{Device, Tensor};

pub use backend::BatchNormBackend;

/// `bn` applied to `x` `[batch, channels, height, width]`, as [`BatchNorm::forward`]
/// computes it (in training, the batch's statistics, and the running statistics updated
/// with them), through [`BatchNormBackend`] where [`fits`] says it runs.
pub fn batch_norm(bn: &BatchNorm, x: Tensor<4>) -> Tensor<4> {
    if !fits(bn, &x) {
        return bn.forward(x);
    }
    batch_norm_channels_last(bn, x.permute([0, 2, 3, 1])).permute([0, 3, 1, 2])
}

/// `bn` applied to the channels-last `x` `[batch, height, width, channels]`: [`batch_norm`]
/// without its transposes.
pub fn batch_norm_channels_last(bn: &BatchNorm, x: Tensor<4>) -> Tensor<4> {
    if !fits(bn, &x) {
        return bn.forward(x.permute([0, 3, 1, 2])).permute([0, 2, 3, 1]);
    }
    let (gamma, beta) = (bn.gamma.val().into_dispatch(), bn.beta.val().into_dispatch());
    let (output, mean, variance) =
        <Dispatch as BatchNormBackend>::batch_norm_forward(x.into_dispatch(), gamma, beta, bn.epsilon);
    for (running, batch) in [(&bn.running_mean, mean), (&bn.running_var, variance)] {
        let batch = Tensor::<1>::from_dispatch(batch).detach();
        let current = running.value_sync().to_device(&batch.device());
        running.update(current.mul_scalar(1.0 - bn.momentum).add(batch.mul_scalar(bn.momentum)).detach());
    }
    Tensor::from_dispatch(output)
}

/// Whether [`batch_norm`] takes `x` through our kernels: `bn` in training on an autodiff
/// device (where [`BatchNorm::forward`] uses the batch's statistics) and `x` on `flex`.
pub fn fits(bn: &BatchNorm, x: &Tensor<4>) -> bool {
    let device = x.device();
    device.is_autodiff() && bn.training.is_enabled() && device.inner() == Device::flex()
}

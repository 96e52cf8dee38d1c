//! Batch-norm in training mode on CPU, with the ReLU (and a residual block's add) that
//! follows every batch-norm of the net: the statistics of a batch and the normalisation,
//! forward and backward, of channels-last activations (the trunk's layout in training on
//! CPU) in one pass each, on burn's `flex` backend through a backend extension ([`BatchNormBackend`]) with
//! our own kernels. The module, its parameters and running statistics stay burn's
//! [`BatchNorm`]; inference, and any device but `flex`, keep burn's own batch-norm.

mod autodiff;
mod backend;
mod flex;
mod kernels;

use burn::backend::Dispatch;
use burn::nn::BatchNorm;
use burn::tensor::activation::relu;
use burn::tensor::{Device, Tensor};

pub use backend::BatchNormBackend;

/// `relu(bn(x))` for `x` `[batch, channels, height, width]`, `bn` as [`BatchNorm::forward`]
/// computes it (in training, the batch's statistics, and the running statistics updated
/// with them), through [`BatchNormBackend`] where [`fits`] says it runs.
pub fn batch_norm_relu(bn: &BatchNorm, x: Tensor<4>) -> Tensor<4> {
    if !fits(bn, &x) {
        return relu(bn.forward(x));
    }
    batch_norm_relu_channels_last(bn, x.permute([0, 2, 3, 1]), None).permute([0, 3, 1, 2])
}

/// `relu(bn(x) + residual)` for the channels-last `x` `[batch, height, width, channels]`
/// (and `residual` shaped as `x`, where there is one): [`batch_norm_relu`] without its
/// transposes, and with a residual block's add.
pub fn batch_norm_relu_channels_last(bn: &BatchNorm, x: Tensor<4>, residual: Option<Tensor<4>>) -> Tensor<4> {
    if !fits(bn, &x) {
        let normalised = bn.forward(x.permute([0, 3, 1, 2])).permute([0, 2, 3, 1]);
        return relu(match residual {
            Some(residual) => normalised + residual,
            None => normalised,
        });
    }
    let (gamma, beta) = (bn.gamma.val().into_dispatch(), bn.beta.val().into_dispatch());
    let (output, mean, variance) = match residual {
        None => <Dispatch as BatchNormBackend>::batch_norm_relu_forward(x.into_dispatch(), gamma, beta, bn.epsilon),
        Some(residual) => {
            let (x, residual) = (x.into_dispatch(), residual.into_dispatch());
            <Dispatch as BatchNormBackend>::batch_norm_add_relu_forward(x, residual, gamma, beta, bn.epsilon)
        }
    };
    for (running, batch) in [(&bn.running_mean, mean), (&bn.running_var, variance)] {
        let batch = Tensor::<1>::from_dispatch(batch).detach();
        let current = running.value_sync().to_device(&batch.device());
        running.update(current.mul_scalar(1.0 - bn.momentum).add(batch.mul_scalar(bn.momentum)).detach());
    }
    Tensor::from_dispatch(output)
}

/// Whether [`batch_norm_relu`] takes `x` through our kernels: `bn` in training on an autodiff
/// device (where [`BatchNorm::forward`] uses the batch's statistics) and `x` on `flex`.
pub fn fits(bn: &BatchNorm, x: &Tensor<4>) -> bool {
    let device = x.device();
    device.is_autodiff() && bn.training.is_enabled() && device.inner() == Device::flex()
}

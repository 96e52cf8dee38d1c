//! 3×3 convolutions for training on CPU: the trunk's convs (stride 1, padding 1, no bias)
//! run channels-last on burn's `flex` backend through a backend extension
//! ([`Conv3x3Backend`]) with its own forward and backward, so the model, autodiff,
//! optimisers and checkpoints stay burn's; any other device (the GPU backends) keeps
//! burn's own convolution, channels first.

mod autodiff;
mod backend;
mod flex;
mod kernels;

use burn::backend::Dispatch;
use burn::nn::conv::Conv2d;
use burn::nn::PaddingConfig2d;
use burn::tensor::{Device, Tensor};

pub use backend::{options, Conv3x3Backend};

use std::sync::atomic::{AtomicBool, Ordering};

use super::bf16::has_bf16;
use super::Precision;

/// Whether the products of training's 3×3 convolutions (forward and both gradients) run
/// in bf16: set by the trainer for the process ([`set_precision`]).
static IN_BF16: AtomicBool = AtomicBool::new(false);

/// Makes the products of the convolutions and of their gradients run in `precision` from
/// now on, in this process (bf16 only where the CPU has it: else f32).
pub fn set_precision(precision: Precision) {
    IN_BF16.store(precision == Precision::Bf16 && has_bf16(), Ordering::Relaxed);
}

/// The precision [`set_precision`] chose.
fn precision() -> Precision {
    if IN_BF16.load(Ordering::Relaxed) {
        Precision::Bf16
    } else {
        Precision::F32
    }
}

/// The 3×3 convolution of the channels-last `x` `[batch, height, width, in]` by `weight`
/// `[out, in, 3, 3]` (stride 1, padding 1, no bias), `[batch, height, width, out]`, through
/// [`Conv3x3Backend`]. For tensors on the `flex` device, plain or autodiff ([`fits`]).
pub fn conv3x3(x: Tensor<4>, weight: Tensor<4>) -> Tensor<4> {
    Tensor::from_dispatch(<Dispatch as Conv3x3Backend>::conv3x3(x.into_dispatch(), weight.into_dispatch()))
}

/// Whether `conv` applied to `x` is the convolution [`conv3x3`] computes, on a device it
/// runs on: a 3×3 kernel, stride 1, padding 1, no dilation, one group, no bias, and `x`
/// on the `flex` device (where the trunk then runs channels-last).
pub fn fits(conv: &Conv2d, x: &Tensor<4>) -> bool {
    conv.kernel_size == [3, 3]
        && conv.stride == [1, 1]
        && conv.dilation == [1, 1]
        && conv.groups == 1
        && conv.bias.is_none()
        && conv.padding == PaddingConfig2d::Explicit(1, 1, 1, 1)
        && x.device().inner() == Device::flex()
}

//! 3×3 convolutions for training on CPU: the trunk's convs (stride 1, padding 1, no bias)
//! run on burn's `flex` backend through a backend extension ([`Conv3x3Backend`]) with
//! its own forward and backward, so the model, autodiff, optimisers and checkpoints stay
//! burn's; any other device (the GPU backends) keeps burn's own convolution.

mod autodiff;
mod backend;
mod flex;
mod kernels;

use burn::backend::Dispatch;
use burn::nn::conv::Conv2d;
use burn::nn::PaddingConfig2d;
use burn::tensor::{Device, Tensor};

pub use backend::{options, Conv3x3Backend};

/// The 3×3 convolution of `x` `[batch, in, height, width]` by `weight` `[out, in, 3, 3]`
/// (stride 1, padding 1, no bias) through [`Conv3x3Backend`]. Only for tensors on the
/// `flex` device, plain or autodiff (other backends have no implementation; see [`fits`]).
pub fn conv3x3(x: Tensor<4>, weight: Tensor<4>) -> Tensor<4> {
    Tensor::from_dispatch(<Dispatch as Conv3x3Backend>::conv3x3(x.into_dispatch(), weight.into_dispatch()))
}

/// Whether `conv` applied to `x` is the convolution [`conv3x3`] computes, on a device it
/// runs on: a 3×3 kernel, stride 1, padding 1, no dilation, one group, no bias, and `x`
/// on the `flex` device.
pub fn fits(conv: &Conv2d, x: &Tensor<4>) -> bool {
    conv.kernel_size == [3, 3]
        && conv.stride == [1, 1]
        && conv.dilation == [1, 1]
        && conv.groups == 1
        && conv.bias.is_none()
        && conv.padding == PaddingConfig2d::Explicit(1, 1, 1, 1)
        && x.device().inner() == Device::flex()
}

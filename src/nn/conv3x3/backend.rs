//! The extension trait: the three operations of a 3×3 convolution that training needs,
//! on channels-last tensors, routed by burn's `Dispatch` to the backend a tensor lives on.

use burn::backend::backend_extension;
use burn::backend::ops::ConvOptions;
use burn::backend::tensor::FloatTensor;

/// The convolution the trait computes, in burn's terms: stride 1, padding 1, dilation 1,
/// one group.
pub fn options() -> ConvOptions<2> {
    ConvOptions::new([1, 1], [1, 1], [1, 1], 1)
}

/// A 3×3 convolution with stride 1, padding 1 and no bias on channels-last tensors: `x`
/// `[batch, height, width, in]` and `weight` `[out, in, 3, 3]` give `[batch, height,
/// width, out]`. The default bodies are burn's own convolution between transposes
/// ([`by_burn`]), so every backend has a correct one; `flex` overrides them with our
/// kernels, `Autodiff` adds the backward step.
#[backend_extension(Flex, Autodiff)]
pub trait Conv3x3Backend: burn::backend::Backend {
    /// The convolution's output.
    fn conv3x3(x: FloatTensor<Self>, weight: FloatTensor<Self>) -> FloatTensor<Self> {
        by_burn::conv3x3::<Self>(x, weight)
    }

    /// The loss's gradient to `x` from its gradient `grad` to the output (`x` gives only
    /// its shape).
    fn conv3x3_grad_input(
        x: FloatTensor<Self>,
        weight: FloatTensor<Self>,
        grad: FloatTensor<Self>,
    ) -> FloatTensor<Self> {
        by_burn::grad_input::<Self>(x, weight, grad)
    }

    /// The loss's gradient to `weight` (`[out, in, 3, 3]`) from its gradient `grad` to the
    /// output.
    fn conv3x3_grad_weight(
        x: FloatTensor<Self>,
        weight: FloatTensor<Self>,
        grad: FloatTensor<Self>,
    ) -> FloatTensor<Self> {
        by_burn::grad_weight::<Self>(x, weight, grad)
    }
}

/// The three operations by burn's channels-first convolution, the channels-last tensors
/// transposed to it and back.
pub(super) mod by_burn {
    use burn::backend::tensor::FloatTensor;
    use burn::backend::Backend;

    use super::options;

    /// `[batch, height, width, channels]` to `[batch, channels, height, width]`.
    fn first<B: Backend>(x: FloatTensor<B>) -> FloatTensor<B> {
        B::float_permute(x, &[0, 3, 1, 2])
    }

    /// `[batch, channels, height, width]` to `[batch, height, width, channels]`.
    fn last<B: Backend>(x: FloatTensor<B>) -> FloatTensor<B> {
        B::float_permute(x, &[0, 2, 3, 1])
    }

    /// The convolution's output.
    pub fn conv3x3<B: Backend>(x: FloatTensor<B>, weight: FloatTensor<B>) -> FloatTensor<B> {
        last::<B>(B::conv2d(first::<B>(x), weight, None, options()))
    }

    /// The gradient to `x`.
    pub fn grad_input<B: Backend>(x: FloatTensor<B>, weight: FloatTensor<B>, grad: FloatTensor<B>) -> FloatTensor<B> {
        last::<B>(B::conv2d_x_backward(first::<B>(x), weight, first::<B>(grad), options()))
    }

    /// The gradient to `weight`.
    pub fn grad_weight<B: Backend>(x: FloatTensor<B>, weight: FloatTensor<B>, grad: FloatTensor<B>) -> FloatTensor<B> {
        B::conv2d_weight_backward(first::<B>(x), weight, first::<B>(grad), options())
    }
}

//! The extension trait: the three operations of a 3×3 convolution that training needs,
//! routed by burn's `Dispatch` to the backend a tensor lives on.

use burn::backend::backend_extension;
use burn::backend::ops::ConvOptions;
use burn::backend::tensor::FloatTensor;

/// The convolution the trait computes, in burn's terms: stride 1, padding 1, dilation 1,
/// one group.
pub fn options() -> ConvOptions<2> {
    ConvOptions::new([1, 1], [1, 1], [1, 1], 1)
}

/// A 3×3 convolution with stride 1, padding 1 and no bias: `x` `[batch, in, height,
/// width]` and `weight` `[out, in, 3, 3]` give `[batch, out, height, width]`. The default
/// bodies are burn's own convolution, so every backend has a correct one; `flex`
/// overrides them with our kernels, `Autodiff` adds the backward step.
#[backend_extension(Flex, Autodiff)]
pub trait Conv3x3Backend: burn::backend::Backend {
    /// The convolution's output.
    fn conv3x3(x: FloatTensor<Self>, weight: FloatTensor<Self>) -> FloatTensor<Self> {
        Self::conv2d(x, weight, None, options())
    }

    /// The loss's gradient to `x` from its gradient `grad` to the output (`x` gives only
    /// its shape).
    fn conv3x3_grad_input(
        x: FloatTensor<Self>,
        weight: FloatTensor<Self>,
        grad: FloatTensor<Self>,
    ) -> FloatTensor<Self> {
        Self::conv2d_x_backward(x, weight, grad, options())
    }

    /// The loss's gradient to `weight` (`[out, in, 3, 3]`) from its gradient `grad` to the
    /// output.
    fn conv3x3_grad_weight(
        x: FloatTensor<Self>,
        weight: FloatTensor<Self>,
        grad: FloatTensor<Self>,
    ) -> FloatTensor<Self> {
        Self::conv2d_weight_backward(x, weight, grad, options())
    }
}

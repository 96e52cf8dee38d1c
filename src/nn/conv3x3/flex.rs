//! The convolution on burn's `flex` CPU backend: our kernels ([`super::kernels`]) on the
//! tensors' `f32` storage, burn's own (through the trait's defaults) for other dtypes or
//! shapes that do not fit.

use burn::backend::flex::FlexTensor;
use burn::backend::Flex;

use super::kernels::{self, Dims};
use super::Conv3x3Backend;
use crate::nn::flex_data::{contiguous_f32, dims, f32_tensor};

impl Conv3x3Backend for Flex {
    fn conv3x3(x: FlexTensor, weight: FlexTensor) -> FlexTensor {
        ours([&x, &weight], None, |d, [x, weight, _]| (kernels::forward(d, x, weight, super::precision()), d.output()))
            .unwrap_or_else(|| super::backend::by_burn::conv3x3::<Flex>(x, weight))
    }

    fn conv3x3_grad_input(x: FlexTensor, weight: FlexTensor, grad: FlexTensor) -> FlexTensor {
        ours([&x, &weight], Some(&grad), |d, [_, weight, grad]| {
            (kernels::grad_input(d, weight, grad, super::precision()), d.input())
        })
        .unwrap_or_else(|| super::backend::by_burn::grad_input::<Flex>(x, weight, grad))
    }

    fn conv3x3_grad_weight(x: FlexTensor, weight: FlexTensor, grad: FlexTensor) -> FlexTensor {
        ours([&x, &weight], Some(&grad), |d, [x, _, grad]| {
            (kernels::grad_weight(d, x, grad, super::precision()), d.weight())
        })
        .unwrap_or_else(|| super::backend::by_burn::grad_weight::<Flex>(x, weight, grad))
    }
}

/// Runs `kernel` on the contiguous `f32` storage of the input and weight (and of the
/// output's gradient, when given; an empty slice otherwise), and wraps the floats it
/// returns in a tensor of the shape it gives; `None`, for burn's kernels to take over,
/// when a tensor is not `f32` or the shapes are not those of a 3×3 convolution.
fn ours(
    [x, weight]: [&FlexTensor; 2],
    grad: Option<&FlexTensor>,
    kernel: impl FnOnce(Dims, [&[f32]; 3]) -> (Vec<f32>, [usize; 4]),
) -> Option<FlexTensor> {
    let [batch, height, width, inputs] = dims::<4>(x)?;
    let outputs = dims::<4>(weight)?[0];
    let d = Dims { batch, inputs, outputs, height, width };
    let grad_fits = grad.map_or(Some(true), |grad| Some(dims(grad)? == d.output()))?;
    if dims(weight)? != d.weight() || !grad_fits {
        return None;
    }
    let (x, weight) = (contiguous_f32(x)?, contiguous_f32(weight)?);
    let grad = match grad {
        Some(grad) => Some(contiguous_f32(grad)?),
        None => None,
    };
    let no_grad: &[f32] = &[];
    let slices =
        [x.as_slice::<f32>()?, weight.as_slice::<f32>()?, grad.as_ref().map_or(Some(no_grad), |g| g.as_slice())?];
    let (floats, shape) = kernel(d, slices);
    Some(f32_tensor(floats, shape))
}

//! Batch-norm on burn's `flex` CPU backend: our kernels ([`super::kernels`]) on the
//! channels-last tensors' `f32` storage, burn's own (the trait's defaults) for other
//! dtypes or shapes.

use burn::backend::flex::FlexTensor;
use burn::backend::Flex;

use super::backend::by_burn;
use super::kernels::{self, Dims, Results};
use super::BatchNormBackend;
use crate::nn::flex_data::{contiguous_f32, dims, f32_tensor};

impl BatchNormBackend for Flex {
    fn batch_norm_forward(
        x: FlexTensor,
        gamma: FlexTensor,
        beta: FlexTensor,
        epsilon: f64,
    ) -> (FlexTensor, FlexTensor, FlexTensor) {
        ours(&x, None, &[&gamma, &beta], |d, x, _, [gamma, beta]| kernels::forward(d, x, gamma, beta, epsilon))
            .unwrap_or_else(|| by_burn::forward::<Flex>(x, gamma, beta, epsilon))
    }

    fn batch_norm_backward(
        x: FlexTensor,
        gamma: FlexTensor,
        mean: FlexTensor,
        variance: FlexTensor,
        epsilon: f64,
        grad: FlexTensor,
    ) -> (FlexTensor, FlexTensor, FlexTensor) {
        let statistics: [&FlexTensor; 3] = [&gamma, &mean, &variance];
        ours(&x, Some(&grad), &statistics, |d, x, grad, [gamma, mean, variance]| {
            kernels::backward(d, x, [gamma, mean, variance], epsilon, grad)
        })
        .unwrap_or_else(|| by_burn::backward::<Flex>(x, gamma, [mean, variance], epsilon, grad))
    }
}

/// Runs `kernel` on the contiguous `f32` storage of `x` (`[batch, height, width,
/// channels]`), of `grad` shaped as `x` (when given; an empty slice otherwise) and of the
/// per-channel tensors (`[channels]` each), and wraps its three results (one shaped as
/// `x`, two per channel) in tensors; `None`, for burn's kernels to take over, when a
/// tensor is not `f32` or a shape does not fit.
fn ours<const N: usize>(
    x: &FlexTensor,
    grad: Option<&FlexTensor>,
    per_channel: &[&FlexTensor; N],
    kernel: impl FnOnce(Dims, &[f32], &[f32], [&[f32]; N]) -> Results,
) -> Option<(FlexTensor, FlexTensor, FlexTensor)> {
    let shape = dims::<4>(x)?;
    let [batch, height, width, channels] = shape;
    let d = Dims { rows: batch * height * width, channels };
    let fits = |t: &FlexTensor| dims::<1>(t) == Some([channels]);
    if !per_channel.iter().all(|t| fits(t)) || grad.is_some_and(|grad| dims::<4>(grad) != Some(shape)) {
        return None;
    }
    let x = contiguous_f32(x)?;
    let grad = match grad {
        Some(grad) => Some(contiguous_f32(grad)?),
        None => None,
    };
    let per_channel = per_channel.iter().map(|t| contiguous_f32(t)).collect::<Option<Vec<_>>>()?;
    let slices = per_channel.iter().map(|t| t.as_slice::<f32>()).collect::<Option<Vec<_>>>()?;
    let no_grad: &[f32] = &[];
    let grad = grad.as_ref().map_or(Some(no_grad), |g| g.as_slice())?;
    let [full, first, second] = kernel(d, x.as_slice()?, grad, slices.try_into().ok()?);
    Some((f32_tensor(full, shape), f32_tensor(first, [channels]), f32_tensor(second, [channels])))
}

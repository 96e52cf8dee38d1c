//! Batch-norm on burn's `flex` CPU backend: our kernels ([`super::kernels`]) on the
//! channels-last tensors' `f32` storage, burn's own (the trait's defaults) for other
//! dtypes or shapes.

use burn::backend::flex::FlexTensor;
use burn::backend::Flex;

use super::backend::by_burn;
use super::kernels::{self, Dims};
use super::BatchNormBackend;
use crate::nn::flex_data::{contiguous_f32, dims, f32_tensor};

impl BatchNormBackend for Flex {
    fn batch_norm_relu_forward(
        x: FlexTensor,
        gamma: FlexTensor,
        beta: FlexTensor,
        epsilon: f64,
    ) -> (FlexTensor, FlexTensor, FlexTensor) {
        forward(x, gamma, beta, epsilon, None)
    }

    fn batch_norm_add_relu_forward(
        x: FlexTensor,
        residual: FlexTensor,
        gamma: FlexTensor,
        beta: FlexTensor,
        epsilon: f64,
    ) -> (FlexTensor, FlexTensor, FlexTensor) {
        forward(x, gamma, beta, epsilon, Some(residual))
    }

    fn batch_norm_relu_backward(
        x: FlexTensor,
        gamma: FlexTensor,
        mean: FlexTensor,
        variance: FlexTensor,
        epsilon: f64,
        output: FlexTensor,
        grad: FlexTensor,
    ) -> (FlexTensor, FlexTensor, FlexTensor, FlexTensor) {
        ours(&x, &[&output, &grad], &[&gamma, &mean, &variance], |d, x, shaped, statistics| {
            let [output, grad] = shaped.try_into().expect("two");
            let [x_grad, gamma_grad, beta_grad, through] = kernels::backward(d, x, statistics, epsilon, [output, grad]);
            [vec![x_grad, through], vec![gamma_grad, beta_grad]]
        })
        .map(|[full, per_channel]| {
            let ([x_grad, through], [gamma_grad, beta_grad]) = (exactly(full), exactly(per_channel));
            (x_grad, gamma_grad, beta_grad, through)
        })
        .unwrap_or_else(|| by_burn::backward::<Flex>(x, gamma, [mean, variance], epsilon, [output, grad]))
    }
}

/// Both forwards: `relu(normalised x + residual)`, the mean and the variance.
fn forward(
    x: FlexTensor,
    gamma: FlexTensor,
    beta: FlexTensor,
    epsilon: f64,
    residual: Option<FlexTensor>,
) -> (FlexTensor, FlexTensor, FlexTensor) {
    let shaped: Vec<&FlexTensor> = residual.iter().collect();
    ours(&x, &shaped, &[&gamma, &beta], |d, x, shaped, per_channel| {
        let [full, mean, variance] = kernels::forward(d, x, per_channel, epsilon, shaped.first().copied());
        [vec![full], vec![mean, variance]]
    })
    .map(|[full, per_channel]| {
        let ([output], [mean, variance]) = (exactly(full), exactly(per_channel));
        (output, mean, variance)
    })
    .unwrap_or_else(|| by_burn::forward::<Flex>(x, gamma, beta, epsilon, residual))
}

/// Runs `kernel` on the contiguous `f32` storage of `x` (`[batch, height, width,
/// channels]`), of the tensors `shaped` as `x` and of the `per_channel` ones (`[channels]`
/// each), and wraps its results (those shaped as `x`, then those per channel) in tensors;
/// `None`, for burn's kernels to take over, when a tensor is not `f32` or a shape does not
/// fit.
fn ours<const N: usize>(
    x: &FlexTensor,
    shaped: &[&FlexTensor],
    per_channel: &[&FlexTensor; N],
    kernel: impl FnOnce(Dims, &[f32], Vec<&[f32]>, [&[f32]; N]) -> [Vec<Vec<f32>>; 2],
) -> Option<[Vec<FlexTensor>; 2]> {
    let shape = dims::<4>(x)?;
    let [batch, height, width, channels] = shape;
    let d = Dims { rows: batch * height * width, channels };
    let fits = |t: &FlexTensor| dims::<1>(t) == Some([channels]);
    if !per_channel.iter().all(|t| fits(t)) || shaped.iter().any(|t| dims::<4>(t) != Some(shape)) {
        return None;
    }
    let x = contiguous_f32(x)?;
    let shaped = shaped.iter().map(|t| contiguous_f32(t)).collect::<Option<Vec<_>>>()?;
    let per_channel = per_channel.iter().map(|t| contiguous_f32(t)).collect::<Option<Vec<_>>>()?;
    let shaped_slices = shaped.iter().map(|t| t.as_slice::<f32>()).collect::<Option<Vec<_>>>()?;
    let channel_slices = per_channel.iter().map(|t| t.as_slice::<f32>()).collect::<Option<Vec<_>>>()?;
    let [full, statistics] = kernel(d, x.as_slice()?, shaped_slices, channel_slices.try_into().ok()?);
    Some([
        full.into_iter().map(|floats| f32_tensor(floats, shape)).collect(),
        statistics.into_iter().map(|floats| f32_tensor(floats, [channels])).collect(),
    ])
}

/// The `K` tensors a kernel returned.
fn exactly<const K: usize>(tensors: Vec<FlexTensor>) -> [FlexTensor; K] {
    tensors.try_into().unwrap_or_else(|tensors: Vec<_>| panic!("{K} results expected, {} given", tensors.len()))
}

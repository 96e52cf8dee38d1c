//! Our training batch-norm and ReLU for `flex` (`nn::batch_norm`) against burn's own
//! `BatchNorm::forward` and `relu`: the output, the running statistics and the gradients
//! to the input, `gamma` and `beta` (and to a residual block's input, added before the
//! ReLU) agree within 1e-4 of the tensor's scale on random shapes (odd
//! batches, 1 and many channels, both games' boards and degenerate ones), on strided
//! inputs and broadcast gradients; the gradient check rejects a batch-norm whose forward is
//! right but whose backward treats the batch's statistics as constants; and only training
//! on `flex` takes our path.

use burn::module::{Module, Param};
use burn::nn::{BatchNorm, BatchNormConfig};
use burn::tensor::activation::relu;
use burn::tensor::{Device, Tensor};
use rand::rngs::StdRng;
use rand::SeedableRng;
use xiangqi_zero::nn::batch_norm::{batch_norm_relu, batch_norm_relu_channels_last, fits};

mod tensors;
use tensors::{close, random};

/// `[batch, channels, height, width]` cases: odd and tiny batches, 1 and many channels,
/// Xiangqi's 10×9 board, Banqi's 8×4 (and its transpose), the heads' planes, and 1×1, 2×3, 5×7 boards.
const SHAPES: [[usize; 4]; 10] = [
    [1, 1, 1, 1],
    [2, 3, 2, 3],
    [7, 64, 10, 9],
    [3, 16, 4, 8],
    [128, 32, 8, 4],
    [33, 2, 10, 9],
    [5, 1, 10, 9],
    [4, 65, 5, 7],
    [1, 7, 10, 1],
    [256, 4, 10, 9],
];

/// A batch-norm of `channels` with random `gamma` and `beta` and running statistics away
/// from their initial values.
fn module(rng: &mut StdRng, channels: usize, device: &Device) -> BatchNorm {
    let mut bn = BatchNormConfig::new(channels).init(device);
    bn.gamma = Param::from_tensor(random(rng, [channels], (0.5, 1.5), device));
    bn.beta = Param::from_tensor(random(rng, [channels], (-0.5, 0.5), device));
    bn.running_mean.update(random(rng, [channels], (-1.0, 1.0), device));
    bn.running_var.update(random(rng, [channels], (0.5, 2.0), device));
    bn
}

/// burn's batch-norm and ReLU, as the model called them before.
fn reference(bn: &BatchNorm, x: Tensor<4>) -> Tensor<4> {
    relu(bn.forward(x))
}

/// Compares, for `op` against burn's, the output, the running statistics after it and
/// the gradients of `sum(op(x) · g)` to `x`, `gamma` and `beta`, for a random `g`, on
/// `flex` with autodiff; `x` offset and scaled so that its statistics are not 0 and 1.
fn agree(op: impl Fn(&BatchNorm, Tensor<4>) -> Tensor<4>, shape: [usize; 4], seed: u64) -> Result<(), String> {
    let device = Device::flex().autodiff();
    let mut rng = StdRng::seed_from_u64(seed);
    let x = random(&mut rng, shape, (-1.0, 1.0), &device) * 3.0 + 0.7;
    let g = random(&mut rng, shape, (-1.0, 1.0), &device);
    // A module of its own for each (clones share their running statistics).
    let run = |op: &dyn Fn(&BatchNorm, Tensor<4>) -> Tensor<4>| {
        let (bn, x) = (module(&mut StdRng::seed_from_u64(seed), shape[1], &device), x.clone().require_grad());
        let y = op(&bn, x.clone());
        let grads = (y.clone() * g.clone()).sum().backward();
        let grads = [x.grad(&grads).map(|t| t.flatten::<1>(0, 3)), bn.gamma.grad(&grads), bn.beta.grad(&grads)];
        (y, [bn.running_mean.value(), bn.running_var.value()], grads)
    };
    let (ours, theirs) = (run(&op), run(&reference));
    let case = format!("{shape:?}");
    close(&format!("{case} output"), ours.0, theirs.0)?;
    for (what, ours, theirs) in [("running mean", &ours.1[0], &theirs.1[0]), ("running var", &ours.1[1], &theirs.1[1])]
    {
        close(&format!("{case} {what}"), ours.clone(), theirs.clone())?;
    }
    for ((what, ours), theirs) in ["dx", "dgamma", "dbeta"].iter().zip(ours.2).zip(theirs.2) {
        match (ours, theirs) {
            (Some(ours), Some(theirs)) => close(&format!("{case} {what}"), ours, theirs)?,
            (ours, theirs) => {
                return Err(format!("{case} {what}: ours {}, burn's {}", ours.is_some(), theirs.is_some()))
            }
        }
    }
    Ok(())
}

#[test]
fn output_statistics_and_gradients_match_burn() {
    for (seed, shape) in SHAPES.into_iter().enumerate() {
        agree(batch_norm_relu, shape, seed as u64).unwrap();
    }
}

#[test]
fn gradient_check_rejects_statistics_taken_as_constants() {
    // The forward of the real batch-norm, the backward of one that normalises by the
    // batch's mean and deviation detached: what a backward without the statistics'
    // terms would give.
    let wrong = |bn: &BatchNorm, x: Tensor<4>| {
        let right = batch_norm_relu(bn, x.clone());
        let [b, c, h, w] = x.dims();
        let flat = x.clone().swap_dims(0, 1).reshape([c, b * h * w]);
        let mean = flat.clone().mean_dim(1).detach();
        let variance = (flat - mean.clone()).powf_scalar(2.0).mean_dim(1).detach();
        let per_channel = |t: Tensor<2>| t.reshape([1, c, 1, 1]);
        let normalised = (x - per_channel(mean)) / per_channel(variance + bn.epsilon).sqrt();
        let constant = relu(normalised * bn.gamma.val().reshape([1, c, 1, 1]) + bn.beta.val().reshape([1, c, 1, 1]));
        constant.clone() + (right - constant).detach()
    };
    for (seed, shape) in [SHAPES[1], SHAPES[2], SHAPES[3]].into_iter().enumerate() {
        assert!(agree(wrong, shape, seed as u64).is_err(), "{shape:?}");
    }
}

#[test]
fn strided_inputs_and_broadcast_gradients() {
    let device = Device::flex().autodiff();
    let mut rng = StdRng::seed_from_u64(7);
    // x stored as [channels, batch, height, width] and viewed as [batch, channels, …]; the
    // loss a mean, whose gradient reaches the batch-norm as one value broadcast.
    let x = random(&mut rng, [16, 5, 10, 9], (-2.0, 2.0), &device).swap_dims(0, 1).require_grad();
    let grads_of = |op: fn(&BatchNorm, Tensor<4>) -> Tensor<4>| {
        let bn = module(&mut StdRng::seed_from_u64(8), 16, &device);
        let y = op(&bn, x.clone());
        let grads = (y.clone() * y).mean().backward();
        (x.grad(&grads).unwrap(), bn.gamma.grad(&grads).unwrap())
    };
    let (ours, theirs) = (grads_of(batch_norm_relu), grads_of(reference));
    close("dx", ours.0, theirs.0).unwrap();
    close("dgamma", ours.1, theirs.1).unwrap();
}

#[test]
fn only_training_on_flex_takes_our_kernels() {
    let mut rng = StdRng::seed_from_u64(3);
    let (flex, autodiff) = (Device::flex(), Device::flex().autodiff());
    let training = module(&mut rng, 4, &autodiff);
    let x = |device: &Device| Tensor::<4>::zeros([2, 4, 10, 9], device);
    assert!(fits(&training, &x(&autodiff)));
    assert!(!fits(&training, &x(&flex)), "no autodiff: burn's inference batch-norm");
    let frozen = training.clone().valid();
    assert!(!fits(&frozen, &x(&autodiff)), "a layer out of training keeps its running statistics");
    // And outside training our path gives burn's inference result.
    let y = x(&flex) + 1.0;
    close("inference", batch_norm_relu(&frozen, y.clone()), relu(frozen.forward(y))).unwrap();
}

#[test]
fn a_residual_added_before_the_relu_gets_its_gradient() {
    let device = Device::flex().autodiff();
    for (seed, shape) in [SHAPES[2], SHAPES[4], SHAPES[9]].into_iter().enumerate() {
        let mut rng = StdRng::seed_from_u64(seed as u64);
        let [b, c, h, w] = shape;
        let x = random(&mut rng, [b, h, w, c], (-1.0, 1.0), &device) * 2.0 + 0.3;
        let residual = random(&mut rng, [b, h, w, c], (-1.0, 1.0), &device);
        let g = random(&mut rng, [b, h, w, c], (-1.0, 1.0), &device);
        // The channels-last block end against burn's channels first.
        let run = |ours: bool| {
            let bn = module(&mut StdRng::seed_from_u64(seed as u64), c, &device);
            let (x, residual) = (x.clone().require_grad(), residual.clone().require_grad());
            let y = if ours {
                batch_norm_relu_channels_last(&bn, x.clone(), Some(residual.clone()))
            } else {
                relu(bn.forward(x.clone().permute([0, 3, 1, 2])).permute([0, 2, 3, 1]) + residual.clone())
            };
            let grads = (y.clone() * g.clone()).sum().backward();
            (y, x.grad(&grads).unwrap(), residual.grad(&grads).unwrap(), bn.gamma.grad(&grads).unwrap())
        };
        let (ours, theirs) = (run(true), run(false));
        close(&format!("{shape:?} output"), ours.0, theirs.0).unwrap();
        close(&format!("{shape:?} dx"), ours.1, theirs.1).unwrap();
        close(&format!("{shape:?} dresidual"), ours.2, theirs.2).unwrap();
        close(&format!("{shape:?} dgamma"), ours.3, theirs.3).unwrap();
    }
}

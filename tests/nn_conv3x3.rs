//! Our channels-last 3×3 convolution for `flex` (`nn::conv3x3`), transposed to and from
//! channels first, against burn's own `conv2d`: the
//! output and both gradients agree within 1e-4 of the tensor's scale on random shapes
//! (odd batches, 1 and many channels, both games' boards and degenerate ones), on strided
//! inputs and broadcast gradients, with either operand untracked; and the gradient check
//! rejects a convolution whose forward is right but whose backward is wrong; the net routes
//! its stem and trunk convs through it, not its 1×1 heads.

use burn::backend::Dispatch;
use burn::tensor::module::{conv2d, conv2d_weight_backward};
use burn::tensor::{Device, Tensor};
use rand::rngs::StdRng;
use rand::SeedableRng;
use xiangqi_zero::game::xiangqi::Xiangqi;
use xiangqi_zero::nn::conv3x3::{conv3x3, fits, options, Conv3x3Backend};
use xiangqi_zero::nn::{Net, NetConfig};

mod tensors;
use tensors::close;

/// Uniform values in `[-1, 1)` as a tensor of `dims` on `device`.
fn random(rng: &mut StdRng, dims: [usize; 4], device: &Device) -> Tensor<4> {
    tensors::random(rng, dims, (-1.0, 1.0), device)
}

/// `[batch, in, out, height, width]` cases: odd and tiny batches, 1 and many channels,
/// Xiangqi's 10×9 board (17 input planes), Banqi's 8×4 (34, and banqi-tiny's 32-channel
/// trunk) and its transpose, and 1×1, 2×3, 5×7 boards;
/// 32 and 48 channels for the products' 32-column blocks.
const SHAPES: [[usize; 5]; 13] = [
    [1, 1, 1, 1, 1],
    [2, 3, 2, 2, 3],
    [7, 17, 16, 10, 9],
    [3, 34, 16, 4, 8],
    [3, 34, 32, 8, 4],
    [5, 32, 32, 8, 4],
    [5, 64, 64, 10, 9],
    [1, 64, 65, 10, 9],
    [3, 32, 48, 10, 9],
    [2, 1, 64, 4, 8],
    [3, 65, 1, 5, 7],
    [4, 16, 16, 1, 9],
    [1, 2, 3, 10, 1],
];

/// Our convolution on channels-first tensors: transposed to channels-last (a strided
/// view, as the trunk's input is) and back.
fn ours(x: Tensor<4>, weight: Tensor<4>) -> Tensor<4> {
    conv3x3(last(x), weight).permute([0, 3, 1, 2])
}

/// `[batch, channels, height, width]` viewed as `[batch, height, width, channels]`.
fn last(x: Tensor<4>) -> Tensor<4> {
    x.permute([0, 2, 3, 1])
}

/// burn's convolution with the options `conv3x3` stands for.
fn reference(x: Tensor<4>, weight: Tensor<4>) -> Tensor<4> {
    conv2d(x, weight, None, options())
}

/// The input, weight and output shapes of a case.
fn dims([n, ci, co, h, w]: [usize; 5]) -> ([usize; 4], [usize; 4], [usize; 4]) {
    ([n, ci, h, w], [co, ci, 3, 3], [n, co, h, w])
}

/// Compares the gradients of `sum(op(x, weight) · g)` for a random `g` with those through
/// burn's conv, `x` and `weight` tracked as asked, on `flex` with autodiff.
fn gradients_agree(
    op: impl Fn(Tensor<4>, Tensor<4>) -> Tensor<4>,
    shape: [usize; 5],
    track: (bool, bool),
    seed: u64,
) -> Result<(), String> {
    let device = Device::flex().autodiff();
    let mut rng = StdRng::seed_from_u64(seed);
    let (x_dims, w_dims, y_dims) = dims(shape);
    let (x, weight, g) =
        (random(&mut rng, x_dims, &device), random(&mut rng, w_dims, &device), random(&mut rng, y_dims, &device));
    let grads_of = |op: &dyn Fn(Tensor<4>, Tensor<4>) -> Tensor<4>| {
        let x = if track.0 { x.clone().require_grad() } else { x.clone() };
        let weight = if track.1 { weight.clone().require_grad() } else { weight.clone() };
        let grads = (op(x.clone(), weight.clone()) * g.clone()).sum().backward();
        (x.grad(&grads), weight.grad(&grads))
    };
    let (ours, theirs) = (grads_of(&op), grads_of(&reference));
    let case = format!("{shape:?} tracked {track:?}");
    for (what, ours, theirs, tracked) in [("dx", ours.0, theirs.0, track.0), ("dw", ours.1, theirs.1, track.1)] {
        match (ours, theirs) {
            (Some(ours), Some(theirs)) => close(&format!("{case} {what}"), ours, theirs)?,
            (None, None) if !tracked => {}
            (ours, theirs) => {
                return Err(format!("{case} {what}: ours {}, burn's {}", ours.is_some(), theirs.is_some()))
            }
        }
    }
    Ok(())
}

#[test]
fn forward_matches_burn() {
    let mut rng = StdRng::seed_from_u64(1);
    for device in [Device::flex(), Device::flex().autodiff()] {
        for shape in SHAPES {
            let (x_dims, w_dims, _) = dims(shape);
            let (x, w) = (random(&mut rng, x_dims, &device), random(&mut rng, w_dims, &device));
            close(&format!("{shape:?}"), ours(x.clone(), w.clone()), reference(x, w)).unwrap();
        }
    }
}

#[test]
fn gradients_match_burn() {
    for (seed, shape) in SHAPES.into_iter().enumerate() {
        gradients_agree(ours, shape, (true, true), seed as u64).unwrap();
    }
}

#[test]
fn gradients_match_burn_with_one_operand_untracked() {
    // The stem's input is data, not a parameter: only the weight's gradient is asked for.
    for (seed, shape) in [SHAPES[2], SHAPES[3], SHAPES[7]].into_iter().enumerate() {
        gradients_agree(ours, shape, (false, true), seed as u64).unwrap();
        gradients_agree(ours, shape, (true, false), seed as u64).unwrap();
    }
}

#[test]
fn gradient_check_rejects_a_wrong_backward() {
    // The forward of the real convolution, the backward of one with its kernel flipped
    // (as a grad_input that forgot to rotate the weights would be).
    let wrong = |x: Tensor<4>, w: Tensor<4>| {
        let right = ours(x.clone(), w.clone());
        let flipped = ours(x, w.flip([2, 3]));
        flipped.clone() + (right - flipped).detach()
    };
    for (seed, shape) in [SHAPES[1], SHAPES[2], SHAPES[3]].into_iter().enumerate() {
        assert!(gradients_agree(wrong, shape, (true, true), seed as u64).is_err(), "{shape:?}");
    }
}

#[test]
fn strided_inputs_and_broadcast_gradients() {
    let device = Device::flex().autodiff();
    let mut rng = StdRng::seed_from_u64(7);
    // x stored as [in, batch, height, width] and viewed as [batch, in, …]; the loss a
    // mean, whose gradient reaches the conv as one value broadcast.
    let x = random(&mut rng, [17, 3, 10, 9], &device).swap_dims(0, 1).require_grad();
    let w = random(&mut rng, [16, 17, 3, 3], &device).require_grad();
    let grads_of = |op: fn(Tensor<4>, Tensor<4>) -> Tensor<4>| {
        let grads = op(x.clone(), w.clone()).mean().backward();
        (x.grad(&grads).unwrap(), w.grad(&grads).unwrap())
    };
    let (ours, theirs) = (grads_of(ours), grads_of(reference));
    close("dx", ours.0, theirs.0).unwrap();
    close("dw", ours.1, theirs.1).unwrap();
}

#[test]
fn gradient_operations_match_burn() {
    let device = Device::flex();
    let mut rng = StdRng::seed_from_u64(11);
    for shape in SHAPES {
        let (x_dims, w_dims, y_dims) = dims(shape);
        let (x, w, dy) =
            (random(&mut rng, x_dims, &device), random(&mut rng, w_dims, &device), random(&mut rng, y_dims, &device));
        let ours = Tensor::<4>::from_dispatch(<Dispatch as Conv3x3Backend>::conv3x3_grad_weight(
            last(x.clone()).into_dispatch(),
            w.clone().into_dispatch(),
            last(dy.clone()).into_dispatch(),
        ));
        close(&format!("{shape:?} dw"), ours, conv2d_weight_backward(x.clone(), w.clone(), dy.clone(), options()))
            .unwrap();
        // burn has no tensor-level input gradient: its autodiff's is the reference.
        let ours = Tensor::<4>::from_dispatch(<Dispatch as Conv3x3Backend>::conv3x3_grad_input(
            last(x.clone()).into_dispatch(),
            w.clone().into_dispatch(),
            last(dy.clone()).into_dispatch(),
        ))
        .permute([0, 3, 1, 2]);
        let autodiff = device.clone().autodiff();
        let on_autodiff = |t: Tensor<4>| Tensor::<4>::from_data(t.into_data(), &autodiff);
        let tracked = on_autodiff(x).require_grad();
        let grads = (reference(tracked.clone(), on_autodiff(w)) * on_autodiff(dy)).sum().backward();
        close(&format!("{shape:?} dx"), ours, tracked.grad(&grads).unwrap()).unwrap();
    }
}

#[test]
fn the_stem_and_trunk_convs_fit_and_the_heads_do_not() {
    for device in [Device::flex(), Device::flex().autodiff()] {
        let net = Net::new(NetConfig::new::<Xiangqi>(1, 8), &device);
        let (input, trunk) = (Tensor::<4>::zeros([1, 17, 10, 9], &device), Tensor::<4>::zeros([1, 8, 10, 9], &device));
        assert!(fits(&net.stem.conv, &input));
        assert!(fits(&net.blocks[0].first.conv, &trunk) && fits(&net.blocks[0].second.conv, &trunk));
        let policy_conv = net.policy_conv.as_ref().expect("the dense head's conv");
        assert!(!fits(&policy_conv.conv, &trunk) && !fits(&net.value_conv.conv, &trunk));
    }
}

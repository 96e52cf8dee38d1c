//! The convolution's arithmetic on channels-last `f32` slices (`[batch, height, width,
//! channels]`), the batch split among rayon's threads in chunks of a few images: all three
//! operations by Winograd ([`crate::nn::cpu::winograd`], shared with our
//! forward pass, which works channels-last too), the gradient to the input as the
//! convolution of the output's gradient, the gradient to the weight through the
//! transforms' backward.

use std::cell::RefCell;

use rayon::prelude::*;

use crate::nn::cpu::kernels::zeros;
use crate::nn::cpu::winograd::{add_transformed_gradient, kernel_gradient, Epilogue, Geometry, Scratch, Winograd};
use crate::nn::Precision;

/// Images one Winograd call covers.
const CHUNK: usize = 4;
/// Images one gradient to the weights in bf16 covers: its products' depth is their tiles
/// (120 on a Xiangqi board), padded to whole tiles of 32. A group (16) at once leaves the
/// cache, and ran 5% slower (`bench train --precision bf16`, with F(2×2, 3×3)'s 200).
const BF16_CHUNK: usize = 8;
/// Images whose weight gradients one task sums before the partial sums are added in a
/// fixed order (so the result does not depend on the number of threads).
const GROUP: usize = 16;

thread_local! {
    /// Each thread's Winograd [`Scratch`], kept from call to call so that a step
    /// allocates and zeroes none of it.
    static SCRATCH: RefCell<Scratch> = RefCell::default();
}

/// Runs `work` with this thread's [`Scratch`].
fn with_scratch<T>(work: impl FnOnce(&mut Scratch) -> T) -> T {
    SCRATCH.with(|scratch| work(&mut scratch.borrow_mut()))
}

/// The sizes of a convolution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Dims {
    /// Images in the batch.
    pub batch: usize,
    /// Input channels.
    pub inputs: usize,
    /// Output channels.
    pub outputs: usize,
    /// Rows of a plane.
    pub height: usize,
    /// Columns of a plane.
    pub width: usize,
}

impl Dims {
    /// Cells of a plane.
    fn cells(&self) -> usize {
        self.height * self.width
    }

    /// The input's shape, `[batch, height, width, inputs]`.
    pub(crate) fn input(&self) -> [usize; 4] {
        [self.batch, self.height, self.width, self.inputs]
    }

    /// The output's shape, `[batch, height, width, outputs]`.
    pub(crate) fn output(&self) -> [usize; 4] {
        [self.batch, self.height, self.width, self.outputs]
    }

    /// The weight's shape, `[outputs, inputs, 3, 3]`.
    pub(crate) fn weight(&self) -> [usize; 4] {
        [self.outputs, self.inputs, 3, 3]
    }

    /// Whether some tensor of the convolution is empty (then every result is zeros).
    fn is_empty(&self) -> bool {
        self.batch * self.inputs * self.outputs * self.cells() == 0
    }

    /// The Winograd geometry of a plane, for products in `precision`.
    fn geometry(&self, precision: Precision) -> Geometry {
        Geometry::new(self.height, self.width, precision)
    }
}

/// The convolution of `x` (`d.input()`) by `weight` (`d.weight()`), `d.output()`: by
/// Winograd ([`Winograd`]) on each chunk of images; its products in `precision` where the
/// shape allows ([`Winograd::in_precision`]).
pub(crate) fn forward(d: Dims, x: &[f32], weight: &[f32], precision: Precision) -> Vec<f32> {
    let mut out = zeros(d.batch * d.outputs * d.cells());
    if d.is_empty() {
        return out;
    }
    let geometry = d.geometry(precision);
    let winograd = Winograd::of_kernel(d.inputs, d.outputs, weight, geometry).in_precision(precision);
    let cells = d.cells();
    out.par_chunks_mut(CHUNK * d.outputs * cells).zip(x.par_chunks(CHUNK * d.inputs * cells)).for_each(|(out, x)| {
        let images = x.len() / (d.inputs * cells);
        with_scratch(|scratch| winograd.forward(geometry, images, x, scratch, Epilogue::Linear(out)));
    });
    out
}

/// The gradient to the input (`d.input()`) from `grad` (`d.output()`): the forward
/// convolution of `grad` by the weights with input and output channels swapped and the
/// kernel turned 180°.
pub(crate) fn grad_input(d: Dims, weight: &[f32], grad: &[f32], precision: Precision) -> Vec<f32> {
    let mut turned = vec![0.0; weight.len()];
    for (kernel, taps) in weight.chunks_exact(9).enumerate() {
        let (output, input) = (kernel / d.inputs, kernel % d.inputs);
        for (tap, &value) in taps.iter().enumerate() {
            turned[(input * d.outputs + output) * 9 + 8 - tap] = value;
        }
    }
    forward(Dims { inputs: d.outputs, outputs: d.inputs, ..d }, grad, &turned, precision)
}

/// The gradient to the weight (`d.weight()`) from the input `x` and `grad` (`d.output()`):
/// by Winograd ([`add_transformed_gradient`]), each group of images summed apart and
/// the groups' sums added in a fixed order; its products in `precision` where the CPU
/// and the shape allow.
pub(crate) fn grad_weight(d: Dims, x: &[f32], grad: &[f32], precision: Precision) -> Vec<f32> {
    if d.is_empty() {
        return vec![0.0; d.outputs * d.inputs * 9];
    }
    let geometry = d.geometry(precision);
    let (cells, len) = (d.cells(), geometry.tiling().points() * d.inputs * d.outputs);
    let chunk = if precision == Precision::Bf16 { BF16_CHUNK } else { CHUNK };
    let partials: Vec<Vec<f32>> = x
        .par_chunks(GROUP * d.inputs * cells)
        .zip(grad.par_chunks(GROUP * d.outputs * cells))
        .map(|(x, grad)| {
            let mut sum = vec![0.0; len];
            with_scratch(|scratch| {
                for (x, grad) in x.chunks(chunk * d.inputs * cells).zip(grad.chunks(chunk * d.outputs * cells)) {
                    let images = x.len() / (d.inputs * cells);
                    let channels = [d.inputs, d.outputs];
                    add_transformed_gradient(geometry, images, channels, [x, grad], scratch, &mut sum, precision);
                }
            });
            sum
        })
        .collect();
    let mut partials = partials.into_iter();
    let mut total = partials.next().unwrap_or_else(|| vec![0.0; len]);
    for partial in partials {
        total.iter_mut().zip(&partial).for_each(|(t, p)| *t += p);
    }
    kernel_gradient(geometry, d.inputs, d.outputs, &total)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Deterministic values in [-1, 1).
    fn values(len: usize, seed: u32) -> Vec<f32> {
        (0..len as u32)
            .map(|i| ((i.wrapping_mul(2_654_435_761) ^ seed.wrapping_mul(40_503)) % 2000) as f32 / 1000.0 - 1.0)
            .collect()
    }

    /// Calls `f(image, output, input, y, x, ky, kx, input_y, input_x)` for every term of
    /// the convolution whose input cell lies on the board.
    fn each_term(d: Dims, mut f: impl FnMut([usize; 9])) {
        for b in 0..d.batch {
            for o in 0..d.outputs {
                for i in 0..d.inputs {
                    for y in 0..d.height {
                        for x in 0..d.width {
                            for ky in 0..3 {
                                for kx in 0..3 {
                                    let (iy, ix) = ((y + ky).wrapping_sub(1), (x + kx).wrapping_sub(1));
                                    if iy < d.height && ix < d.width {
                                        f([b, o, i, y, x, ky, kx, iy, ix]);
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The three results by the definition, channels-last: output, gradient to the
    /// input, gradient to the weight.
    fn naive(d: Dims, x: &[f32], w: &[f32], dy: &[f32]) -> [Vec<f32>; 3] {
        let (mut y, mut dx, mut dw) = (vec![0.0; dy.len()], vec![0.0; x.len()], vec![0.0; w.len()]);
        let (h, wd) = (d.height, d.width);
        each_term(d, |[b, o, i, cy, cx, ky, kx, iy, ix]| {
            let (xi, wi, yi) = (
                ((b * h + iy) * wd + ix) * d.inputs + i,
                (o * d.inputs + i) * 9 + ky * 3 + kx,
                ((b * h + cy) * wd + cx) * d.outputs + o,
            );
            y[yi] += w[wi] * x[xi];
            dx[xi] += w[wi] * dy[yi];
            dw[wi] += x[xi] * dy[yi];
        });
        [y, dx, dw]
    }

    fn assert_close(what: &str, ours: &[f32], reference: &[f32]) {
        assert_eq!(ours.len(), reference.len(), "{what}");
        let scale = reference.iter().fold(1.0f32, |m, v| m.max(v.abs()));
        for (a, b) in ours.iter().zip(reference) {
            assert!((a - b).abs() <= 1e-4 * scale, "{what}: {a} against {b}");
        }
    }

    /// Batches across the chunk (4) and group (16) boundaries, 1 and several channels,
    /// boards from 1×1 to Xiangqi's, tiled wide (10×9, 4×8) and tall (Banqi's 8×4, 6×1).
    const CASES: [[usize; 5]; 7] = [
        [1, 1, 1, 1, 1],
        [5, 3, 2, 10, 9],
        [17, 2, 3, 4, 8],
        [3, 3, 2, 8, 4],
        [33, 1, 4, 2, 3],
        [2, 7, 1, 1, 5],
        [3, 4, 5, 6, 1],
    ];

    #[test]
    fn the_kernels_compute_the_convolution_and_its_gradients() {
        for (seed, [batch, inputs, outputs, height, width]) in CASES.into_iter().enumerate() {
            let d = Dims { batch, inputs, outputs, height, width };
            let seed = seed as u32;
            let (x, w, dy) = (
                values(d.input().iter().product(), seed),
                values(d.weight().iter().product(), seed + 100),
                values(d.output().iter().product(), seed + 200),
            );
            let [y, dx, dw] = naive(d, &x, &w, &dy);
            assert_close(&format!("{d:?} forward"), &forward(d, &x, &w, Precision::F32), &y);
            assert_close(&format!("{d:?} grad_input"), &grad_input(d, &w, &dy, Precision::F32), &dx);
            assert_close(&format!("{d:?} grad_weight"), &grad_weight(d, &x, &dy, Precision::F32), &dw);
        }
    }

    /// With bf16 products (where the CPU has them), on whole tiles of channels: the
    /// convolution and its gradients within bf16's rounding (8 bits: 2⁻⁸ of each product,
    /// a few of those over sums of 288 terms, or of a group's tiles for the weights), with
    /// an even count of tiles and an odd one (17 images: 255 tiles, a group of 16 and one
    /// image more), 17 input channels as the stem has.
    #[test]
    fn in_bf16_the_convolution_and_its_gradients_stay_within_rounding() {
        if !crate::nn::bf16::has_bf16() {
            eprintln!("skipped: bf16 products do not run on this machine");
            return;
        }
        for (batch, inputs) in [(6, 32), (17, 17)] {
            let d = Dims { batch, inputs, outputs: 32, height: 10, width: 9 };
            let (x, w, dy) = (
                values(d.input().iter().product(), 7),
                values(d.weight().iter().product(), 8),
                values(d.output().iter().product(), 9),
            );
            let [y, dx, dw] = naive(d, &x, &w, &dy);
            let mut cases = vec![("grad_weight", grad_weight(d, &x, &dy, Precision::Bf16), dw)];
            if inputs == 32 {
                cases.push(("forward", forward(d, &x, &w, Precision::Bf16), y));
                cases.push(("grad_input", grad_input(d, &w, &dy, Precision::Bf16), dx));
            }
            for (what, ours, reference) in cases {
                let scale = reference.iter().fold(1.0f32, |m, v| m.max(v.abs()));
                let worst = ours.iter().zip(&reference).map(|(a, b)| (a - b).abs()).fold(0.0, f32::max);
                assert!(worst <= 2e-2 * scale, "{d:?} {what}: off by {worst} at a scale of {scale}");
                // Not f32's result: the products did run in bf16.
                assert!(worst > 1e-5 * scale, "{d:?} {what}: off by only {worst}");
            }
        }
    }

    #[test]
    fn a_gradient_to_the_input_with_the_kernel_not_turned_is_caught() {
        // The forward of the weights as they are, in place of the turned ones: what
        // grad_input would compute had it forgotten the 180° turn.
        let d = Dims { batch: 5, inputs: 3, outputs: 3, height: 10, width: 9 };
        let (x, w, dy) = (values(450 * 3, 1), values(81, 2), values(450 * 3, 3));
        let [_, dx, _] = naive(d, &x, &w, &dy);
        let unturned = forward(d, &dy, &w, Precision::F32);
        let scale = dx.iter().fold(1.0f32, |m, v| m.max(v.abs()));
        assert!(unturned.iter().zip(&dx).any(|(a, b)| (a - b).abs() > 1e-4 * scale));
    }

    #[test]
    fn empty_tensors_give_zeros() {
        let d = Dims { batch: 2, inputs: 0, outputs: 3, height: 4, width: 8 };
        assert_eq!(forward(d, &[], &[], Precision::F32), vec![0.0; 2 * 3 * 32]);
        assert_eq!(grad_weight(d, &[], &vec![0.0; 2 * 3 * 32], Precision::F32), Vec::<f32>::new());
        assert_eq!(grad_input(d, &[], &vec![0.0; 2 * 3 * 32], Precision::F32), Vec::<f32>::new());
    }
}

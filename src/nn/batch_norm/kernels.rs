//! Batch-norm's arithmetic on channels-last `f32` slices (`[rows, channels]`, a row: one
//! cell of one image): each channel's statistics summed in lanes of all channels at once,
//! the rows split among rayon's threads in fixed blocks whose partial sums are added in
//! order (so the result does not depend on the number of threads); then one pass applying
//! each channel's affine map, with the residual add and the ReLU that follow every
//! batch-norm of the net.

use rayon::prelude::*;

/// The sizes of a batch-norm's input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Dims {
    /// Rows: images × cells.
    pub rows: usize,
    /// Channels, each with its own statistics.
    pub channels: usize,
}

/// Rows whose values [`Dims::channel_sums`] adds up in `f32` lanes before it takes them
/// into its `f64` totals: a few dozen values a lane, where `f32` keeps about six digits.
const ROWS_IN_LANES: usize = 16;
/// Rows a task of [`Dims::channel_sums`] and [`Dims::affine`] covers.
const ROWS_PER_TASK: usize = 1024;

/// Each channel's affine map for [`Dims::affine`]: `[scale, slope, shift]`.
type Maps = [Vec<f32>; 3];

/// A result shaped as the input and two per channel.
pub(crate) type Results = [Vec<f32>; 3];

impl Dims {
    /// Values per channel.
    fn count(&self) -> f64 {
        self.rows as f64
    }

    /// `out = scale[c] · x + shift[c]` for every channel (and `out = scale[c] · x +
    /// slope[c] · y + shift[c]` when `y` is given), through a ReLU when `RELU`, a block of
    /// rows per task, each value written once (no zeroing first).
    fn affine<const RELU: bool>(&self, x: &[f32], y: Option<&[f32]>, [scale, slope, shift]: &Maps) -> Vec<f32> {
        let finish = |v: f32| if RELU { v.max(0.0) } else { v };
        let c = self.channels;
        assert!(x.len() == self.rows * c && scale.len() == c, "batch-norm of {self:?}");
        let mut out = Vec::with_capacity(x.len());
        if !x.is_empty() {
            let block = ROWS_PER_TASK * c;
            out.spare_capacity_mut()[..x.len()].par_chunks_mut(block).enumerate().for_each(|(i, out)| {
                let rows = out.len();
                let x = &x[i * block..][..rows];
                // Indexed loops over rows of exactly `c`: they vectorise across the channels.
                match y {
                    None => {
                        for (out, x) in out.chunks_exact_mut(c).zip(x.chunks_exact(c)) {
                            for k in 0..c {
                                out[k].write(finish(scale[k] * x[k] + shift[k]));
                            }
                        }
                    }
                    Some(y) => {
                        let y = &y[i * block..][..rows];
                        for ((out, x), y) in out.chunks_exact_mut(c).zip(x.chunks_exact(c)).zip(y.chunks_exact(c)) {
                            for k in 0..c {
                                out[k].write(finish(scale[k] * x[k] + slope[k] * y[k] + shift[k]));
                            }
                        }
                    }
                }
            });
        }
        // SAFETY: the loop above wrote every value: `x.len()` is a whole number of rows of
        // `channels` (as many as each map has).
        unsafe { out.set_len(x.len()) };
        out
    }

    /// Per channel `c`, `Σ f(a, b, m[c])` over the rows of `a` and `b` (of one shape), both
    /// parts of `f`'s pair: in `f32` lanes, one per channel (so that it vectorises), taken
    /// into `f64` totals every [`ROWS_IN_LANES`] rows.
    fn channel_sums(
        &self,
        [a, b]: [&[f32]; 2],
        m: &[f32],
        f: impl Fn(f32, f32, f32) -> (f32, f32) + Sync,
    ) -> [Vec<f64>; 2] {
        let c = self.channels;
        if c == 0 {
            return [Vec::new(), Vec::new()];
        }
        let block = ROWS_PER_TASK * c;
        let partials: Vec<[Vec<f64>; 2]> = a
            .par_chunks(block)
            .zip(b.par_chunks(block))
            .map(|(a, b)| {
                let mut totals = [vec![0.0f64; c], vec![0.0f64; c]];
                let (mut first, mut second) = (vec![0.0f32; c], vec![0.0f32; c]);
                let flush = |lanes: &mut [f32], totals: &mut [f64]| {
                    totals.iter_mut().zip(lanes.iter_mut()).for_each(|(t, l)| *t += std::mem::take(l) as f64);
                };
                let m = &m[..c];
                for (row, (a, b)) in a.chunks_exact(c).zip(b.chunks_exact(c)).enumerate() {
                    // An indexed loop over rows of exactly `c`: it vectorises across the channels.
                    let (lanes1, lanes2) = (&mut first[..c], &mut second[..c]);
                    for k in 0..c {
                        let (v1, v2) = f(a[k], b[k], m[k]);
                        lanes1[k] += v1;
                        lanes2[k] += v2;
                    }
                    if row % ROWS_IN_LANES == ROWS_IN_LANES - 1 {
                        flush(&mut first, &mut totals[0]);
                        flush(&mut second, &mut totals[1]);
                    }
                }
                flush(&mut first, &mut totals[0]);
                flush(&mut second, &mut totals[1]);
                totals
            })
            .collect();
        let mut sums = [vec![0.0f64; c], vec![0.0f64; c]];
        for partial in partials {
            for (sum, part) in sums.iter_mut().zip(partial) {
                sum.iter_mut().zip(part).for_each(|(s, p)| *s += p);
            }
        }
        sums
    }
}

/// The normalised `x` (`[rows, channels]`) plus `residual` (shaped as `x`) when given,
/// through a ReLU, the batch's mean and its biased variance per channel: `y = relu(gamma ·
/// (x − mean) / √(variance + epsilon) + beta + residual)`.
pub(crate) fn forward(
    d: Dims,
    x: &[f32],
    [gamma, beta]: [&[f32]; 2],
    epsilon: f64,
    residual: Option<&[f32]>,
) -> Results {
    let count = d.count().max(1.0);
    let zero = vec![0.0f32; d.channels];
    let [sums, _] = d.channel_sums([x, x], &zero, |v, _, _| (v, 0.0));
    let means: Vec<f32> = sums.iter().map(|&sum| (sum / count) as f32).collect();
    let [squares, _] = d.channel_sums([x, x], &means, |v, _, m| ((v - m) * (v - m), 0.0));
    let statistics: Vec<(f64, f64)> = sums.iter().zip(&squares).map(|(&s, &q)| (s / count, q / count)).collect();
    let mut maps: Maps = [Vec::new(), vec![1.0; d.channels], Vec::new()];
    for (&(mean, variance), (&gamma, &beta)) in statistics.iter().zip(gamma.iter().zip(beta)) {
        let scale = gamma as f64 / (variance + epsilon).sqrt();
        maps[0].push(scale as f32);
        maps[2].push((beta as f64 - mean * scale) as f32);
    }
    let (mean, variance) = statistics.iter().map(|&(m, v)| (m as f32, v as f32)).unzip();
    [d.affine::<true>(x, residual, &maps), mean, variance]
}

/// The gradients to `x`, `gamma` and `beta`, and to the residual, from `grad`, the
/// gradient to the forward's `output`, with the forward's `[gamma, mean, variance]`: the
/// residual's is `grad` where the output is positive (through the ReLU), 0 elsewhere, and
/// with `g` that, `x̂ = (x − mean) / σ`, `dbeta = Σ g`, `dgamma = Σ g · x̂` and `dx = gamma
/// / σ · (g − dbeta / n − x̂ · dgamma / n)`.
pub(crate) fn backward(
    d: Dims,
    x: &[f32],
    [gamma, mean, variance]: [&[f32]; 3],
    epsilon: f64,
    [output, grad]: [&[f32]; 2],
) -> [Vec<f32>; 4] {
    let through = through_relu(output, grad);
    let grad = through.as_slice();
    let count = d.count().max(1.0);
    let [grad_sums, centred] = d.channel_sums([x, grad], mean, |x, g, m| (g, (x - m) * g));
    let mut maps: Maps = Default::default();
    let (mut gamma_grads, mut beta_grads) = (Vec::with_capacity(d.channels), Vec::with_capacity(d.channels));
    for c in 0..d.channels {
        let (beta_grad, centred) = (grad_sums[c], centred[c]);
        let inv_std = 1.0 / (variance[c] as f64 + epsilon).sqrt();
        let gamma_grad = centred * inv_std;
        // dx = a · grad + b · x + k, with a = gamma / σ, b = −a · dgamma / (n σ) and
        // k = −a · dbeta / n − b · mean.
        let a = gamma[c] as f64 * inv_std;
        let b = -a * gamma_grad * inv_std / count;
        let k = -a * beta_grad / count - b * mean[c] as f64;
        for (map, value) in maps.iter_mut().zip([b, a, k]) {
            map.push(value as f32);
        }
        gamma_grads.push(gamma_grad as f32);
        beta_grads.push(beta_grad as f32);
    }
    let x_grad = d.affine::<false>(x, Some(grad), &maps);
    [x_grad, gamma_grads, beta_grads, through]
}

/// `grad` where `output` is positive, 0 elsewhere: the gradient through a ReLU.
fn through_relu(output: &[f32], grad: &[f32]) -> Vec<f32> {
    let mut through = Vec::with_capacity(grad.len());
    through.spare_capacity_mut()[..grad.len()].par_chunks_mut(1 << 14).enumerate().for_each(|(i, chunk)| {
        let (output, grad) = (&output[i << 14..][..chunk.len()], &grad[i << 14..][..chunk.len()]);
        for ((t, &o), &g) in chunk.iter_mut().zip(output).zip(grad) {
            t.write(if o > 0.0 { g } else { 0.0 });
        }
    });
    // SAFETY: every value was written above.
    unsafe { through.set_len(grad.len()) };
    through
}

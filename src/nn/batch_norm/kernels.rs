//! Batch-norm's arithmetic on NCHW `f32` slices: each channel's statistics summed over
//! its rows (a row: one image's plane of that channel, contiguous), the channels split
//! among rayon's threads; then one pass per image applying each channel's affine map.

use rayon::prelude::*;

/// The sizes of a batch-norm's input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Dims {
    /// Images in the batch.
    pub batch: usize,
    /// Channels, each with its own statistics.
    pub channels: usize,
    /// Cells of a plane (height × width).
    pub cells: usize,
}

/// Rows [`Dims::channel_sum`] adds up in `f32` lanes before it takes them into its `f64`
/// total: a few hundred values a lane, where `f32` keeps about six digits.
const ROWS_IN_LANES: usize = 16;

/// A result shaped as the input and two per channel.
pub(crate) type Results = [Vec<f32>; 3];

impl Dims {
    /// The rows of channel `c` in `x`.
    fn rows<'a>(&self, x: &'a [f32], c: usize) -> impl Iterator<Item = &'a [f32]> + 'a {
        let (channels, cells) = (self.channels, self.cells);
        (0..self.batch).map(move |b| &x[(b * channels + c) * cells..(b * channels + c + 1) * cells])
    }

    /// Values per channel.
    fn count(&self) -> f64 {
        (self.batch * self.cells) as f64
    }

    /// `per_channel(c)` for every channel, on rayon's threads.
    fn each_channel<T: Send>(&self, per_channel: impl Fn(usize) -> T + Sync + Send) -> Vec<T> {
        (0..self.channels).into_par_iter().map(per_channel).collect()
    }

    /// `out = scale[c] · x + shift[c]` for every channel (and `out = scale[c] · x +
    /// slope[c] · y + shift[c]` when `y` is given), one image per task, each value
    /// written once (no zeroing first).
    fn affine(&self, x: &[f32], y: Option<&[f32]>, maps: &[[f32; 3]]) -> Vec<f32> {
        let image = self.channels * self.cells;
        assert!(x.len() == self.batch * image && maps.len() == self.channels, "batch-norm of {self:?}");
        let mut out = Vec::with_capacity(x.len());
        if image > 0 {
            out.spare_capacity_mut()[..x.len()].par_chunks_mut(image).enumerate().for_each(|(b, out)| {
                let x = &x[b * image..(b + 1) * image];
                for ((c, out), &[scale, slope, shift]) in out.chunks_exact_mut(self.cells).enumerate().zip(maps) {
                    let x = &x[c * self.cells..(c + 1) * self.cells];
                    match y {
                        Some(y) => {
                            let y = &y[b * image + c * self.cells..b * image + (c + 1) * self.cells];
                            for ((o, &x), &y) in out.iter_mut().zip(x).zip(y) {
                                o.write(scale * x + slope * y + shift);
                            }
                        }
                        None => out.iter_mut().zip(x).for_each(|(o, &x)| {
                            o.write(scale * x + shift);
                        }),
                    }
                }
            });
        }
        // SAFETY: the loop above wrote every value: `x.len()` is a whole number of images,
        // each of `channels` (as many as `maps`) rows of `cells`.
        unsafe { out.set_len(x.len()) };
        out
    }

    /// `Σ f(a, b)` over channel `c`'s rows of `a` and `b` (of one shape): in 16 lanes (so
    /// that it vectorises), a row's last values in the first lanes, taken into an `f64`
    /// total every [`ROWS_IN_LANES`] rows.
    #[inline]
    fn channel_sum(&self, [a, b]: [&[f32]; 2], c: usize, f: impl Fn(f32, f32) -> f32) -> f64 {
        let (mut total, mut lanes) = (0.0f64, [0.0f32; 16]);
        let flush = |lanes: &mut [f32; 16]| std::mem::take(lanes).iter().map(|&l| l as f64).sum::<f64>();
        for (row, (a, b)) in self.rows(a, c).zip(self.rows(b, c)).enumerate() {
            let (a16, b16) = (a.chunks_exact(16), b.chunks_exact(16));
            for ((lane, &a), &b) in lanes.iter_mut().zip(a16.remainder()).zip(b16.remainder()) {
                *lane += f(a, b);
            }
            for (a, b) in a16.zip(b16) {
                for ((lane, &a), &b) in lanes.iter_mut().zip(a).zip(b) {
                    *lane += f(a, b);
                }
            }
            if row % ROWS_IN_LANES == ROWS_IN_LANES - 1 {
                total += flush(&mut lanes);
            }
        }
        total + flush(&mut lanes)
    }
}

/// The normalised output of `x` (`[batch, channels, cells]`), the batch's mean and its
/// biased variance per channel: `y = gamma · (x − mean) / √(variance + epsilon) + beta`.
pub(crate) fn forward(d: Dims, x: &[f32], gamma: &[f32], beta: &[f32], epsilon: f64) -> Results {
    let count = d.count().max(1.0);
    let statistics = d.each_channel(|c| {
        let mean = d.channel_sum([x, x], c, |v, _| v) / count;
        let m = mean as f32;
        let variance = d.channel_sum([x, x], c, |v, _| (v - m) * (v - m)) / count;
        (mean, variance)
    });
    let maps: Vec<[f32; 3]> = statistics
        .iter()
        .zip(gamma.iter().zip(beta))
        .map(|(&(mean, variance), (&gamma, &beta))| {
            let scale = gamma as f64 / (variance + epsilon).sqrt();
            [scale as f32, 0.0, (beta as f64 - mean * scale) as f32]
        })
        .collect();
    let (mean, variance) = statistics.iter().map(|&(m, v)| (m as f32, v as f32)).unzip();
    [d.affine(x, None, &maps), mean, variance]
}

/// The gradients to `x`, `gamma` and `beta` from `grad`, the gradient to the output, with
/// the forward's `[gamma, mean, variance]`: with `x̂ = (x − mean) / σ`, `dbeta = Σ grad`,
/// `dgamma = Σ grad · x̂` and `dx = gamma / σ · (grad − dbeta / n − x̂ · dgamma / n)`.
pub(crate) fn backward(
    d: Dims,
    x: &[f32],
    [gamma, mean, variance]: [&[f32]; 3],
    epsilon: f64,
    grad: &[f32],
) -> Results {
    let count = d.count().max(1.0);
    let sums = d.each_channel(|c| {
        let m = mean[c];
        let beta_grad = d.channel_sum([grad, grad], c, |g, _| g);
        let centred = d.channel_sum([x, grad], c, |x, g| (x - m) * g);
        (beta_grad, centred)
    });
    let mut maps = Vec::with_capacity(d.channels);
    let (mut gamma_grads, mut beta_grads) = (Vec::with_capacity(d.channels), Vec::with_capacity(d.channels));
    for c in 0..d.channels {
        let (beta_grad, centred) = sums[c];
        let inv_std = 1.0 / (variance[c] as f64 + epsilon).sqrt();
        let gamma_grad = centred * inv_std;
        // dx = a · grad + b · x + k, with a = gamma / σ, b = −a · dgamma / (n σ) and
        // k = −a · dbeta / n − b · mean.
        let a = gamma[c] as f64 * inv_std;
        let b = -a * gamma_grad * inv_std / count;
        let k = -a * beta_grad / count - b * mean[c] as f64;
        maps.push([b as f32, a as f32, k as f32]);
        gamma_grads.push(gamma_grad as f32);
        beta_grads.push(beta_grad as f32);
    }
    [d.affine(x, Some(grad), &maps), gamma_grads, beta_grads]
}

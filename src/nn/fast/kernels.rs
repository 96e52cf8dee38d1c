//! The forward pass's building blocks on channels-last activations (`[positions × cells,
//! channels]`, row-major): im2col for 3×3 convolutions with zero padding, matrix
//! products through the `gemm` crate, and the fused epilogues (bias, ReLU, residual).

use gemm::Parallelism;

/// Writes the im2col matrix of a 3×3 convolution with padding 1: one row per output
/// cell (`positions × height × width` rows), each the 3×3 neighbourhood's channels in
/// (kernel row, kernel column, channel) order, zero off the board.
pub(crate) fn im2col3x3(input: &[f32], positions: usize, height: usize, width: usize, channels: usize, cols: &mut [f32]) {
    let row_len = 9 * channels;
    let cells = height * width;
    for p in 0..positions {
        let image = &input[p * cells * channels..(p + 1) * cells * channels];
        for y in 0..height {
            for x in 0..width {
                let row = (p * cells + y * width + x) * row_len;
                let row = &mut cols[row..row + row_len];
                for ky in 0..3 {
                    let dst = &mut row[ky * 3 * channels..(ky + 1) * 3 * channels];
                    let yy = y + ky;
                    if yy < 1 || yy > height {
                        dst.fill(0.0);
                        continue;
                    }
                    let src_row = (yy - 1) * width;
                    // Columns x-1, x, x+1: contiguous in the source when all on the board.
                    let (first, skip_left) = if x == 0 { (0, 1) } else { (x - 1, 0) };
                    let last = (x + 1).min(width - 1);
                    let count = last + 1 - first;
                    dst[..skip_left * channels].fill(0.0);
                    let src = (src_row + first) * channels;
                    dst[skip_left * channels..(skip_left + count) * channels]
                        .copy_from_slice(&image[src..src + count * channels]);
                    dst[(skip_left + count) * channels..].fill(0.0);
                }
            }
        }
    }
}

/// `out = a · b` for row-major `a` (`m × k`) and `b` (`k × n`), `out` being `m × n`.
pub(crate) fn matmul(m: usize, k: usize, n: usize, a: &[f32], b: &[f32], out: &mut [f32], parallelism: Parallelism) {
    assert!(a.len() >= m * k && b.len() >= k * n && out.len() >= m * n, "matmul operands too small");
    // SAFETY: the assert above keeps every access of the three row-major matrices, with
    // the strides given, inside its slice; `out` does not alias `a` or `b` (it is a
    // distinct `&mut`).
    unsafe {
        gemm::gemm(
            m,
            n,
            k,
            out.as_mut_ptr(),
            1,
            n as isize,
            false,
            a.as_ptr(),
            1,
            k as isize,
            b.as_ptr(),
            1,
            n as isize,
            0.0,
            1.0,
            false,
            false,
            false,
            parallelism,
        );
    }
}

/// `values = max(values + bias, 0)`, `bias` repeated along each row.
pub(crate) fn bias_relu(values: &mut [f32], bias: &[f32]) {
    for row in values.chunks_exact_mut(bias.len()) {
        for (v, b) in row.iter_mut().zip(bias) {
            *v = (*v + b).max(0.0);
        }
    }
}

/// `values = values + bias`, `bias` repeated along each row.
pub(crate) fn add_bias(values: &mut [f32], bias: &[f32]) {
    for row in values.chunks_exact_mut(bias.len()) {
        for (v, b) in row.iter_mut().zip(bias) {
            *v += b;
        }
    }
}

/// `residual = max(values + bias + residual, 0)`: a residual block's end.
pub(crate) fn bias_residual_relu(values: &[f32], bias: &[f32], residual: &mut [f32]) {
    for (row, res) in values.chunks_exact(bias.len()).zip(residual.chunks_exact_mut(bias.len())) {
        for ((v, b), r) in row.iter().zip(bias).zip(res.iter_mut()) {
            *r = (v + b + *r).max(0.0);
        }
    }
}

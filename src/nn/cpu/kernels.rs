//! The forward pass's building blocks on row-major matrices: products through the
//! `gemm` crate (also for training's 3×3 convs, [`crate::nn::conv3x3`]), the bias (and
//! ReLU) passes after them, and the attention head's dot products.

use gemm::Parallelism;
use rayon::prelude::*;

/// `out = a · b` for row-major `a` (`m × k`) and `b` (`k × n`), `out` being `m × n`, on
/// the calling thread (callers split the batch among threads).
pub(crate) fn matmul(m: usize, k: usize, n: usize, a: &[f32], b: &[f32], out: &mut [f32]) {
    product(Product { m, k, n, a_transposed: false, accumulate: false }, a, b, out);
}

/// `out += a · b` for row-major `a` (`m × k`), `b` (`k × n`) and `out` (`m × n`), on the
/// calling thread.
pub(crate) fn add_matmul(m: usize, k: usize, n: usize, a: &[f32], b: &[f32], out: &mut [f32]) {
    product(Product { m, k, n, a_transposed: false, accumulate: true }, a, b, out);
}

/// The shape of a product `a · b` (`m × k` by `k × n`, into `m × n`), whether `a` is
/// stored transposed (`k × m`, row-major) and whether the product is added to `out` or
/// replaces it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Product {
    /// Rows of `a` and `out`.
    pub m: usize,
    /// Columns of `a`, rows of `b`.
    pub k: usize,
    /// Columns of `b` and `out`.
    pub n: usize,
    /// Whether `a` is stored as `aᵀ`.
    pub a_transposed: bool,
    /// Whether `out += a · b` rather than `out = a · b`.
    pub accumulate: bool,
}

impl Product {
    /// The strides of `a`'s element (row r, column c), at `r · row + c · column`.
    pub(crate) fn a_strides(&self) -> (usize, usize) {
        if self.a_transposed {
            (1, self.m)
        } else {
            (self.k, 1)
        }
    }
}

/// The product `p` of `a` and `b` into row-major `out`, through `gemm`, on the calling
/// thread.
pub(crate) fn product(p: Product, a: &[f32], b: &[f32], out: &mut [f32]) {
    let Product { m, k, n, accumulate, .. } = p;
    assert!(a.len() >= m * k && b.len() >= k * n && out.len() >= m * n, "matmul operands too small");
    let (a_row_stride, a_column_stride) = p.a_strides();
    // SAFETY: the assert above keeps every access of the three matrices, with the strides
    // given, inside its slice; `out` does not alias `a` or `b` (it is a distinct `&mut`).
    unsafe {
        gemm::gemm(
            m,
            n,
            k,
            out.as_mut_ptr(),
            1,
            n as isize,
            accumulate,
            a.as_ptr(),
            a_column_stride as isize,
            a_row_stride as isize,
            b.as_ptr(),
            1,
            n as isize,
            if accumulate { 1.0 } else { 0.0 },
            1.0,
            false,
            false,
            false,
            Parallelism::None,
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

/// Whether the CPU has AVX-512F: what the `multiversion!` functions run fast with.
#[cfg(target_arch = "x86_64")]
pub(crate) fn has_avx512() -> bool {
    std::arch::is_x86_feature_detected!("avx512f")
}

/// Defines a function twice, for baseline x86-64 (how the crate is built) and for
/// AVX-512, and picks at run time: loops along the channels then run 16 floats at a time.
macro_rules! multiversion {
    ($(#[$meta:meta])* $vis:vis fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $body:block) => {
        $(#[$meta])*
        $vis fn $name($($arg: $ty),*) {
            #[inline(always)]
            fn generic($($arg: $ty),*) $body
            #[cfg(target_arch = "x86_64")]
            #[target_feature(enable = "avx512f")]
            unsafe fn avx512($($arg: $ty),*) {
                generic($($arg),*)
            }
            #[cfg(target_arch = "x86_64")]
            if $crate::nn::cpu::kernels::has_avx512() {
                // SAFETY: the CPU has AVX-512F, checked just above.
                return unsafe { avx512($($arg),*) };
            }
            generic($($arg),*)
        }
    };
}
pub(crate) use multiversion;

multiversion! {
/// An attention head's logits of one position: each label's the dot product of its
/// from-cell's query with its to-cell's key, times `scale`. `cells` holds each cell's
/// `dim` query values then its `dim` key values; `label_cells` each label's (from-cell,
/// to-cell). Only the labels' pairs are multiplied, a quarter of every query against
/// every key on a Xiangqi board.
pub(crate) fn label_dot_products(cells: &[f32], dim: usize, label_cells: &[(u8, u8)], scale: f32, logits: &mut [f32]) {
    for (logit, &(from, to)) in logits.iter_mut().zip(label_cells) {
        let query = &cells[from as usize * 2 * dim..][..dim];
        let key = &cells[to as usize * 2 * dim + dim..][..dim];
        // Sixteen lanes of sums (one register), then summed pairwise.
        let mut lanes = [0.0f32; 16];
        let ((queries, query_rest), (keys, key_rest)) = (query.as_chunks::<16>(), key.as_chunks::<16>());
        for (q, k) in queries.iter().zip(keys) {
            for lane in 0..16 {
                lanes[lane] += q[lane] * k[lane];
            }
        }
        for (lane, (q, k)) in query_rest.iter().zip(key_rest).enumerate() {
            lanes[lane] += q * k;
        }
        let mut width = 16;
        while width > 1 {
            width /= 2;
            for lane in 0..width {
                lanes[lane] += lanes[lane + width];
            }
        }
        *logit = scale * lanes[0];
    }
}
}

/// `len` zeros, written by rayon's threads: an output the callers then fill in parallel
/// (a large `vec![0.0; len]` is one thread's memset, while the others wait).
pub(crate) fn zeros(len: usize) -> Vec<f32> {
    let mut values = Vec::with_capacity(len);
    values.spare_capacity_mut().par_chunks_mut(1 << 14).for_each(|chunk| {
        for value in chunk {
            value.write(0.0);
        }
    });
    // SAFETY: the first `len` elements were all written just above.
    unsafe { values.set_len(len) };
    values
}

/// Grows `buffer` to at least `len` floats and returns its first `len`.
pub(crate) fn sized(buffer: &mut Vec<f32>, len: usize) -> &mut [f32] {
    if buffer.len() < len {
        buffer.resize(len, 0.0);
    }
    &mut buffer[..len]
}

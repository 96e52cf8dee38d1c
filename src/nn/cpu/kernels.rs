//! The forward pass's building blocks on row-major matrices: products through the
//! `gemm` crate (also for training's 3×3 convs, [`crate::nn::conv3x3`]), the bias (and
//! ReLU) passes after them, and our register-blocked kernel for small products.

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

/// Floats in an AVX-512 register: the width of `products`' column blocks (a product whose
/// `n` is a multiple of it runs our kernel).
pub(crate) const LANES: usize = 16;

/// `out (+)= a · b` for a small product (`shape`, `b` and `out` row-major: a Winograd
/// point's, the attention head's): our register-blocked kernel where it applies, `gemm`
/// otherwise.
pub(crate) fn blocked_product(shape: Product, a: &[f32], b: &[f32], out: &mut [f32]) {
    // Our kernel is for AVX-512 only; gemm picks its own code for the CPU.
    #[cfg(target_arch = "x86_64")]
    if shape.n.is_multiple_of(LANES) && has_avx512() {
        products(shape, a, b, out);
        return;
    }
    product(shape, a, b, out);
}

multiversion! {
/// `out (+)= a · b` for a small product of `shape` (`n` a multiple of `LANES`; `b` and
/// `out` row-major, `a` either way). With such sizes (a block of `b` fits in L1)
/// blocks of up to 6 rows × 64 columns (32 or 16 where fewer are left, as for 32-channel
/// nets) accumulate in registers and nothing needs packing, unlike a general GEMM: 10%
/// faster than `gemm` here.
#[cfg(target_arch = "x86_64")]
fn products(shape: Product, a: &[f32], b: &[f32], out: &mut [f32]) {
    let Product { m, n, .. } = shape;
    let row_stride = shape.a_strides().0;
    let mut row = 0;
    while row < m {
        let rows = (m - row).min(6);
        let mut col = 0;
        while col < n {
            let (a, out) = (&a[row * row_stride..], &mut out[row * n..(row + rows) * n]);
            let width = [4 * LANES, 2 * LANES, LANES].into_iter().find(|&w| n - col >= w).unwrap_or(LANES);
            match width {
                64 => rows_block::<64>(rows, shape, col, a, b, out),
                32 => rows_block::<32>(rows, shape, col, a, b, out),
                _ => rows_block::<16>(rows, shape, col, a, b, out),
            }
            col += width;
        }
        row += rows;
    }
}
}

/// [`block`] of `rows` rows (1 to 6) × `W` columns.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn rows_block<const W: usize>(rows: usize, shape: Product, col: usize, a: &[f32], b: &[f32], out: &mut [f32]) {
    match rows {
        6 => block::<6, W>(shape, col, a, b, out),
        5 => block::<5, W>(shape, col, a, b, out),
        4 => block::<4, W>(shape, col, a, b, out),
        3 => block::<3, W>(shape, col, a, b, out),
        2 => block::<2, W>(shape, col, a, b, out),
        _ => block::<1, W>(shape, col, a, b, out),
    }
}

/// `R` rows × `W` columns (from `col`) of `products`, accumulated in registers (the
/// operands copied into locals first, so they are loaded once per step, not per use);
/// `a` starts at the block's first row.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn block<const R: usize, const W: usize>(shape: Product, col: usize, a: &[f32], b: &[f32], out: &mut [f32]) {
    let (k, n) = (shape.k, shape.n);
    let (row_stride, k_stride) = shape.a_strides();
    let mut acc = [[0.0f32; W]; R];
    if shape.accumulate {
        for (r, acc) in acc.iter_mut().enumerate() {
            acc.copy_from_slice(&out[r * n + col..r * n + col + W]);
        }
    }
    for i in 0..k {
        let columns: [f32; W] = b[i * n + col..i * n + col + W].try_into().expect("W columns");
        let rows: [f32; R] = std::array::from_fn(|r| a[r * row_stride + i * k_stride]);
        for (acc, a) in acc.iter_mut().zip(rows) {
            for (acc, b) in acc.iter_mut().zip(columns) {
                *acc = a.mul_add(b, *acc);
            }
        }
    }
    for (r, acc) in acc.iter().enumerate() {
        out[r * n + col..r * n + col + W].copy_from_slice(acc);
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

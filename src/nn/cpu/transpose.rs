//! Matrix transposition, the layout change between burn's NCHW tensors and our kernels'
//! channels-last ones: in 8 × 8 blocks transposed in AVX registers where the CPU has AVX
//! (eight loads and eight stores of eight floats, instead of 64 scattered stores), the
//! edges that do not fill a block element by element.

/// Side of the blocks transposed in registers.
const BLOCK: usize = 8;

/// `out = aᵀ` for row-major `a` (`rows × columns`), `out` being `columns × rows`: one
/// image's planes to channels-last, or back.
pub(crate) fn transpose(rows: usize, columns: usize, a: &[f32], out: &mut [f32]) {
    assert!(a.len() >= rows * columns && out.len() >= rows * columns, "transpose operands too small");
    let (full_rows, full_columns) = (rows - rows % BLOCK, columns - columns % BLOCK);
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx") {
        for r in (0..full_rows).step_by(BLOCK) {
            for c in (0..full_columns).step_by(BLOCK) {
                // SAFETY: the CPU has AVX (checked above); the block's rows r..r+8 of
                // columns c..c+8 lie in `a` and its rows c..c+8 of columns r..r+8 in `out`,
                // whose lengths were checked against rows × columns.
                unsafe { block(&a[r * columns + c..], columns, &mut out[c * rows + r..], rows) };
            }
        }
        by_element(rows, columns, a, out, (full_rows, full_columns));
        return;
    }
    by_element(rows, columns, a, out, (0, 0));
}

/// The elements of `out = aᵀ` outside the top-left `done` (rows × columns of `a`),
/// one by one.
fn by_element(rows: usize, columns: usize, a: &[f32], out: &mut [f32], done: (usize, usize)) {
    for (r, row) in a.chunks_exact(columns).take(rows).enumerate() {
        let from = if r < done.0 { done.1 } else { 0 };
        for (c, &v) in row.iter().enumerate().skip(from) {
            out[c * rows + r] = v;
        }
    }
}

/// The 8 × 8 block at the start of `a` (rows `a_stride` apart) transposed into the start
/// of `out` (rows `out_stride` apart).
///
/// # Safety
/// The CPU has AVX; `a` holds 7 · `a_stride` + 8 floats and `out` 7 · `out_stride` + 8.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
unsafe fn block(a: &[f32], a_stride: usize, out: &mut [f32], out_stride: usize) {
    use std::arch::x86_64::*;
    debug_assert!(a.len() >= 7 * a_stride + BLOCK && out.len() >= 7 * out_stride + BLOCK);
    let load = |i: usize| _mm256_loadu_ps(a.as_ptr().add(i * a_stride));
    let r = [load(0), load(1), load(2), load(3), load(4), load(5), load(6), load(7)];
    // Pairs of rows interleaved, then pairs of pairs: each 128-bit half holds a 4 × 4
    // block transposed; the halves are then swapped into place.
    let t = [
        _mm256_unpacklo_ps(r[0], r[1]),
        _mm256_unpackhi_ps(r[0], r[1]),
        _mm256_unpacklo_ps(r[2], r[3]),
        _mm256_unpackhi_ps(r[2], r[3]),
        _mm256_unpacklo_ps(r[4], r[5]),
        _mm256_unpackhi_ps(r[4], r[5]),
        _mm256_unpacklo_ps(r[6], r[7]),
        _mm256_unpackhi_ps(r[6], r[7]),
    ];
    let s = [
        _mm256_shuffle_ps::<0x44>(t[0], t[2]),
        _mm256_shuffle_ps::<0xEE>(t[0], t[2]),
        _mm256_shuffle_ps::<0x44>(t[1], t[3]),
        _mm256_shuffle_ps::<0xEE>(t[1], t[3]),
        _mm256_shuffle_ps::<0x44>(t[4], t[6]),
        _mm256_shuffle_ps::<0xEE>(t[4], t[6]),
        _mm256_shuffle_ps::<0x44>(t[5], t[7]),
        _mm256_shuffle_ps::<0xEE>(t[5], t[7]),
    ];
    let columns = [
        _mm256_permute2f128_ps::<0x20>(s[0], s[4]),
        _mm256_permute2f128_ps::<0x20>(s[1], s[5]),
        _mm256_permute2f128_ps::<0x20>(s[2], s[6]),
        _mm256_permute2f128_ps::<0x20>(s[3], s[7]),
        _mm256_permute2f128_ps::<0x31>(s[0], s[4]),
        _mm256_permute2f128_ps::<0x31>(s[1], s[5]),
        _mm256_permute2f128_ps::<0x31>(s[2], s[6]),
        _mm256_permute2f128_ps::<0x31>(s[3], s[7]),
    ];
    for (i, column) in columns.into_iter().enumerate() {
        _mm256_storeu_ps(out.as_mut_ptr().add(i * out_stride), column);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transposes_every_shape_as_the_definition() {
        // Blocks only, edges only, both, and the shapes the nets use (17 or 64 planes of
        // 90 or 32 cells, and back).
        for (rows, columns) in
            [(1, 1), (3, 5), (8, 8), (16, 24), (9, 8), (8, 9), (17, 90), (64, 90), (90, 64), (34, 32)]
        {
            let a: Vec<f32> = (0..rows * columns).map(|i| i as f32).collect();
            let mut out = vec![-1.0; rows * columns];
            transpose(rows, columns, &a, &mut out);
            for r in 0..rows {
                for c in 0..columns {
                    assert_eq!(out[c * rows + r], a[r * columns + c], "{rows}×{columns} at ({r}, {c})");
                }
            }
        }
    }
}

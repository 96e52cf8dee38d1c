//! The Winograd products in bfloat16 on AMX tiles (Intel since Sapphire Rapids):
//! `tdpbf16ps` multiplies a 16 × 32 tile of bf16 inputs by a 32 × 16 tile of bf16 weights
//! into 16 × 16 f32 sums, 8 192 products an instruction. Weights are rounded to bf16 once,
//! when the net is loaded; each product's inputs when they are transformed; every sum
//! stays f32. Training's convolutions and both their gradients may run so too
//! (`[train] precision = "bf16"`, [`crate::nn::conv3x3::set_precision`]); its master
//! weights and optimiser stay f32. AVX512-BF16's `vdpbf16ps` alone is no faster than f32
//! (it issues half as often as an FMA), so bf16 needs the tiles.

/// Whether bf16 products run here: the CPU has AMX tiles with bf16 (Intel since Sapphire
/// Rapids) and AVX512-BF16 (to round to bf16), and the kernel lets this process use the
/// tiles (asked once).
pub fn has_bf16() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        // CPUID leaf 7: EDX bit 22 AMX-BF16.
        std::arch::is_x86_feature_detected!("avx512bf16") && super::amx::has_tiles_with(1 << 22)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether a product of `k` inputs and `n` outputs runs in bf16: whole tiles of inputs
/// (32) and of outputs (16).
pub(crate) fn fits(k: usize, n: usize) -> bool {
    k.is_multiple_of(32) && n.is_multiple_of(16)
}

/// `x` rounded to the nearest bf16 (ties to even), as its bits.
#[inline(always)]
pub(crate) fn bf16_bits(x: f32) -> u16 {
    let bits = x.to_bits();
    if x.is_nan() {
        return ((bits >> 16) | 0x40) as u16;
    }
    ((bits + 0x7fff + ((bits >> 16) & 1)) >> 16) as u16
}

/// The matrices `b` (`points` of `k × n`, row-major) as bf16 pairs: `[point, k / 2, n, 2]`,
/// each column's two consecutive rows side by side, as `vdpbf16ps` reads them.
pub(crate) fn pack_weights(b: &[f32], points: usize, k: usize, n: usize) -> Vec<u16> {
    assert!(fits(k, n) && b.len() == points * k * n, "bf16 weights of {points} × {k} × {n}");
    let mut packed = vec![0; b.len()];
    for (b, packed) in b.chunks_exact(k * n).zip(packed.chunks_exact_mut(k * n)) {
        pack_pairs(b, n, packed);
    }
    packed
}

/// The row-major matrix `b` (rows of `n`) as bf16 pairs into `out` (`[k / 2, n, 2]`, as
/// [`pack_weights`] lays out a matrix of `k` rows), the rows past `b`'s zero: 32 columns
/// at a time with AVX512-BF16 where the CPU has it.
pub(crate) fn pack_pairs(b: &[f32], n: usize, out: &mut [u16]) {
    let rows = b.len() / n;
    assert!(b.len() == rows * n && out.len() >= rows.next_multiple_of(2) * n, "{rows} rows of {n} into pairs");
    let (pairs, past) = out.split_at_mut(rows.div_ceil(2) * 2 * n);
    past.fill(0);
    #[cfg(target_arch = "x86_64")]
    if has_bf16() && n.is_multiple_of(16) {
        // SAFETY: the CPU has AVX-512F and AVX512-BF16 (`has_bf16`); the sizes were checked above.
        unsafe { kernels::pack_pairs(b, n, pairs) };
        return;
    }
    for (pair, out) in pairs.chunks_exact_mut(2 * n).enumerate() {
        for column in 0..n {
            let at = |row: usize| b.get(row * n + column).map_or(0, |&x| bf16_bits(x));
            out[2 * column] = at(2 * pair);
            out[2 * column + 1] = at(2 * pair + 1);
        }
    }
}

/// `values` rounded to bf16 into `out`'s first as many: 16 at a time with AVX512-BF16
/// where the CPU has it.
pub(crate) fn round_into(values: &[f32], out: &mut [u16]) {
    let out = &mut out[..values.len()];
    let mut done = 0;
    #[cfg(target_arch = "x86_64")]
    if has_bf16() {
        // SAFETY: the CPU has AVX-512F and AVX512-BF16; `out` is as long as `values`.
        unsafe { kernels::round_into(values, out) };
        done = values.len() - values.len() % 16;
    }
    for (out, &x) in out[done..].iter_mut().zip(&values[done..]) {
        *out = bf16_bits(x);
    }
}

/// Rows of `a` that [`point_products`] may read past the last point's: the operand must
/// hold this many more rows of zeros (or anything finite: their products are thrown away).
pub(crate) const PAST_ROWS: usize = 32;

/// `out[p] = a[p] · b[p]` for each of `points` products: `a[p]` is `m × k` bf16 (as bits,
/// row-major, [`bf16_bits`]), `b[p]` is `k × n` packed by [`pack_weights`], `out[p]` is
/// `m × n` f32. `a` holds [`PAST_ROWS`] rows more than `points · m`. The CPU must have AMX
/// ([`has_bf16`]).
#[cfg(target_arch = "x86_64")]
pub(crate) fn point_products(points: usize, m: usize, k: usize, n: usize, a: &[u16], b: &[u16], out: &mut [f32]) {
    assert!(fits(k, n), "bf16 products of {k} inputs and {n} outputs");
    assert!(a.len() >= (points * m + PAST_ROWS) * k && b.len() >= points * k * n && out.len() >= points * m * n);
    assert!(has_bf16(), "bf16 products do not run on this machine");
    for point in 0..points {
        // SAFETY: the CPU has AMX, granted to this process (asserted above); every tile the
        // kernel reads lies within `a` and `b`, and it writes only `out`'s first m × n
        // (sizes asserted above).
        unsafe {
            kernels::products(
                m,
                k / 2,
                n,
                a.as_ptr().add(point * m * k),
                &b[point * k * n..(point + 1) * k * n],
                &mut out[point * m * n..(point + 1) * m * n],
            );
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod kernels {
    use std::arch::asm;

    use crate::nn::cpu::amx::{configure, store_sums, TILE_BYTES, TILE_ROWS};

    /// [`super::pack_pairs`] with `n` a multiple of 16 (an odd last row paired with zeros).
    #[target_feature(enable = "avx512f,avx512bw,avx512bf16")]
    pub(super) unsafe fn pack_pairs(b: &[f32], n: usize, out: &mut [u16]) {
        use std::arch::x86_64::*;
        // Lane i of the result: bf16 i / 2 of the first row's half (even i) or of the
        // second's (odd i).
        let order: [u16; 32] = std::array::from_fn(|i| (i / 2 + 16 * (i % 2)) as u16);
        let order = _mm512_loadu_si512(order.as_ptr().cast());
        for (rows, out) in b.chunks(2 * n).zip(out.chunks_exact_mut(2 * n)) {
            let paired = rows.len() == 2 * n;
            for column in (0..n).step_by(16) {
                let first = _mm512_loadu_ps(rows[column..].as_ptr());
                let second = if paired { _mm512_loadu_ps(rows[n + column..].as_ptr()) } else { _mm512_setzero_ps() };
                let halves: __m512i = std::mem::transmute(_mm512_cvtne2ps_pbh(second, first));
                _mm512_storeu_si512(out[2 * column..].as_mut_ptr().cast(), _mm512_permutexvar_epi16(order, halves));
            }
        }
    }

    /// [`super::round_into`]'s whole sixteens.
    #[target_feature(enable = "avx512f,avx512bf16")]
    pub(super) unsafe fn round_into(values: &[f32], out: &mut [u16]) {
        use std::arch::x86_64::*;
        for (values, out) in values.chunks_exact(16).zip(out.chunks_exact_mut(16)) {
            let rounded = _mm512_cvtneps_pbh(_mm512_loadu_ps(values.as_ptr()));
            _mm256_storeu_si256(out.as_mut_ptr().cast(), std::mem::transmute::<__m256bh, __m256i>(rounded));
        }
    }

    /// `out = a · b` on AMX tiles: `a` as `m` rows of `k2` bf16 pairs (and the rows past
    /// `m` up to two whole tiles, read and thrown away), `b` as `k2 × n` pairs. Each block
    /// of 32 rows × 32 columns of `out` (16 columns where `n` is not a multiple of 32) sums
    /// its two row tiles of `a` (16 rows × 32 inputs) times its two column tiles of `b` (16
    /// pairs × 16 columns) in tiles 0–3, four `tdpbf16ps` for every four tile loads.
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn products(m: usize, k2: usize, n: usize, a: *const u16, b: &[u16], out: &mut [f32]) {
        configure();
        let (a_stride, b_stride) = (k2 * 4, n * 4);
        let wide = n.is_multiple_of(2 * TILE_ROWS);
        let mut block = [0.0f32; 4 * TILE_ROWS * TILE_ROWS];
        for row in (0..m).step_by(2 * TILE_ROWS) {
            for col in (0..n).step_by(if wide { 2 * TILE_ROWS } else { TILE_ROWS }) {
                asm!("tilezero tmm0", "tilezero tmm1", "tilezero tmm2", "tilezero tmm3", options(nostack, nomem));
                for pair in (0..k2).step_by(TILE_ROWS) {
                    let a_tile = a.add((row * k2 + pair) * 2);
                    let b_tile = b.as_ptr().add((pair * n + col) * 2);
                    if wide {
                        asm!(
                            "tileloadd tmm4, [{a} + {a_stride}*1]",
                            "tileloadd tmm5, [{a2} + {a_stride}*1]",
                            "tileloadd tmm6, [{b} + {b_stride}*1]",
                            "tileloadd tmm7, [{b} + {b_stride}*1 + 64]",
                            "tdpbf16ps tmm0, tmm4, tmm6",
                            "tdpbf16ps tmm1, tmm4, tmm7",
                            "tdpbf16ps tmm2, tmm5, tmm6",
                            "tdpbf16ps tmm3, tmm5, tmm7",
                            a = in(reg) a_tile,
                            a2 = in(reg) a_tile.add(TILE_ROWS * k2 * 2),
                            a_stride = in(reg) a_stride,
                            b = in(reg) b_tile,
                            b_stride = in(reg) b_stride,
                            options(nostack, readonly),
                        );
                    } else {
                        asm!(
                            "tileloadd tmm4, [{a} + {a_stride}*1]",
                            "tileloadd tmm5, [{a2} + {a_stride}*1]",
                            "tileloadd tmm6, [{b} + {b_stride}*1]",
                            "tdpbf16ps tmm0, tmm4, tmm6",
                            "tdpbf16ps tmm2, tmm5, tmm6",
                            a = in(reg) a_tile,
                            a2 = in(reg) a_tile.add(TILE_ROWS * k2 * 2),
                            a_stride = in(reg) a_stride,
                            b = in(reg) b_tile,
                            b_stride = in(reg) b_stride,
                            options(nostack, readonly),
                        );
                    }
                }
                // Tiles 0 and 1 side by side above tiles 2 and 3: straight into `out` where
                // the block's 32 rows lie in it, else into `block` and the rows that do.
                let columns = if wide { 2 * TILE_ROWS } else { TILE_ROWS };
                let whole = row + 2 * TILE_ROWS <= m;
                let (target, stride) = if whole {
                    (out.as_mut_ptr().add(row * n + col), n * 4)
                } else {
                    (block.as_mut_ptr(), 2 * TILE_BYTES)
                };
                store_sums(target.cast(), stride, wide);
                if !whole {
                    for r in 0..m - row {
                        out[(row + r) * n + col..][..columns].copy_from_slice(&block[r * 2 * TILE_ROWS..][..columns]);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_to_bf16_keeps_eight_bits_and_ties_go_to_even() {
        assert_eq!(bf16_bits(1.0), 0x3f80);
        assert_eq!(bf16_bits(-2.0), 0xc000);
        // 1 + 2⁻⁸ lies halfway between 1 and 1 + 2⁻⁷: to the even one, 1.
        assert_eq!(bf16_bits(1.0 + 1.0 / 256.0), 0x3f80);
        // 1 + 3·2⁻⁸ lies halfway between 1 + 2⁻⁷ and 1 + 2·2⁻⁷: to the even one.
        assert_eq!(bf16_bits(1.0 + 3.0 / 256.0), 0x3f82);
        assert_eq!(bf16_bits(1.0 + 1.5 / 256.0), 0x3f81);
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_bf16_product_is_the_product_of_the_rounded_operands() {
        if !has_bf16() {
            eprintln!("skipped: bf16 products do not run on this machine");
            return;
        }
        let round = |x: f32| f32::from_bits(u32::from(bf16_bits(x)) << 16);
        for (m, k, n) in [(1, 32, 16), (7, 32, 32), (16, 32, 16), (37, 64, 64), (20, 96, 48)] {
            let a: Vec<f32> = (0..m * k).map(|i| ((i * 37 % 101) as f32 - 50.0) / 17.0).collect();
            let b: Vec<f32> = (0..k * n).map(|i| ((i * 53 % 97) as f32 - 48.0) / 23.0).collect();
            let mut out = vec![f32::NAN; m * n];
            let mut bits: Vec<u16> = a.iter().map(|&x| bf16_bits(x)).collect();
            bits.resize((m + PAST_ROWS) * k, 0);
            point_products(1, m, k, n, &bits, &pack_weights(&b, 1, k, n), &mut out);
            for r in 0..m {
                for c in 0..n {
                    let exact: f64 =
                        (0..k).map(|i| f64::from(round(a[r * k + i])) * f64::from(round(b[i * n + c]))).sum();
                    let got = f64::from(out[r * n + c]);
                    assert!(
                        (got - exact).abs() <= 1e-4 * (1.0 + exact.abs()),
                        "{m}×{k}×{n} ({r}, {c}): {got} ≠ {exact}"
                    );
                }
            }
        }
    }
}

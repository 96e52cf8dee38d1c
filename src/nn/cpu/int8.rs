//! 3×3 convolutions (padding 1) in int8 with AVX512-VNNI (Intel since Cascade Lake, AMD
//! since Zen 4): `vpdpbusd` multiplies 64 unsigned bytes by 64 signed bytes and adds each
//! four products to one of 16 int32 sums, four times the products of an f32 FMA. The
//! convolution runs directly (nine taps over a zero-padded board), not by Winograd, whose
//! transforms would widen the int8 ranges.
//!
//! Weights are quantized once, when the net is loaded: per output channel, the largest
//! magnitude to ±127. Activations are quantized as each conv reads them: they follow a
//! ReLU, so each position's largest value maps to 255 and zero to zero. The int32 sums
//! are scaled back to f32 in the output's epilogue (bias, ReLU, residual add), so the
//! trunk between convs, the residual stream and the heads stay f32.
//!
//! Where the CPU has AMX with int8 (Intel since Sapphire Rapids), the same products run on
//! tiles: `tdpbusd` sums 16 rows × 16 output channels × 64 input bytes an instruction. A
//! tile's rows are 16 cells side by side in the padded board, so each kernel row's three
//! taps are one run of bytes a row (`3 × input`, in tiles of 64); the padding columns'
//! rows are computed and thrown away. The integer sums are those of VNNI, to the bit.

use super::winograd::{Epilogue, FoldedConv, Geometry};

/// Whether int8 products run here: the CPU has AVX-512 with VNNI (and BW, for the bytes).
pub fn has_vnni() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512bw")
            && std::arch::is_x86_feature_detected!("avx512vnni")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether int8 products run on AMX tiles here (Intel since Sapphire Rapids): the CPU has
/// VNNI (which quantizes and ends the sums) and AMX-INT8, granted to this process.
pub fn has_amx_int8() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        // CPUID leaf 7: EDX bit 25 AMX-INT8.
        has_vnni() && super::amx::has_tiles_with(1 << 25)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether a conv of `input` to `output` channels runs in int8: input channels in fours
/// (one `vpdpbusd` lane), output channels in sixteens (one register).
pub(crate) fn fits(input: usize, output: usize) -> bool {
    input.is_multiple_of(4) && output.is_multiple_of(16)
}

/// The 3×3 taps: `(row, column)` offsets into the padded board.
const TAPS: usize = 9;

/// A 3×3 convolution with its weights in int8.
#[derive(Clone, Debug)]
pub(crate) struct Int8Conv {
    /// Input channels.
    pub input: usize,
    /// Output channels.
    pub output: usize,
    /// `[tap, input / 4, output, 4]`: for each tap and four input channels, each output
    /// channel's four weights side by side, as `vpdpbusd` reads them.
    weight: Vec<i8>,
    /// Each output channel's weight step (its f32 weight over its int8 one).
    step: Vec<f32>,
    /// One per output channel.
    bias: Vec<f32>,
    /// `[input, output]`: the weights' rounding errors summed over the taps. An input
    /// channel's mean times its row is the mean error the rounding adds to each output
    /// channel, which the bias takes back.
    rounding: Vec<f32>,
    /// The weights as AMX tiles ([`tile_weights`]), where the CPU has them
    /// ([`has_amx_int8`]) and the output channels come in 32s.
    tiles: Option<Vec<TileRow>>,
}

/// Rows of an AMX tile.
const TILE: usize = 16;

/// A row of an AMX weight tile, on a cache line of its own (a row across two lines loads
/// twice as slowly).
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
struct TileRow([i8; 64]);

/// Groups of four input bytes in a kernel row (its three taps), and tiles of 16 groups
/// that hold them.
fn row_groups(input: usize) -> (usize, usize) {
    let groups = 3 * input / 4;
    (groups, groups.div_ceil(16))
}

/// Bytes a tile kernel may read past the last padded board (rows of the padding columns
/// and of a last half-filled pair of row tiles, and a kernel row's last tile of bytes).
fn tile_slack(input: usize) -> usize {
    32 * input + row_groups(input).1 * 64
}

/// `weight` (packed as [`Int8Conv`] keeps it) as AMX tiles `[ky, tile of groups, output /
/// 16]`, each 16 groups of four input bytes × 16 output channels × their four weights;
/// groups past the kernel row's end are zero.
fn tile_weights(weight: &[i8], input: usize, output: usize) -> Vec<TileRow> {
    let (groups, chunks) = row_groups(input);
    let blocks = output / 16;
    let mut tiles = vec![TileRow([0; 64]); 3 * chunks * blocks * TILE];
    for ky in 0..3 {
        for chunk in 0..chunks {
            for block in 0..blocks {
                let tile = &mut tiles[((ky * chunks + chunk) * blocks + block) * TILE..][..TILE];
                for (row, group) in (chunk * 16..groups.min(chunk * 16 + 16)).enumerate() {
                    let from = ((ky * groups + group) * output + block * 16) * 4;
                    tile[row].0.copy_from_slice(&weight[from..from + 64]);
                }
            }
        }
    }
    tiles
}

/// The scratch of an int8 convolution.
#[derive(Debug, Default)]
pub(crate) struct Int8Scratch {
    /// The quantized, zero-padded input boards.
    quantized: Vec<u8>,
    /// Each position's step.
    steps: Vec<f32>,
    /// Each position's biases, the rounding's mean error taken back.
    biases: Vec<f32>,
    /// A position's input channel sums.
    sums: Vec<f32>,
    /// A position's input channel maxima.
    maxima: Vec<f32>,
}

impl Int8Conv {
    /// Quantizes `conv` (3×3, rows `[(ky·3 + kx)·input + i]`, columns the output channels).
    pub(crate) fn new(conv: &FoldedConv) -> Int8Conv {
        let (input, output) = (conv.input, conv.output);
        assert!(fits(input, output) && conv.weight.len() == TAPS * input * output, "int8 conv {input} → {output}");
        let at = |r: usize, o: usize| conv.weight[r * output + o];
        let step: Vec<f32> = (0..output)
            .map(|o| {
                let largest = (0..TAPS * input).map(|r| at(r, o).abs()).fold(0.0, f32::max);
                if largest > 0.0 {
                    largest / 127.0
                } else {
                    1.0
                }
            })
            .collect();
        let mut weight = vec![0; TAPS * input * output];
        let mut rounding = vec![0.0; input * output];
        for r in 0..TAPS * input {
            let (tap, i) = (r / input, r % input);
            for (o, step) in step.iter().enumerate() {
                let q = (at(r, o) / step).round().clamp(-127.0, 127.0);
                weight[((tap * (input / 4) + i / 4) * output + o) * 4 + i % 4] = q as i8;
                rounding[i * output + o] += at(r, o) - q * step;
            }
        }
        let tiles = (has_amx_int8() && output.is_multiple_of(32)).then(|| tile_weights(&weight, input, output));
        Int8Conv { input, output, weight, step, bias: conv.bias.clone(), rounding, tiles }
    }

    /// Convolves `positions` boards of channels-last `input` (every value 0 or more: it
    /// follows a ReLU) and ends with `epilogue`.
    pub(crate) fn forward(
        &self,
        geometry: Geometry,
        positions: usize,
        input: &[f32],
        scratch: &mut Int8Scratch,
        epilogue: Epilogue,
    ) {
        assert!(has_vnni(), "int8 convolutions need AVX512-VNNI");
        let cells = geometry.height * geometry.width;
        assert_eq!(input.len(), positions * cells * self.input, "int8 conv input of {positions} positions");
        let (out, mode) = match epilogue {
            Epilogue::Relu(out) => (out, Mode::Relu),
            Epilogue::ResidualRelu(out) => (out, Mode::ResidualRelu),
            Epilogue::Linear(out) => (out, Mode::Linear),
        };
        assert_eq!(out.len(), positions * cells * self.output, "int8 conv output of {positions} positions");
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the CPU has AVX-512 with BW and VNNI (asserted); the buffers' sizes were
        // asserted above, and `convolve` reads and writes within them.
        unsafe {
            vnni::convolve(self, geometry, input, scratch, out, mode)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (scratch, out, mode);
            unreachable!("int8 convolutions run on x86-64 only")
        }
    }
}

/// How the sums end.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Relu,
    ResidualRelu,
    Linear,
}

/// The rows (cells of every position) a convolution writes, each position's step and
/// its biases.
#[derive(Clone, Copy)]
struct Rows<'a> {
    geometry: Geometry,
    steps: &'a [f32],
    biases: &'a [f32],
}

#[cfg(target_arch = "x86_64")]
mod vnni {
    use std::arch::x86_64::*;

    use super::{tile_slack, Int8Conv, Int8Scratch, Mode, Rows, TAPS};
    use crate::nn::cpu::kernels::multiversion;
    use crate::nn::cpu::winograd::Geometry;

    /// Output rows (cells) a register block holds: with 64 output channels, 6 rows of 4
    /// registers; with 32, 12 of 2; with 16, 24 of 1 — 24 sums in registers, 4 or fewer
    /// for the weights.
    const SUMS: usize = 24;

    /// Each channel's sum and largest value (0 when none is above it) over the cells of
    /// channels-last `board` (`channels` a cell), sixteen channels at a time down the
    /// cells, into `sums` and `maxima`.
    #[target_feature(enable = "avx512f")]
    unsafe fn channel_sums_and_maxima(board: &[f32], channels: usize, sums: &mut Vec<f32>, maxima: &mut Vec<f32>) {
        sums.resize(channels, 0.0);
        maxima.resize(channels, 0.0);
        for start in (0..channels).step_by(16) {
            let mask: __mmask16 = if channels - start >= 16 { !0 } else { (1 << (channels - start)) - 1 };
            let (mut sum, mut max) = (_mm512_setzero_ps(), _mm512_setzero_ps());
            for cell in board.chunks_exact(channels) {
                let lanes = _mm512_maskz_loadu_ps(mask, cell.as_ptr().add(start));
                sum = _mm512_add_ps(sum, lanes);
                max = _mm512_max_ps(max, lanes);
            }
            _mm512_mask_storeu_ps(sums.as_mut_ptr().add(start), mask, sum);
            _mm512_mask_storeu_ps(maxima.as_mut_ptr().add(start), mask, max);
        }
    }

    multiversion! {
    /// `bias[o] += scale · Σ_i sums[i] · rounding[i][o]`: the mean error the weights' rounding
    /// adds to each output channel, taken back (`rounding` is `[input, output]`).
    fn take_back_rounding(sums: &[f32], scale: f32, rounding: &[f32], bias: &mut [f32]) {
        for (sum, row) in sums.iter().zip(rounding.chunks_exact(bias.len())) {
            let mean = sum * scale;
            bias.iter_mut().zip(row).for_each(|(b, r)| *b += mean * r);
        }
    }
    }

    /// The whole convolution: each position's input quantized (its largest value to 255)
    /// and its biases corrected for the weights' rounding, then every output row in
    /// blocks of rows × output channels, on AMX tiles where the conv has them.
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
    pub(super) unsafe fn convolve(
        conv: &Int8Conv,
        geometry: Geometry,
        input: &[f32],
        scratch: &mut Int8Scratch,
        out: &mut [f32],
        mode: Mode,
    ) {
        let (cin, cout) = (conv.input, conv.output);
        let cells = geometry.height * geometry.width;
        let padded = (geometry.height + 2) * (geometry.width + 2);
        let positions = input.len() / (cells * cin);
        let Int8Scratch { quantized, steps, biases, sums, maxima } = scratch;
        // Every byte of the boards is written below (their borders as zeros), so the buffer
        // is only grown, never cleared; the tiles' slack past them is read and thrown away.
        let (boards, with_slack) = (positions * padded * cin, positions * padded * cin + tile_slack(cin));
        if quantized.len() < with_slack {
            quantized.resize(with_slack, 0);
        }
        steps.clear();
        biases.clear();
        biases.resize(positions * cout, 0.0);
        for ((board, padded_board), bias) in input
            .chunks_exact(cells * cin)
            .zip(quantized[..boards].chunks_exact_mut(padded * cin))
            .zip(biases.chunks_exact_mut(cout))
        {
            channel_sums_and_maxima(board, cin, sums, maxima);
            // The position's step: its largest input maps to 255.
            let largest = maxima.iter().fold(0.0, |m, &v| if v > m { v } else { m });
            let step = if largest > 0.0 { largest / 255.0 } else { 1.0 };
            steps.push(step);
            quantize_board(geometry, cin, board, 1.0 / step, padded_board);
            bias.copy_from_slice(&conv.bias);
            take_back_rounding(sums, 1.0 / cells as f32, &conv.rounding, bias);
        }
        let rows = Rows { geometry, steps, biases };
        if let Some(weights) = &conv.tiles {
            return super::amx::convolve(conv, weights, rows, &quantized[..with_slack], out, mode);
        }
        let quantized = &quantized[..boards];
        if cout.is_multiple_of(64) {
            convolve_in::<4, { SUMS / 4 }>(conv, rows, quantized, out, mode)
        } else if cout.is_multiple_of(32) {
            convolve_in::<2, { SUMS / 2 }>(conv, rows, quantized, out, mode)
        } else {
            convolve_in::<1, SUMS>(conv, rows, quantized, out, mode)
        }
    }

    /// [`convolve`] with `NB` registers of output channels and `R` rows a block.
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
    unsafe fn convolve_in<const NB: usize, const R: usize>(
        conv: &Int8Conv,
        rows: Rows,
        quantized: &[u8],
        out: &mut [f32],
        mode: Mode,
    ) {
        let (height, width) = (rows.geometry.height, rows.geometry.width);
        let (cells, padded) = (height * width, (height + 2) * (width + 2));
        let (cin, cout) = (conv.input, conv.output);
        let total = rows.steps.len() * cells;
        // Each tap's offset from a cell's top-left neighbour in the padded board, in bytes.
        let taps: [usize; TAPS] = std::array::from_fn(|tap| ((tap / 3) * (width + 2) + tap % 3) * cin);
        let mut row = 0;
        while row < total {
            let count = R.min(total - row);
            // Each row's top-left neighbour in the padded boards (a short block repeats its
            // last row), and its position's step.
            let mut bases = [0usize; R];
            let mut positions = [0usize; R];
            for (r, (base, at_position)) in bases.iter_mut().zip(&mut positions).enumerate() {
                let at = row + r.min(count - 1);
                let (position, cell) = (at / cells, at % cells);
                *base = (position * padded + (cell / width) * (width + 2) + cell % width) * cin;
                *at_position = position;
            }
            for block in (0..cout).step_by(16 * NB) {
                let sums = block_sums::<NB, R>(quantized, &bases, &taps, cin, &conv.weight[block * 4..], cout);
                for (r, sums) in sums.iter().enumerate().take(count) {
                    let out = &mut out[(row + r) * cout + block..][..16 * NB];
                    let p = positions[r];
                    finish::<NB>(sums, rows.steps[p], &conv.step[block..], &rows.biases[p * cout + block..], out, mode);
                }
            }
            row += count;
        }
    }

    /// The int32 sums of `R` rows by `NB × 16` output channels: over the nine taps and the
    /// input channels in fours, each row's four input bytes broadcast against the four
    /// weights of each output channel. `weight` starts at the block's first channel.
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
    #[inline]
    unsafe fn block_sums<const NB: usize, const R: usize>(
        quantized: &[u8],
        bases: &[usize; R],
        taps: &[usize; TAPS],
        cin: usize,
        weight: &[i8],
        cout: usize,
    ) -> [[__m512i; NB]; R] {
        let mut sums = [[_mm512_setzero_si512(); NB]; R];
        let input = quantized.as_ptr();
        let weight = weight.as_ptr();
        for (tap, &offset) in taps.iter().enumerate() {
            for quad in 0..cin / 4 {
                let w = weight.add((tap * (cin / 4) + quad) * cout * 4);
                let weights: [__m512i; NB] = std::array::from_fn(|b| _mm512_loadu_si512(w.add(64 * b).cast()));
                let at = offset + quad * 4;
                for r in 0..R {
                    let bytes = _mm512_set1_epi32(input.add(bases[r] + at).cast::<i32>().read_unaligned());
                    for b in 0..NB {
                        sums[r][b] = _mm512_dpbusd_epi32(sums[r][b], bytes, weights[b]);
                    }
                }
            }
        }
        sums
    }

    /// One board of channels-last `board` quantized (times `scale`, rounded to the
    /// nearest) into the middle of its zero-padded copy `padded` (`(height + 2) × (width +
    /// 2)` cells), the border written as zeros.
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
    unsafe fn quantize_board(geometry: Geometry, channels: usize, board: &[f32], scale: f32, padded: &mut [u8]) {
        let Geometry { height, width, .. } = geometry;
        let (row, padded_row) = (width * channels, (width + 2) * channels);
        padded[..padded_row].fill(0);
        padded[(height + 1) * padded_row..].fill(0);
        for y in 1..=height {
            padded[y * padded_row..][..channels].fill(0);
            padded[(y + 1) * padded_row - channels..][..channels].fill(0);
        }
        for y in 0..height {
            let from = &board[y * row..(y + 1) * row];
            quantize(from, scale, &mut padded[((y + 1) * (width + 2) + 1) * channels..][..row]);
        }
    }

    /// `to[i] = round(from[i] · scale)` saturated to 0–255 (the inputs are 0 or more,
    /// and at most the value that maps to 255), sixteen at a time.
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
    unsafe fn quantize(from: &[f32], scale: f32, to: &mut [u8]) {
        assert_eq!(from.len(), to.len());
        let (scale, zero) = (_mm512_set1_ps(scale), _mm512_setzero_si512());
        for start in (0..from.len()).step_by(16) {
            let mask: __mmask16 = if from.len() - start >= 16 { !0 } else { (1 << (from.len() - start)) - 1 };
            let v = _mm512_maskz_loadu_ps(mask, from.as_ptr().add(start));
            // Rounded to the nearest (the default rounding mode), then saturated.
            let q = _mm512_max_epi32(_mm512_cvtps_epi32(_mm512_mul_ps(v, scale)), zero);
            _mm512_mask_cvtusepi32_storeu_epi8(to.as_mut_ptr().add(start).cast(), mask, q);
        }
    }

    /// One row's sums to f32 (times its input step and each channel's weight step), plus
    /// the bias, ended by `mode` into `out`.
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
    #[inline]
    pub(super) unsafe fn finish<const NB: usize>(
        sums: &[__m512i; NB],
        input_step: f32,
        step: &[f32],
        bias: &[f32],
        out: &mut [f32],
        mode: Mode,
    ) {
        let input_step = _mm512_set1_ps(input_step);
        for (b, &sum) in sums.iter().enumerate() {
            let scale = _mm512_mul_ps(input_step, _mm512_loadu_ps(step.as_ptr().add(16 * b)));
            let mut v = _mm512_fmadd_ps(_mm512_cvtepi32_ps(sum), scale, _mm512_loadu_ps(bias.as_ptr().add(16 * b)));
            let at = out.as_mut_ptr().add(16 * b);
            if mode == Mode::ResidualRelu {
                v = _mm512_add_ps(v, _mm512_loadu_ps(at));
            }
            if mode != Mode::Linear {
                v = _mm512_max_ps(v, _mm512_setzero_ps());
            }
            _mm512_storeu_ps(at, v);
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod amx {
    use std::arch::asm;
    use std::arch::x86_64::*;

    use super::{row_groups, tile_slack, Int8Conv, Mode, Rows, TileRow, TILE};
    use crate::nn::cpu::amx::{configure, store_sums};

    /// Every output row of the quantized boards (`quantized`, with [`tile_slack`] bytes
    /// past them) on AMX tiles: 32 rows of the padded board's columns × 32 output channels
    /// a block, in tiles 0–3, four `tdpbusd` for every four tile loads; the rows of the
    /// padding columns are thrown away, the others end as VNNI's do.
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
    pub(super) unsafe fn convolve(
        conv: &Int8Conv,
        weights: &[TileRow],
        rows: Rows,
        quantized: &[u8],
        out: &mut [f32],
        mode: Mode,
    ) {
        configure();
        let (height, width) = (rows.geometry.height, rows.geometry.width);
        let (cin, cout) = (conv.input, conv.output);
        let (wide, cells) = (width + 2, height * width);
        let padded = (height + 2) * wide;
        // Output rows of a board as the tiles count them: every column of the padded board.
        let wide_rows = height * wide;
        let (chunks, blocks) = (row_groups(cin).1, cout / 16);
        assert!(quantized.len() >= rows.steps.len() * padded * cin + tile_slack(cin));
        assert_eq!(weights.len(), 3 * chunks * blocks * TILE);
        let mut sums = [0i32; 32 * 32];
        for (position, &input_step) in rows.steps.iter().enumerate() {
            let board = quantized.as_ptr().add(position * padded * cin);
            for first in (0..wide_rows).step_by(32) {
                for block in (0..blocks).step_by(2) {
                    asm!("tilezero tmm0", "tilezero tmm1", "tilezero tmm2", "tilezero tmm3", options(nostack, nomem));
                    for ky in 0..3 {
                        for chunk in 0..chunks {
                            let a = board.add((first + ky * wide) * cin + chunk * 64);
                            let b = weights.as_ptr().add(((ky * chunks + chunk) * blocks + block) * TILE).cast::<i8>();
                            asm!(
                                "tileloadd tmm4, [{a} + {a_stride}*1]",
                                "tileloadd tmm5, [{a2} + {a_stride}*1]",
                                "tileloadd tmm6, [{b} + {b_stride}*1]",
                                "tileloadd tmm7, [{b} + {b_stride}*1 + 1024]",
                                "tdpbusd tmm0, tmm4, tmm6",
                                "tdpbusd tmm1, tmm4, tmm7",
                                "tdpbusd tmm2, tmm5, tmm6",
                                "tdpbusd tmm3, tmm5, tmm7",
                                a = in(reg) a,
                                a2 = in(reg) a.add(16 * cin),
                                a_stride = in(reg) cin,
                                b = in(reg) b,
                                b_stride = in(reg) 64usize,
                                options(nostack, readonly),
                            );
                        }
                    }
                    // Tiles 0 and 1 side by side above tiles 2 and 3: 32 rows of 32 sums.
                    store_sums(sums.as_mut_ptr().cast(), 128, true);
                    for (r, row) in sums.chunks_exact(32).enumerate().take(wide_rows - first) {
                        let (y, x) = ((first + r) / wide, (first + r) % wide);
                        if x >= width {
                            continue;
                        }
                        let channel = block * 16;
                        let row =
                            [_mm512_loadu_si512(row.as_ptr().cast()), _mm512_loadu_si512(row.as_ptr().add(16).cast())];
                        let at = (position * cells + y * width + x) * cout + channel;
                        super::vnni::finish::<2>(
                            &row,
                            input_step,
                            &conv.step[channel..],
                            &rows.biases[position * cout + channel..],
                            &mut out[at..at + 32],
                            mode,
                        );
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::cpu::precision::Precision;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// On AMX tiles and with VNNI alone, an int8 conv gives the same outputs to the bit:
    /// the same integer sums, ended alike.
    #[test]
    fn tiles_and_vnni_give_the_same_outputs() {
        if !has_amx_int8() {
            eprintln!("skipped: this CPU has no AMX-INT8");
            return;
        }
        let mut rng = StdRng::seed_from_u64(3);
        let geometry = Geometry::new(10, 9, Precision::Int8);
        for (input, output) in [(32, 32), (64, 64), (12, 32), (128, 96)] {
            let conv = FoldedConv {
                input,
                output,
                weight: (0..9 * input * output).map(|_| rng.random_range(-1.0..1.0)).collect(),
                bias: (0..output).map(|_| rng.random_range(-1.0..1.0)).collect(),
            };
            let on_tiles = Int8Conv::new(&conv);
            let vnni_alone = Int8Conv { tiles: None, ..on_tiles.clone() };
            for positions in [1, 4] {
                // Inputs after a ReLU: about half zero.
                let x: Vec<f32> = (0..positions * 90 * input)
                    .map(|_| if rng.random::<bool>() { 0.0 } else { rng.random_range(0.0..3.0) })
                    .collect();
                let residual: Vec<f32> = (0..positions * 90 * output).map(|_| rng.random_range(-1.0..1.0)).collect();
                let [mut vnni, mut tiles] = [residual.clone(), residual.clone()];
                let mut scratch = Int8Scratch::default();
                for (out, int8) in [(&mut vnni, &vnni_alone), (&mut tiles, &on_tiles)] {
                    int8.forward(geometry, positions, &x, &mut scratch, Epilogue::ResidualRelu(out));
                }
                assert_eq!(vnni, tiles, "{input} → {output}, {positions} positions");
                assert!(vnni != residual && vnni.iter().any(|&v| v > 0.0));
            }
        }
    }
}

//! 3×3 convolutions (padding 1) by Winograd's F(2×2, 3×3): each 2×2 block of outputs
//! comes from a 4×4 block of inputs with 16 multiplications per channel pair instead of
//! 36, so the convolution becomes 16 independent matrix products of half the work of
//! im2col's one. Input and output transforms run channels-last, the output transform
//! fused with bias, ReLU and the residual add. Our forward pass runs on it, and so does
//! training ([`crate::nn::conv3x3`]): its convolution and gradient to the input with
//! [`Winograd::forward`], its gradient to the weight through the transforms' backward
//! ([`add_transformed_gradient`], [`kernel_gradient`]).

#[cfg(target_arch = "x86_64")]
use super::kernels::has_avx512;
use super::kernels::{multiversion, product, Product};
use super::weights::FoldedConv;

use rayon::prelude::*;

/// Points of a 4×4 transformed tile.
const POINTS: usize = 16;
/// The kernel transform's matrix: `U = G g Gᵀ`.
const G: [[f32; 3]; 4] = [[1.0, 0.0, 0.0], [0.5, 0.5, 0.5], [0.5, -0.5, 0.5], [0.0, 0.0, 1.0]];
/// Floats in an AVX-512 register: the width of `products`' column blocks.
#[cfg(target_arch = "x86_64")]
const LANES: usize = 16;

/// A 3×3 convolution with its weights transformed (`U = G g Gᵀ`).
#[derive(Clone, Debug)]
pub(crate) struct Winograd {
    /// Input channels.
    pub input: usize,
    /// Output channels.
    pub output: usize,
    /// `[point, input channel, output channel]`.
    u: Vec<f32>,
    /// One per output channel.
    pub bias: Vec<f32>,
}

/// The board's size and the tiles covering it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Geometry {
    /// Rows of the board.
    pub height: usize,
    /// Columns of the board.
    pub width: usize,
}

impl Geometry {
    /// 2×2 output tiles per board.
    fn tiles(&self) -> (usize, usize) {
        (self.height.div_ceil(2), self.width.div_ceil(2))
    }

    /// The first `positions` boards of channels-last `data` (`channels` a cell), numbered.
    fn boards(self, positions: usize, channels: usize, data: &[f32]) -> impl Iterator<Item = (usize, &[f32])> {
        data.chunks_exact(self.height * self.width * channels).take(positions).enumerate()
    }

    /// 2×2 output tiles of `positions` boards.
    fn tile_count(&self, positions: usize) -> usize {
        let (ty, tx) = self.tiles();
        positions * ty * tx
    }
}

/// Scratch buffers of the transformed inputs and of the products (or, for the weight
/// gradient, of the transformed output gradients).
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    v: Vec<f32>,
    m: Vec<f32>,
}

/// How an output transform ends.
pub(crate) enum Epilogue<'a> {
    /// `out = relu(conv + bias)`.
    Relu(&'a mut [f32]),
    /// `out = relu(conv + bias + out)`: the end of a residual block.
    ResidualRelu(&'a mut [f32]),
    /// `out = conv + bias`: the convolution alone (training's, whose bias is zero).
    Linear(&'a mut [f32]),
}

impl Winograd {
    /// Transforms the weights of `conv` (3×3, rows `[(ky·3 + kx)·input + i]`).
    pub(crate) fn new(conv: &FoldedConv) -> Winograd {
        let (input, output) = (conv.input, conv.output);
        let u = transform_kernel(input, output, |i, o, ky, kx| conv.weight[((ky * 3 + kx) * input + i) * output + o]);
        Winograd { input, output, u, bias: conv.bias.clone() }
    }

    /// Transforms burn's conv weights (`[output, input, 3, 3]`), with no bias.
    pub(crate) fn of_kernel(input: usize, output: usize, weight: &[f32]) -> Winograd {
        let u = transform_kernel(input, output, |i, o, ky, kx| weight[((o * input + i) * 3 + ky) * 3 + kx]);
        Winograd { input, output, u, bias: vec![0.0; output] }
    }

    /// Convolves `positions` boards of channels-last `input` and ends with `epilogue`.
    pub(crate) fn forward(
        &self,
        geometry: Geometry,
        positions: usize,
        input: &[f32],
        scratch: &mut Scratch,
        epilogue: Epilogue,
    ) {
        let tiles = geometry.tile_count(positions);
        let (cin, cout) = (self.input, self.output);
        let v = super::sized(&mut scratch.v, POINTS * tiles * cin);
        transform_input(geometry, positions, cin, input, v);
        let m = super::sized(&mut scratch.m, POINTS * tiles * cout);
        let shape = Product { m: tiles, k: cin, n: cout, a_transposed: false, accumulate: false };
        for (point, m) in m.chunks_mut(tiles * cout).enumerate() {
            let v = &v[point * tiles * cin..(point + 1) * tiles * cin];
            points_product(shape, v, &self.u[point * cin * cout..(point + 1) * cin * cout], m);
        }
        transform_output(geometry, positions, cout, m, &self.bias, epilogue);
    }
}

/// Adds to `du` (`[point, input channel, output channel]`, as [`Winograd`]'s `u`) the
/// loss's gradient to the transformed kernel over `positions` boards of channels-last
/// `input` (`channels[0]` each) and the output's gradient `grad` (`channels[1]` each):
/// per point, `Vᵀ · (A dY Aᵀ)` over the tiles. The forward is linear in `U`, so this is
/// its exact backward, and [`kernel_gradient`] takes it to the 3×3 kernels.
pub(crate) fn add_transformed_gradient(
    geometry: Geometry,
    positions: usize,
    channels: [usize; 2],
    input: &[f32],
    grad: &[f32],
    scratch: &mut Scratch,
    du: &mut [f32],
) {
    let tiles = geometry.tile_count(positions);
    let [cin, cout] = channels;
    let v = super::sized(&mut scratch.v, POINTS * tiles * cin);
    transform_input(geometry, positions, cin, input, v);
    let m = super::sized(&mut scratch.m, POINTS * tiles * cout);
    transform_gradient(geometry, positions, cout, grad, m);
    let shape = Product { m: cin, k: tiles, n: cout, a_transposed: true, accumulate: true };
    for (point, du) in du.chunks_mut(cin * cout).enumerate() {
        let (v, m) =
            (&v[point * tiles * cin..(point + 1) * tiles * cin], &m[point * tiles * cout..(point + 1) * tiles * cout]);
        points_product(shape, v, m, du);
    }
}

/// The gradient to burn's conv weights (`[output, input, 3, 3]`) from `du`, that to the
/// transformed ones (`[point, input, output]`): `Gᵀ dU G`, the kernel transform's backward,
/// in two steps of 3 × 4 (`Gᵀ dU`, then `· G`), the output channels split among rayon's
/// threads.
pub(crate) fn kernel_gradient(input: usize, output: usize, du: &[f32]) -> Vec<f32> {
    let mut weight = vec![0.0; output * input * 9];
    if weight.is_empty() {
        return weight;
    }
    weight.par_chunks_mut(input * 9).enumerate().for_each(|(o, kernels)| {
        for (i, kernel) in kernels.chunks_exact_mut(9).enumerate() {
            let du = |xi: usize, nu: usize| du[((xi * 4 + nu) * input + i) * output + o];
            // Gᵀ dU: 3 × 4.
            let left: [[f32; 4]; 3] =
                std::array::from_fn(|ky| std::array::from_fn(|nu| (0..4).map(|xi| G[xi][ky] * du(xi, nu)).sum()));
            for (ky, row) in left.iter().enumerate() {
                for kx in 0..3 {
                    kernel[ky * 3 + kx] = (0..4).map(|nu| row[nu] * G[nu][kx]).sum();
                }
            }
        }
    });
    weight
}

/// `out (+)= a · b` for one point's product (`shape`, `b` and `out` row-major): our
/// register-blocked kernel where it applies, `gemm` otherwise.
fn points_product(shape: Product, a: &[f32], b: &[f32], out: &mut [f32]) {
    // Our kernel is for AVX-512 only; gemm picks its own code for the CPU.
    #[cfg(target_arch = "x86_64")]
    if shape.n % LANES == 0 && has_avx512() {
        products(shape, a, b, out);
        return;
    }
    product(shape, a, b, out);
}

/// `U = G g Gᵀ` for every channel pair's 3×3 kernel `g`, read through `weight(input,
/// output, ky, kx)`, laid out as `[point, input channel, output channel]`: in two steps
/// (`G g`, 4 × 3, then `· Gᵀ`), the input channels split among rayon's threads.
fn transform_kernel(
    input: usize,
    output: usize,
    weight: impl Fn(usize, usize, usize, usize) -> f32 + Sync,
) -> Vec<f32> {
    let mut u = vec![0.0; POINTS * input * output];
    if u.is_empty() {
        return u;
    }
    // Per input channel its points (`[point, output channel]`), then into place.
    let per_input: Vec<Vec<f32>> = (0..input)
        .into_par_iter()
        .map(|i| {
            let mut points = vec![0.0; POINTS * output];
            for o in 0..output {
                let left: [[f32; 3]; 4] = std::array::from_fn(|xi| {
                    std::array::from_fn(|kx| (0..3).map(|ky| G[xi][ky] * weight(i, o, ky, kx)).sum())
                });
                for (xi, row) in left.iter().enumerate() {
                    for nu in 0..4 {
                        points[(xi * 4 + nu) * output + o] = (0..3).map(|kx| row[kx] * G[nu][kx]).sum();
                    }
                }
            }
            points
        })
        .collect();
    for (i, points) in per_input.iter().enumerate() {
        for (point, values) in points.chunks_exact(output).enumerate() {
            u[(point * input + i) * output..(point * input + i + 1) * output].copy_from_slice(values);
        }
    }
    u
}

/// A tile's window on one board of channels-last values.
struct Window<'a> {
    geometry: Geometry,
    channels: usize,
    board: &'a [f32],
    zeros: &'a [f32],
    /// The board's row and column at the window's corner (negative off the board).
    corner: (isize, isize),
}

impl<'a> Window<'a> {
    /// The window of the tile at (`y`, `x`) of the tile grid on `board` (`zeros` as long
    /// as a cell), its corner `margin` cells up and left of the tile's first output.
    #[inline(always)]
    fn of_tile(
        geometry: Geometry,
        board: &'a [f32],
        zeros: &'a [f32],
        (y, x): (usize, usize),
        margin: isize,
    ) -> Window<'a> {
        let corner = (2 * y as isize - margin, 2 * x as isize - margin);
        Window { geometry, channels: zeros.len(), board, zeros, corner }
    }

    /// The values of the cell `i` rows down and `j` columns right of the corner (zeros
    /// off the board).
    #[inline(always)]
    fn at(&self, i: usize, j: usize) -> &'a [f32] {
        let (r, c) = (self.corner.0 + i as isize, self.corner.1 + j as isize);
        let Geometry { height, width } = self.geometry;
        if r < 0 || c < 0 || r as usize >= height || c as usize >= width {
            self.zeros
        } else {
            let at = (r as usize * width + c as usize) * self.channels;
            &self.board[at..at + self.channels]
        }
    }
}

multiversion! {
/// `V = Bᵀ d B` for every 4×4 input tile `d` (zero off the board), written as
/// `[point, tile, channel]`; every step runs along the channels.
fn transform_input(geometry: Geometry, positions: usize, channels: usize, input: &[f32], v: &mut [f32]) {
    let (tiles, (ty, tx)) = (geometry.tile_count(positions), geometry.tiles());
    let mut t = vec![0.0f32; POINTS * channels];
    let zeros = vec![0.0; channels];
    for (p, board) in geometry.boards(positions, channels, input) {
        for y in 0..ty {
            for x in 0..tx {
                let (tile, d) = ((p * ty + y) * tx + x, Window::of_tile(geometry, board, &zeros, (y, x), 1));
                // Bᵀ d, row by row of the result.
                for j in 0..4 {
                    let (d0, d1, d2, d3) = (d.at(0, j), d.at(1, j), d.at(2, j), d.at(3, j));
                    let t0 = &mut t[j * channels..(j + 1) * channels];
                    for c in 0..channels {
                        t0[c] = d0[c] - d2[c];
                    }
                    let t1 = &mut t[(4 + j) * channels..(5 + j) * channels];
                    for c in 0..channels {
                        t1[c] = d1[c] + d2[c];
                    }
                    let t2 = &mut t[(8 + j) * channels..(9 + j) * channels];
                    for c in 0..channels {
                        t2[c] = d2[c] - d1[c];
                    }
                    let t3 = &mut t[(12 + j) * channels..(13 + j) * channels];
                    for c in 0..channels {
                        t3[c] = d1[c] - d3[c];
                    }
                }
                // (Bᵀ d) B, into the four points of each row.
                for i in 0..4 {
                    let row = |j: usize| &t[(i * 4 + j) * channels..(i * 4 + j + 1) * channels];
                    let (r0, r1, r2, r3) = (row(0), row(1), row(2), row(3));
                    let at = |j: usize| ((i * 4 + j) * tiles + tile) * channels;
                    let out = &mut v[at(0)..at(0) + channels];
                    for c in 0..channels {
                        out[c] = r0[c] - r2[c];
                    }
                    let out = &mut v[at(1)..at(1) + channels];
                    for c in 0..channels {
                        out[c] = r1[c] + r2[c];
                    }
                    let out = &mut v[at(2)..at(2) + channels];
                    for c in 0..channels {
                        out[c] = r2[c] - r1[c];
                    }
                    let out = &mut v[at(3)..at(3) + channels];
                    for c in 0..channels {
                        out[c] = r1[c] - r3[c];
                    }
                }
            }
        }
    }
}
}

multiversion! {
/// `A dY Aᵀ` for every 2×2 tile `dY` of the output's gradient `grad` (channels-last, zero
/// off the board), written as `[point, tile, channel]`: the output transform's backward.
fn transform_gradient(geometry: Geometry, positions: usize, channels: usize, grad: &[f32], m: &mut [f32]) {
    let (tiles, (ty, tx)) = (geometry.tile_count(positions), geometry.tiles());
    let mut t = vec![0.0f32; 8 * channels];
    let zeros = vec![0.0; channels];
    for (p, board) in geometry.boards(positions, channels, grad) {
        for y in 0..ty {
            for x in 0..tx {
                let (tile, d) = ((p * ty + y) * tx + x, Window::of_tile(geometry, board, &zeros, (y, x), 0));
                // dY Aᵀ: each of the two rows to four points.
                for i in 0..2 {
                    let (d0, d1) = (d.at(i, 0), d.at(i, 1));
                    let row = &mut t[i * 4 * channels..(i + 1) * 4 * channels];
                    let (t0, rest) = row.split_at_mut(channels);
                    let (t1, rest) = rest.split_at_mut(channels);
                    let (t2, t3) = rest.split_at_mut(channels);
                    for c in 0..channels {
                        (t0[c], t1[c], t2[c], t3[c]) = (d0[c], d0[c] + d1[c], d0[c] - d1[c], -d1[c]);
                    }
                }
                // A (dY Aᵀ): the two rows to four.
                for j in 0..4 {
                    let (r0, r1) = (&t[j * channels..(j + 1) * channels], &t[(4 + j) * channels..(5 + j) * channels]);
                    let at = |i: usize| ((i * 4 + j) * tiles + tile) * channels;
                    for (i, sign) in [(0, 0.0), (1, 1.0), (2, -1.0)] {
                        let out = &mut m[at(i)..at(i) + channels];
                        for c in 0..channels {
                            out[c] = r0[c] + sign * r1[c];
                        }
                    }
                    let out = &mut m[at(3)..at(3) + channels];
                    for c in 0..channels {
                        out[c] = -r1[c];
                    }
                }
            }
        }
    }
}
}

multiversion! {
/// `Y = Aᵀ M A` for every tile of products `m` (`[point, tile, channel]`), the 2×2
/// outputs on the board written channels-last through `epilogue` with `bias`; every
/// step runs along the channels.
fn transform_output(geometry: Geometry, positions: usize, channels: usize, m: &[f32], bias: &[f32], epilogue: Epilogue) {
    let Geometry { height, width } = geometry;
    let (ty, tx) = geometry.tiles();
    let tiles = positions * ty * tx;
    let (out, residual, relu) = match epilogue {
        Epilogue::Relu(out) => (out, false, true),
        Epilogue::ResidualRelu(out) => (out, true, true),
        Epilogue::Linear(out) => (out, false, false),
    };
    let mut t = vec![0.0f32; 8 * channels];
    for p in 0..positions {
        for y in 0..ty {
            for x in 0..tx {
                let tile = (p * ty + y) * tx + x;
                let mm = |k: usize| &m[(k * tiles + tile) * channels..(k * tiles + tile + 1) * channels];
                // Aᵀ M: two rows.
                for j in 0..4 {
                    let (m0, m1, m2, m3) = (mm(j), mm(4 + j), mm(8 + j), mm(12 + j));
                    let t0 = &mut t[j * channels..(j + 1) * channels];
                    for c in 0..channels {
                        t0[c] = m0[c] + m1[c] + m2[c];
                    }
                    let t1 = &mut t[(4 + j) * channels..(5 + j) * channels];
                    for c in 0..channels {
                        t1[c] = m1[c] - m2[c] - m3[c];
                    }
                }
                // (Aᵀ M) A, bias, residual and ReLU, onto the board.
                for i in 0..2 {
                    let row = 2 * y + i;
                    if row >= height {
                        continue;
                    }
                    let r = |j: usize| &t[(i * 4 + j) * channels..(i * 4 + j + 1) * channels];
                    let (r0, r1, r2, r3) = (r(0), r(1), r(2), r(3));
                    for j in 0..2 {
                        let col = 2 * x + j;
                        if col >= width {
                            continue;
                        }
                        let at = ((p * height + row) * width + col) * channels;
                        let out = &mut out[at..at + channels];
                        // j = 0: r0 + r1 + r2; j = 1: r1 − r2 − r3.
                        let (sign, a) = if j == 0 { (1.0, r0) } else { (-1.0, r3) };
                        let values =
                            r1.iter().zip(a).zip(r2).zip(&bias[..channels]).map(|(((r1, a), r2), b)| r1 + sign * (a + r2) + b);
                        if residual {
                            for (o, v) in out.iter_mut().zip(values) {
                                *o = (v + *o).max(0.0);
                            }
                        } else if !relu {
                            out.iter_mut().zip(values).for_each(|(o, v)| *o = v);
                        } else {
                            for (o, v) in out.iter_mut().zip(values) {
                                *o = v.max(0.0);
                            }
                        }
                    }
                }
            }
        }
    }
}
}

multiversion! {
/// `out (+)= a · b` for one point's product of `shape` (`n` a multiple of `LANES`; `b`
/// and `out` row-major, `a` either way). With these sizes (a block of `b` fits in L1)
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

//! 3×3 convolutions (padding 1) by Winograd's F(2×3, 3×3) or F(3×2, 3×3) — F(2, 3) one
//! way and F(3, 3) the other, whichever covers the board with fewer tiles ([`Tiling`]):
//! each block of 2×3 (or 3×2) outputs comes from a 4×5 (5×4) block of inputs with 20
//! multiplications per channel pair instead of 54, so the convolution becomes 20
//! independent matrix products of 37% of im2col's work. A 10×9 Xiangqi board is 5 × 3
//! wide tiles exactly; Banqi's 8×4 is covered by 3 × 2 tall ones. Products in bf16 take
//! F(2×2, 3×3)'s square tiles instead (16 points), whose smaller transforms round less
//! ([`Geometry::new`]). A transform's matrices
//! (`B`, `A`, `G`) are named `_down` for the one-dimensional algorithm down a tile's
//! columns and `_along` for the one along its rows. Input and output transforms run
//! channels-last, the output transform fused with bias, ReLU and the residual add. Our forward pass runs on it, and so does
//! training ([`crate::nn::conv3x3`]): its convolution and gradient to the input with
//! [`Winograd::forward`], its gradient to the weight through the transforms' backward
//! ([`add_transformed_gradient`], [`kernel_gradient`]).

use super::bf16;
use super::kernels::{blocked_product, multiversion, Product};
use super::precision::Precision;

use rayon::prelude::*;

/// A convolution with its batch-norm folded in.
#[derive(Clone, Debug)]
pub(crate) struct FoldedConv {
    /// Input channels.
    pub input: usize,
    /// Output channels.
    pub output: usize,
    /// `[kernel × kernel × input, output]`, row-major.
    pub weight: Vec<f32>,
    /// One per output channel.
    pub bias: Vec<f32>,
}

/// F(2, 3)'s kernel transform (points 0, 1, −1, ∞).
const G_F23: [[f32; 3]; 4] = [[1.0, 0.0, 0.0], [0.5, 0.5, 0.5], [0.5, -0.5, 0.5], [0.0, 0.0, 1.0]];
/// F(3, 3)'s kernel transform (points 0, 1, −1, 2, ∞).
const G_F33: [[f32; 3]; 5] = [
    [0.5, 0.0, 0.0],
    [-0.5, -0.5, -0.5],
    [-1.0 / 6.0, 1.0 / 6.0, -1.0 / 6.0],
    [1.0 / 6.0, 1.0 / 3.0, 2.0 / 3.0],
    [0.0, 0.0, 1.0],
];

/// How a board is cut into tiles ([`Geometry::new`] chooses).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tiling {
    /// Tiles of 2 rows × 3 columns of outputs: F(2, 3) down a tile's columns, F(3, 3)
    /// along its rows.
    Wide,
    /// Tiles of 3 rows × 2 columns: F(3, 3) down the columns, F(2, 3) along the rows.
    Tall,
    /// Tiles of 2 × 2: F(2, 3) both ways (4×4 inputs, 16 points).
    Square,
}

impl Tiling {
    /// Output rows and columns of a tile.
    fn size(self) -> (usize, usize) {
        match self {
            Tiling::Wide => (2, 3),
            Tiling::Tall => (3, 2),
            Tiling::Square => (2, 2),
        }
    }

    /// Points of a transformed tile: its products per channel pair.
    pub(crate) fn points(self) -> usize {
        match self {
            Tiling::Wide | Tiling::Tall => 20,
            Tiling::Square => 16,
        }
    }

    /// The kernel transforms down a tile's columns and along its rows (`U = G_down g
    /// G_alongᵀ`), a row of three weights per point.
    fn kernel_transforms(self) -> (&'static [[f32; 3]], &'static [[f32; 3]]) {
        match self {
            Tiling::Wide => (&G_F23, &G_F33),
            Tiling::Tall => (&G_F33, &G_F23),
            Tiling::Square => (&G_F23, &G_F23),
        }
    }
}

/// A 3×3 convolution with its weights transformed for one [`Tiling`].
#[derive(Clone, Debug)]
pub(crate) struct Winograd {
    /// Input channels.
    pub input: usize,
    /// Output channels.
    pub output: usize,
    /// The boards' tiling the weights are transformed for.
    tiling: Tiling,
    /// `[point, input channel, output channel]`.
    u: Vec<f32>,
    /// `u` as bf16 pairs ([`bf16::pack_weights`]) when the products run in bf16.
    u_bf16: Option<Vec<u16>>,
    /// One per output channel.
    pub bias: Vec<f32>,
}

/// The board's size and the tiles covering it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Geometry {
    /// Rows of the board.
    pub height: usize,
    /// Columns of the board.
    pub width: usize,
    /// How the board is cut into tiles.
    tiling: Tiling,
}

impl Geometry {
    /// A board of `height × width` for convolutions whose products run in `precision`: cut
    /// into the wide or tall tiles that cover it with fewer (the wide ones where both do);
    /// into square ones where the products run in bf16: in bf16 F(2×3)'s rounding moved
    /// 1.05% of the shipped net's best moves, F(2×2)'s 0.50% (AMX emulated; the bar is 1%).
    pub(crate) fn new(height: usize, width: usize, precision: Precision) -> Geometry {
        let count = |(rows, columns): (usize, usize)| height.div_ceil(rows) * width.div_ceil(columns);
        let tiling = if precision == Precision::Bf16 && bf16::has_bf16() {
            Tiling::Square
        } else if count(Tiling::Tall.size()) < count(Tiling::Wide.size()) {
            Tiling::Tall
        } else {
            Tiling::Wide
        };
        Geometry { height, width, tiling }
    }

    /// How the board is cut into tiles.
    pub(crate) fn tiling(&self) -> Tiling {
        self.tiling
    }

    /// Output tiles per board, down and across.
    fn tiles(&self) -> (usize, usize) {
        let (rows, columns) = self.tiling().size();
        (self.height.div_ceil(rows), self.width.div_ceil(columns))
    }

    /// The first `positions` boards of channels-last `data` (`channels` a cell), numbered.
    fn boards(self, positions: usize, channels: usize, data: &[f32]) -> impl Iterator<Item = (usize, &[f32])> {
        data.chunks_exact(self.height * self.width * channels).take(positions).enumerate()
    }

    /// Output tiles of `positions` boards.
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
    /// The transformed inputs in bf16, for products in bf16 (in place of `v`); for the
    /// weights' gradient in bf16, a point's `Vᵀ`.
    v_bf16: Vec<u16>,
    /// For the weights' gradient in bf16: a point's `Vᵀ` in f32, its `A dY Aᵀ` as bf16
    /// pairs, and their product.
    columns: Vec<f32>,
    m_bf16: Vec<u16>,
    product: Vec<f32>,
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
    /// Transforms the weights of `conv` (3×3, rows `[(ky·3 + kx)·input + i]`) for boards
    /// of `geometry`.
    pub(crate) fn new(conv: &FoldedConv, geometry: Geometry) -> Winograd {
        let (input, output, tiling) = (conv.input, conv.output, geometry.tiling());
        let u = transform_kernel(input, output, tiling, |i, o, ky, kx| {
            conv.weight[((ky * 3 + kx) * input + i) * output + o]
        });
        Winograd { input, output, tiling, u, u_bf16: None, bias: conv.bias.clone() }
    }

    /// Transforms burn's conv weights (`[output, input, 3, 3]`), with no bias, for boards
    /// of `geometry`.
    pub(crate) fn of_kernel(input: usize, output: usize, weight: &[f32], geometry: Geometry) -> Winograd {
        let tiling = geometry.tiling();
        let u = transform_kernel(input, output, tiling, |i, o, ky, kx| weight[((o * input + i) * 3 + ky) * 3 + kx]);
        Winograd { input, output, tiling, u, u_bf16: None, bias: vec![0.0; output] }
    }

    /// This convolution with its products in `precision` where it can run so (bf16 needs
    /// whole tiles: input channels in 32s, output channels in 16s).
    pub(crate) fn in_precision(mut self, precision: Precision) -> Winograd {
        let bf16 = precision == Precision::Bf16 && bf16::has_bf16() && bf16::fits(self.input, self.output);
        self.u_bf16 = bf16.then(|| bf16::pack_weights(&self.u, self.tiling.points(), self.input, self.output));
        self
    }

    /// The precision its products run in.
    pub(crate) fn precision(&self) -> Precision {
        if self.u_bf16.is_some() {
            Precision::Bf16
        } else {
            Precision::F32
        }
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
        assert_eq!(geometry.tiling(), self.tiling, "a conv's weights are transformed for its boards' tiling");
        let (tiles, points) = (geometry.tile_count(positions), self.tiling.points());
        let (cin, cout) = (self.input, self.output);
        let m = super::sized(&mut scratch.m, points * tiles * cout);
        match &self.u_bf16 {
            #[cfg(target_arch = "x86_64")]
            Some(u) => {
                // Rounded to bf16 as they are transformed; rows more, which the last point's
                // products read past its rows and throw away.
                let v = &mut scratch.v_bf16;
                v.resize((points * tiles + bf16::PAST_ROWS) * cin, 0);
                transform_input_bf16(geometry, positions, cin, input, v);
                bf16::point_products(points, tiles, cin, cout, v, u, m);
            }
            _ => {
                let v = super::sized(&mut scratch.v, points * tiles * cin);
                transform_input(geometry, positions, cin, input, v);
                let shape = Product { m: tiles, k: cin, n: cout, a_transposed: false, accumulate: false };
                for (point, m) in m.chunks_mut(tiles * cout).enumerate() {
                    let v = &v[point * tiles * cin..(point + 1) * tiles * cin];
                    blocked_product(shape, v, &self.u[point * cin * cout..(point + 1) * cin * cout], m);
                }
            }
        }
        transform_output(geometry, positions, cout, m, &self.bias, epilogue);
    }
}

/// Adds to `du` (`[point, input channel, output channel]`, as [`Winograd`]'s `u`) the
/// loss's gradient to the transformed kernel over `positions` boards of channels-last
/// `input` (`channels[0]` each) and the output's gradient `grad` (`channels[1]` each):
/// per point, `Vᵀ · (A dY Aᵀ)` over the tiles. The forward is linear in `U`, so this is
/// its exact backward, and [`kernel_gradient`] takes it to the 3×3 kernels. The products
/// run in `precision` where the CPU and the output channels (16s) allow.
#[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables))]
pub(crate) fn add_transformed_gradient(
    geometry: Geometry,
    positions: usize,
    channels: [usize; 2],
    [input, grad]: [&[f32]; 2],
    scratch: &mut Scratch,
    du: &mut [f32],
    precision: Precision,
) {
    let (tiles, points) = (geometry.tile_count(positions), geometry.tiling().points());
    let [cin, cout] = channels;
    let v = super::sized(&mut scratch.v, points * tiles * cin);
    transform_input(geometry, positions, cin, input, v);
    let m = super::sized(&mut scratch.m, points * tiles * cout);
    transform_gradient(geometry, positions, cout, grad, m);
    #[cfg(target_arch = "x86_64")]
    if precision == Precision::Bf16 && bf16::has_bf16() && cout.is_multiple_of(16) {
        // Over the tiles, padded with zeros to whole tiles of 32: `Vᵀ` as rows of bf16 and
        // `A dY Aᵀ` as bf16 pairs.
        let depth = tiles.next_multiple_of(32);
        let Scratch { v, m, v_bf16: rows, columns, m_bf16: pairs, product } = scratch;
        let columns = super::sized(columns, cin * tiles);
        rows.clear();
        rows.resize((cin + bf16::PAST_ROWS) * depth, 0);
        pairs.resize(depth * cout, 0);
        let product = super::sized(product, cin * cout);
        for (point, du) in du.chunks_mut(cin * cout).enumerate() {
            super::transpose::transpose(tiles, cin, &v[point * tiles * cin..][..tiles * cin], columns);
            for (column, row) in columns.chunks_exact(tiles).zip(rows.chunks_exact_mut(depth)) {
                bf16::round_into(column, row);
            }
            bf16::pack_pairs(&m[point * tiles * cout..][..tiles * cout], cout, pairs);
            bf16::point_products(1, cin, depth, cout, rows, pairs, product);
            du.iter_mut().zip(product.iter()).for_each(|(du, p)| *du += p);
        }
        return;
    }
    let shape = Product { m: cin, k: tiles, n: cout, a_transposed: true, accumulate: true };
    for (point, du) in du.chunks_mut(cin * cout).enumerate() {
        let (v, m) =
            (&v[point * tiles * cin..(point + 1) * tiles * cin], &m[point * tiles * cout..(point + 1) * tiles * cout]);
        blocked_product(shape, v, m, du);
    }
}

/// The gradient to burn's conv weights (`[output, input, 3, 3]`) from `du`, that to the
/// weights transformed for boards of `geometry` (`[point, input, output]`):
/// `G_downᵀ dU G_along`, the kernel transform's backward, in two steps (`G_downᵀ dU`, then
/// `· G_along`), the output channels split among rayon's threads.
pub(crate) fn kernel_gradient(geometry: Geometry, input: usize, output: usize, du: &[f32]) -> Vec<f32> {
    let mut weight = vec![0.0; output * input * 9];
    if weight.is_empty() {
        return weight;
    }
    let (down, along) = geometry.tiling().kernel_transforms();
    weight.par_chunks_mut(input * 9).enumerate().for_each(|(o, kernels)| {
        for (i, kernel) in kernels.chunks_exact_mut(9).enumerate() {
            let du = |xi: usize, nu: usize| du[((xi * along.len() + nu) * input + i) * output + o];
            for ky in 0..3 {
                let left: [f32; 5] = std::array::from_fn(|nu| {
                    if nu < along.len() {
                        down.iter().enumerate().map(|(xi, g)| g[ky] * du(xi, nu)).sum()
                    } else {
                        0.0
                    }
                });
                for kx in 0..3 {
                    kernel[ky * 3 + kx] = along.iter().zip(&left).map(|(g, left)| left * g[kx]).sum();
                }
            }
        }
    });
    weight
}

/// `U = G_down g G_alongᵀ` ([`Tiling::kernel_transforms`]) for every channel pair's 3×3
/// kernel `g`, read through `weight(input, output, ky, kx)`, laid out as `[point, input
/// channel, output channel]`: in two steps (`G_down g`, then `· G_alongᵀ`), the input
/// channels split among rayon's threads.
fn transform_kernel(
    input: usize,
    output: usize,
    tiling: Tiling,
    weight: impl Fn(usize, usize, usize, usize) -> f32 + Sync,
) -> Vec<f32> {
    let mut u = vec![0.0; tiling.points() * input * output];
    if u.is_empty() {
        return u;
    }
    let (down, along) = tiling.kernel_transforms();
    // Per input channel its points (`[point, output channel]`), then into place.
    let per_input: Vec<Vec<f32>> = (0..input)
        .into_par_iter()
        .map(|i| {
            let mut points = vec![0.0; tiling.points() * output];
            for o in 0..output {
                for (xi, g) in down.iter().enumerate() {
                    let left: [f32; 3] = std::array::from_fn(|kx| (0..3).map(|ky| g[ky] * weight(i, o, ky, kx)).sum());
                    for (nu, g) in along.iter().enumerate() {
                        points[(xi * along.len() + nu) * output + o] = (0..3).map(|kx| left[kx] * g[kx]).sum();
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
    /// The window on `board` (`zeros` as long as a cell) of the tile whose first output is
    /// the cell (`row`, `column`), its corner `margin` cells up and left of that cell.
    #[inline(always)]
    fn of_tile(
        geometry: Geometry,
        board: &'a [f32],
        zeros: &'a [f32],
        (row, column): (usize, usize),
        margin: isize,
    ) -> Window<'a> {
        let corner = (row as isize - margin, column as isize - margin);
        Window { geometry, channels: zeros.len(), board, zeros, corner }
    }

    /// The values of the cell `i` rows down and `j` columns right of the corner (zeros
    /// off the board).
    #[inline(always)]
    fn at(&self, i: usize, j: usize) -> &'a [f32] {
        let (r, c) = (self.corner.0 + i as isize, self.corner.1 + j as isize);
        let Geometry { height, width, .. } = self.geometry;
        if r < 0 || c < 0 || r as usize >= height || c as usize >= width {
            self.zeros
        } else {
            let at = (r as usize * width + c as usize) * self.channels;
            &self.board[at..at + self.channels]
        }
    }
}

/// Channels the transforms take at once, held in registers through a whole tile (one
/// AVX-512 register); the channels left over go one at a time.
const CHANNEL_BLOCK: usize = 16;

// The helpers below are loops, not closures: a closure the compiler does not inline is
// built without AVX-512 and spills every register.

/// The channels of `channels` that whole blocks of `CHANNEL_BLOCK` cover.
#[inline(always)]
fn in_blocks(channels: usize) -> usize {
    channels - channels % CHANNEL_BLOCK
}

/// `W` lanes of `values` from `c`.
#[inline(always)]
fn lanes<const W: usize>(values: &[f32], c: usize) -> [f32; W] {
    let mut lanes = [0.0; W];
    lanes.copy_from_slice(&values[c..c + W]);
    lanes
}

/// `a + sign · b`, lane by lane.
#[inline(always)]
fn axpy<const W: usize>(mut a: [f32; W], sign: f32, b: [f32; W]) -> [f32; W] {
    for k in 0..W {
        a[k] += sign * b[k];
    }
    a
}

/// One of the transforms' matrices (`M × N`) applied to an `N`-vector of lanes.
trait Step<const N: usize, const M: usize> {
    /// The matrix times `x`.
    fn apply<const W: usize>(x: [[f32; W]; N]) -> [[f32; W]; M];
}

/// F(2, 3)'s `Bᵀ`: `(x0 − x2, x1 + x2, x2 − x1, x1 − x3)`.
struct InputF23;
/// F(3, 3)'s `Bᵀ` (rows `2 −1 −2 1 0`, `0 −2 −1 1 0`, `0 2 −3 1 0`, `0 −1 0 1 0`,
/// `0 2 −1 −2 1`).
struct InputF33;
/// F(2, 3)'s `Aᵀ`: `(x0 + x1 + x2, x1 − x2 − x3)`.
struct OutputF23;
/// F(3, 3)'s `Aᵀ`: `(x0 + x1 + x2 + x3, x1 − x2 + 2·x3, x1 + x2 + 4·x3 + x4)`.
struct OutputF33;
/// F(2, 3)'s `A`: `(x0, x0 + x1, x0 − x1, −x1)`.
struct GradientF23;
/// F(3, 3)'s `A`: `(x0, x0 + x1 + x2, x0 − x1 + x2, x0 + 2·x1 + 4·x2, x2)`.
struct GradientF33;

impl Step<4, 4> for InputF23 {
    #[inline(always)]
    fn apply<const W: usize>([x0, x1, x2, x3]: [[f32; W]; 4]) -> [[f32; W]; 4] {
        [axpy(x0, -1.0, x2), axpy(x1, 1.0, x2), axpy(x2, -1.0, x1), axpy(x1, -1.0, x3)]
    }
}

impl Step<5, 5> for InputF33 {
    #[inline(always)]
    fn apply<const W: usize>([x0, x1, x2, x3, x4]: [[f32; W]; 5]) -> [[f32; W]; 5] {
        let (d31, d32) = (axpy(x3, -1.0, x1), axpy(x3, -1.0, x2));
        [
            axpy(axpy(d31, 2.0, x0), -2.0, x2),
            axpy(d31, -1.0, axpy(x1, 1.0, x2)),
            axpy(d32, 2.0, axpy(x1, -1.0, x2)),
            d31,
            axpy(axpy(axpy(x4, -2.0, x3), 2.0, x1), -1.0, x2),
        ]
    }
}

impl Step<4, 2> for OutputF23 {
    #[inline(always)]
    fn apply<const W: usize>([x0, x1, x2, x3]: [[f32; W]; 4]) -> [[f32; W]; 2] {
        [axpy(axpy(x0, 1.0, x1), 1.0, x2), axpy(axpy(x1, -1.0, x2), -1.0, x3)]
    }
}

impl Step<5, 3> for OutputF33 {
    #[inline(always)]
    fn apply<const W: usize>([x0, x1, x2, x3, x4]: [[f32; W]; 5]) -> [[f32; W]; 3] {
        let (sum, difference) = (axpy(x1, 1.0, x2), axpy(x1, -1.0, x2));
        [axpy(axpy(x0, 1.0, sum), 1.0, x3), axpy(difference, 2.0, x3), axpy(axpy(sum, 4.0, x3), 1.0, x4)]
    }
}

impl Step<2, 4> for GradientF23 {
    #[inline(always)]
    fn apply<const W: usize>([x0, x1]: [[f32; W]; 2]) -> [[f32; W]; 4] {
        [x0, axpy(x0, 1.0, x1), axpy(x0, -1.0, x1), axpy([0.0; W], -1.0, x1)]
    }
}

impl Step<3, 5> for GradientF33 {
    #[inline(always)]
    fn apply<const W: usize>([x0, x1, x2]: [[f32; W]; 3]) -> [[f32; W]; 5] {
        let even = axpy(x0, 1.0, x2);
        [x0, axpy(even, 1.0, x1), axpy(even, -1.0, x1), axpy(axpy(x0, 2.0, x1), 4.0, x2), x2]
    }
}

/// `S` applied down each of the `C` columns of the `N`-row grid of lanes `x`: the
/// results, one row per column (`(S · x)ᵀ`).
#[inline(always)]
fn down_columns<S: Step<N, M>, const W: usize, const N: usize, const M: usize, const C: usize>(
    x: [[[f32; W]; C]; N],
) -> [[[f32; W]; M]; C] {
    let mut out = [[[0.0; W]; M]; C];
    for (j, out) in out.iter_mut().enumerate() {
        let mut column = [[0.0; W]; N];
        for (i, value) in column.iter_mut().enumerate() {
            *value = x[i][j];
        }
        *out = S::apply(column);
    }
    out
}

/// `D · x · Aᵀ` for the `N × K` tile of lanes `x`: `D` down its columns, `A` along its rows.
#[inline(always)]
fn both_ways<
    D: Step<N, M>,
    A: Step<K, L>,
    const W: usize,
    const N: usize,
    const M: usize,
    const K: usize,
    const L: usize,
>(
    x: [[[f32; W]; K]; N],
) -> [[[f32; W]; L]; M] {
    down_columns::<A, W, K, L, M>(down_columns::<D, W, N, M, K>(x))
}

/// A tile's place in `[point, tile, channel]` values: the tile, the tiles and the channels.
type TilePlace = (usize, usize, usize);

/// What the transforms into points write: f32 values, or bf16 ones (as their bits) for
/// products on AMX tiles.
trait PointValue: Copy {
    /// Writes `values` into `out`, rounded to this type.
    fn store<const W: usize>(values: &[f32; W], out: &mut [Self]);
}

impl PointValue for f32 {
    #[inline(always)]
    fn store<const W: usize>(values: &[f32; W], out: &mut [f32]) {
        out.copy_from_slice(values);
    }
}

/// bf16 as its bits; only written inside [`transform_input_bf16`], whose CPU has
/// AVX512-BF16.
#[cfg(target_arch = "x86_64")]
impl PointValue for u16 {
    #[inline(always)]
    fn store<const W: usize>(values: &[f32; W], out: &mut [u16]) {
        use std::arch::x86_64::{__m256bh, __m256i, _mm256_storeu_si256, _mm512_cvtneps_pbh, _mm512_loadu_ps};
        if W == 16 {
            // SAFETY: only inlined into `transform_input_bf16`, which runs where the CPU has
            // AVX-512F and AVX512-BF16; 16 floats are read and 16 bf16 written.
            unsafe {
                let rounded = _mm512_cvtneps_pbh(_mm512_loadu_ps(values.as_ptr()));
                _mm256_storeu_si256(out.as_mut_ptr().cast(), std::mem::transmute::<__m256bh, __m256i>(rounded));
            }
        } else {
            for (out, &value) in out.iter_mut().zip(values) {
                *out = bf16::bf16_bits(value);
            }
        }
    }
}

/// `D · d · Aᵀ` for the `N × K` tile at `place` whose cells are `cells`, the `W`
/// channels from `c`, written into `[point, tile, channel]` `out`.
#[inline(always)]
fn tile_points<
    D: Step<N, M>,
    A: Step<K, L>,
    T: PointValue,
    const W: usize,
    const N: usize,
    const M: usize,
    const K: usize,
    const L: usize,
>(
    cells: &[[&[f32]; K]; N],
    c: usize,
    (tile, tiles, channels): TilePlace,
    out: &mut [T],
) {
    let mut d = [[[0.0; W]; K]; N];
    for i in 0..N {
        for j in 0..K {
            d[i][j] = lanes(cells[i][j], c);
        }
    }
    let points = both_ways::<D, A, W, N, M, K, L>(d);
    for (point, values) in points.iter().flatten().enumerate() {
        let at = (point * tiles + tile) * channels + c;
        T::store(values, &mut out[at..at + W]);
    }
}

/// `D · d · Aᵀ` for every `N × K` tile `d` of `positions` boards of channels-last `data`
/// (zero off the board; each tile's corner `margin` cells up and left of its first
/// output), written as `[point, tile, channel]`, a block of channels at a time in
/// registers.
#[inline(always)]
fn to_points<
    D: Step<N, M>,
    A: Step<K, L>,
    T: PointValue,
    const N: usize,
    const M: usize,
    const K: usize,
    const L: usize,
>(
    (geometry, positions, channels): (Geometry, usize, usize),
    data: &[f32],
    margin: isize,
    out: &mut [T],
) {
    let (tiles, (ty, tx)) = (geometry.tile_count(positions), geometry.tiles());
    let (rows, columns) = geometry.tiling().size();
    let zeros = vec![0.0; channels];
    for (p, board) in geometry.boards(positions, channels, data) {
        for y in 0..ty {
            for x in 0..tx {
                let first = (rows * y, columns * x);
                let (tile, window) = ((p * ty + y) * tx + x, Window::of_tile(geometry, board, &zeros, first, margin));
                let mut cells = [[zeros.as_slice(); K]; N];
                for (i, row) in cells.iter_mut().enumerate() {
                    for (j, cell) in row.iter_mut().enumerate() {
                        *cell = window.at(i, j);
                    }
                }
                let (place, full) = ((tile, tiles, channels), in_blocks(channels));
                for c in (0..full).step_by(CHANNEL_BLOCK) {
                    tile_points::<D, A, T, CHANNEL_BLOCK, N, M, K, L>(&cells, c, place, out);
                }
                for c in full..channels {
                    tile_points::<D, A, T, 1, N, M, K, L>(&cells, c, place, out);
                }
            }
        }
    }
}

multiversion! {
/// `V = B_downᵀ d B_along` for every input tile `d` (4×5 wide, 5×4 tall, 4×4 square;
/// zero off the board), written as `[point, tile, channel]`.
fn transform_input(geometry: Geometry, positions: usize, channels: usize, input: &[f32], v: &mut [f32]) {
    input_points(geometry, positions, channels, input, v);
}
}

/// [`transform_input`] into `f32` or bf16 points, by the board's tiling.
#[inline(always)]
fn input_points<T: PointValue>(geometry: Geometry, positions: usize, channels: usize, input: &[f32], v: &mut [T]) {
    let board = (geometry, positions, channels);
    match geometry.tiling() {
        Tiling::Wide => to_points::<InputF23, InputF33, T, 4, 4, 5, 5>(board, input, 1, v),
        Tiling::Tall => to_points::<InputF33, InputF23, T, 5, 5, 4, 4>(board, input, 1, v),
        Tiling::Square => to_points::<InputF23, InputF23, T, 4, 4, 4, 4>(board, input, 1, v),
    }
}

/// [`transform_input`] with the points rounded to bf16 as they are written. The CPU must
/// have AVX-512F and AVX512-BF16 ([`bf16::has_bf16`]).
#[cfg(target_arch = "x86_64")]
fn transform_input_bf16(geometry: Geometry, positions: usize, channels: usize, input: &[f32], v: &mut [u16]) {
    #[target_feature(enable = "avx512f,avx512bf16")]
    unsafe fn with_bf16(geometry: Geometry, positions: usize, channels: usize, input: &[f32], v: &mut [u16]) {
        input_points(geometry, positions, channels, input, v);
    }
    assert!(bf16::has_bf16(), "bf16 transforms do not run on this machine");
    // SAFETY: the CPU has both features (asserted just above).
    unsafe { with_bf16(geometry, positions, channels, input, v) }
}

multiversion! {
/// `A_down dY A_alongᵀ` for every output tile `dY` (2×3 wide, 3×2 tall, 2×2 square) of
/// the output's gradient `grad` (channels-last, zero off the board), written as `[point,
/// tile, channel]`: the output transform's backward.
fn transform_gradient(geometry: Geometry, positions: usize, channels: usize, grad: &[f32], m: &mut [f32]) {
    let board = (geometry, positions, channels);
    match geometry.tiling() {
        Tiling::Wide => to_points::<GradientF23, GradientF33, f32, 2, 4, 3, 5>(board, grad, 0, m),
        Tiling::Tall => to_points::<GradientF33, GradientF23, f32, 3, 5, 2, 4>(board, grad, 0, m),
        Tiling::Square => to_points::<GradientF23, GradientF23, f32, 2, 4, 2, 4>(board, grad, 0, m),
    }
}
}

/// How the output transform ends, per cell: the bias, then the residual and the ReLU if
/// asked.
#[derive(Clone, Copy)]
struct Finish<'a> {
    bias: &'a [f32],
    residual: bool,
    relu: bool,
}

impl Finish<'_> {
    /// Writes `values` (the convolution at one cell, the channels from `c`) into the
    /// cell's channels `out`.
    #[inline(always)]
    fn write<const W: usize>(self, values: [f32; W], c: usize, out: &mut [f32]) {
        let (out, bias) = (&mut out[c..c + W], lanes::<W>(self.bias, c));
        let mut values = axpy(values, 1.0, bias);
        if self.residual {
            values = axpy(values, 1.0, lanes(out, 0));
        }
        if self.relu {
            for v in &mut values {
                *v = v.max(0.0);
            }
        }
        out.copy_from_slice(&values);
    }
}

/// `Y = D · M · Aᵀ` for the `N × K` tile at `place` of products `m`, the `W` channels
/// from `c`, finished into the channels-last board `out` at the `M × L` cells `cells`
/// (none off the board).
#[inline(always)]
fn tile_output<
    D: Step<N, M>,
    A: Step<K, L>,
    const W: usize,
    const N: usize,
    const M: usize,
    const K: usize,
    const L: usize,
>(
    m: &[f32],
    c: usize,
    (tile, tiles, channels): TilePlace,
    (cells, finish): (&[[Option<usize>; L]; M], Finish),
    out: &mut [f32],
) {
    let mut points = [[[0.0; W]; K]; N];
    for (i, row) in points.iter_mut().enumerate() {
        for (j, point) in row.iter_mut().enumerate() {
            *point = lanes(m, ((i * K + j) * tiles + tile) * channels + c);
        }
    }
    let y = both_ways::<D, A, W, N, M, K, L>(points);
    for (cells, y) in cells.iter().zip(&y) {
        for (cell, &y) in cells.iter().zip(y) {
            if let Some(at) = *cell {
                finish.write(y, c, &mut out[at..at + channels]);
            }
        }
    }
}

/// [`transform_output`] for tiles of `M × L` outputs from `N × K` points, `D` down their
/// columns and `A` along their rows.
#[inline(always)]
fn to_outputs<D: Step<N, M>, A: Step<K, L>, const N: usize, const M: usize, const K: usize, const L: usize>(
    (geometry, positions, channels): (Geometry, usize, usize),
    m: &[f32],
    finish: Finish,
    out: &mut [f32],
) {
    let Geometry { height, width, .. } = geometry;
    debug_assert_eq!((M, L), geometry.tiling().size(), "the board's tiles are {M} × {L}");
    let (tiles, (ty, tx)) = (geometry.tile_count(positions), geometry.tiles());
    for p in 0..positions {
        for y in 0..ty {
            for x in 0..tx {
                let place = ((p * ty + y) * tx + x, tiles, channels);
                let mut cells = [[None; L]; M];
                for (i, row) in cells.iter_mut().enumerate() {
                    for (j, cell) in row.iter_mut().enumerate() {
                        let (row, col) = (M * y + i, L * x + j);
                        *cell = (row < height && col < width).then_some(((p * height + row) * width + col) * channels);
                    }
                }
                let full = in_blocks(channels);
                for c in (0..full).step_by(CHANNEL_BLOCK) {
                    tile_output::<D, A, CHANNEL_BLOCK, N, M, K, L>(m, c, place, (&cells, finish), out);
                }
                for c in full..channels {
                    tile_output::<D, A, 1, N, M, K, L>(m, c, place, (&cells, finish), out);
                }
            }
        }
    }
}

multiversion! {
/// `Y = A_downᵀ M A_along` for every tile of products `m` (`[point, tile, channel]`), the
/// outputs on the board written channels-last through `epilogue` with `bias`, a block of
/// channels at a time in registers.
fn transform_output(geometry: Geometry, positions: usize, channels: usize, m: &[f32], bias: &[f32], epilogue: Epilogue) {
    let (out, residual, relu) = match epilogue {
        Epilogue::Relu(out) => (out, false, true),
        Epilogue::ResidualRelu(out) => (out, true, true),
        Epilogue::Linear(out) => (out, false, false),
    };
    let (board, finish) = ((geometry, positions, channels), Finish { bias, residual, relu });
    match geometry.tiling() {
        Tiling::Wide => to_outputs::<OutputF23, OutputF33, 4, 2, 5, 3>(board, m, finish, out),
        Tiling::Tall => to_outputs::<OutputF33, OutputF23, 5, 3, 4, 2>(board, m, finish, out),
        Tiling::Square => to_outputs::<OutputF23, OutputF23, 4, 2, 4, 2>(board, m, finish, out),
    }
}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_board_is_cut_into_the_fewer_tiles_or_square_ones_for_bf16() {
        let cut = |height, width| {
            let geometry = Geometry::new(height, width, Precision::F32);
            (geometry.tiling(), geometry.tile_count(1))
        };
        // Xiangqi: 5 × 3 wide tiles (tall ones: 4 × 5); Banqi: 3 × 2 tall (wide: 4 × 2).
        assert_eq!(cut(10, 9), (Tiling::Wide, 15));
        assert_eq!(cut(8, 4), (Tiling::Tall, 6));
        // As many either way: wide.
        assert_eq!(cut(6, 6), (Tiling::Wide, 6));
        // Products in bf16, where they run: 5 × 5 square tiles.
        let bf16 = Geometry::new(10, 9, Precision::Bf16);
        let expected = if bf16::has_bf16() { (Tiling::Square, 25) } else { (Tiling::Wide, 15) };
        assert_eq!((bf16.tiling(), bf16.tile_count(1)), expected);
    }

    /// Deterministic values in [-1, 1).
    fn values(len: usize, seed: u64) -> Vec<f32> {
        (0..len as u64).map(|i| ((i * 2_654_435_761 + seed * 40_503) % 2000) as f32 / 1000.0 - 1.0).collect()
    }

    /// Every tiling of a board computes the same convolution (with its epilogue) and the
    /// same weight gradient in f32: the square tiles' transforms checked against the wide
    /// and tall ones', which `crate::nn::conv3x3`'s tests check against the definition.
    #[test]
    fn every_tiling_computes_the_same_convolution_and_weight_gradient() {
        for (height, width, positions) in [(10, 9, 3), (8, 4, 2), (5, 7, 1)] {
            let (cin, cout) = (5, 18);
            let conv =
                FoldedConv { input: cin, output: cout, weight: values(9 * cin * cout, 1), bias: values(cout, 2) };
            let input = values(positions * height * width * cin, 3);
            let grad = values(positions * height * width * cout, 4);
            let residual = values(positions * height * width * cout, 5);
            let mut results = Vec::new();
            for tiling in [Tiling::Wide, Tiling::Tall, Tiling::Square] {
                let geometry = Geometry { height, width, tiling };
                let mut scratch = Scratch::default();
                let mut out = residual.clone();
                let winograd = Winograd::new(&conv, geometry);
                winograd.forward(geometry, positions, &input, &mut scratch, Epilogue::ResidualRelu(&mut out));
                let mut du = vec![0.0; tiling.points() * cin * cout];
                let channels = [cin, cout];
                add_transformed_gradient(
                    geometry,
                    positions,
                    channels,
                    [&input, &grad],
                    &mut scratch,
                    &mut du,
                    Precision::F32,
                );
                results.push((tiling, out, kernel_gradient(geometry, cin, cout, &du)));
            }
            let (_, out, dw) = &results[0];
            assert!(out.iter().any(|&v| v > 0.1) && dw.iter().any(|v| v.abs() > 0.1), "trivial results");
            for (tiling, other_out, other_dw) in &results[1..] {
                for (what, ours, reference) in [("output", other_out, out), ("weight gradient", other_dw, dw)] {
                    let scale = reference.iter().fold(1.0f32, |m, v| m.max(v.abs()));
                    let worst = ours.iter().zip(reference).map(|(a, b)| (a - b).abs()).fold(0.0, f32::max);
                    assert!(worst <= 1e-4 * scale, "{height}×{width} {tiling:?} {what}: off by {worst} of {scale}");
                }
            }
        }
    }
}

//! A 3×3 conv of the trunk in the precision it runs in: Winograd's products in f32 or
//! bf16 ([`Winograd`]), or direct int8 products ([`Int8Conv`]).

use super::int8::{self, Int8Conv, Int8Scratch};
use super::precision::Precision;
use super::winograd::{Epilogue, FoldedConv, Geometry, Scratch, Winograd};

/// A 3×3 conv of the trunk, batch-norm folded in.
#[derive(Clone, Debug)]
pub(crate) enum TrunkConv {
    /// Winograd's F(2×3, 3×3) or F(3×2, 3×3) with products in f32, F(2×2, 3×3) in bf16.
    Winograd(Winograd),
    /// Direct, its products in int8.
    Int8(Int8Conv),
}

/// The scratch buffers of either kind.
#[derive(Debug, Default)]
pub(crate) struct ConvScratch {
    /// Winograd's transformed inputs and products.
    pub winograd: Scratch,
    /// int8's quantized input and weights.
    pub int8: Int8Scratch,
}

impl TrunkConv {
    /// `conv` in `precision` where the CPU and its channels allow, else in f32, for boards
    /// of `geometry`.
    pub(crate) fn new(conv: &FoldedConv, precision: Precision, geometry: Geometry) -> TrunkConv {
        if precision == Precision::Int8 && int8::has_vnni() && int8::fits(conv.input, conv.output) {
            TrunkConv::Int8(Int8Conv::new(conv))
        } else {
            TrunkConv::Winograd(Winograd::new(conv, geometry).in_precision(precision))
        }
    }

    /// The precision its products run in.
    pub(crate) fn precision(&self) -> Precision {
        match self {
            TrunkConv::Winograd(conv) => conv.precision(),
            TrunkConv::Int8(_) => Precision::Int8,
        }
    }

    /// Convolves `positions` boards of channels-last `input` and ends with `epilogue`.
    pub(crate) fn forward(
        &self,
        geometry: Geometry,
        positions: usize,
        input: &[f32],
        scratch: &mut ConvScratch,
        epilogue: Epilogue,
    ) {
        match self {
            TrunkConv::Winograd(conv) => conv.forward(geometry, positions, input, &mut scratch.winograd, epilogue),
            TrunkConv::Int8(conv) => conv.forward(geometry, positions, input, &mut scratch.int8, epilogue),
        }
    }
}

//! The layers' widths, shared by the float net the trainer holds and the integer one the
//! search runs.

use super::dense::OUTPUTS;

/// The first layer's width (per side's view).
pub const L1: usize = 256;
/// The second layer's width.
pub const L2: usize = OUTPUTS;
/// The third layer's width.
pub const L3: usize = OUTPUTS;

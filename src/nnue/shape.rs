//! The layers' widths and the unit of the output, shared by the float net the trainer
//! holds and the integer one the search runs.

use super::dense::OUTPUTS;

/// The first layer's width (per side's view).
pub const L1: usize = 128;
/// The second layer's width.
pub const L2: usize = OUTPUTS;
/// The third layer's width.
pub const L3: usize = OUTPUTS;
/// Centipawns per unit of the net's output: the output is the logit of the side to
/// move's expected score, and 400/ln 10 makes 400 centipawns ten to one, as Elo does.
pub const CENTIPAWNS_PER_UNIT: f32 = 173.717_8;

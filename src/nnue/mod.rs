//! An efficiently updatable neural network (NNUE) for the Xiangqi alpha-beta search, as
//! Stockfish and Pikafish evaluate: a wide sparse first layer over each side's pieces
//! seen from its general ([`features`]), whose sums are kept move by move
//! ([`accumulator`]), then small integer layers ([`dense`]), quantized from the float
//! net the trainer holds ([`FloatNet`]) and kept in a self-describing file ([`file`]).

pub mod accumulator;
pub mod dense;
pub mod evaluation;
pub mod features;
pub mod file;
pub mod float_net;
pub mod model;
pub mod net;
pub mod positions;
pub mod selfplay;
pub mod shape;
pub mod shipped;
pub mod train;

mod widened;

pub use accumulator::Accumulator;
pub use evaluation::NnueEvaluation;
pub use float_net::FloatNet;
pub use net::Nnue;
pub use shipped::shipped_nnue;

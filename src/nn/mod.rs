//! The network: game encodings, the burn ResNet used for training (and GPU inference),
//! and our own CPU forward pass for self-play.
//!
//! - [`Encoding`] turns a position into input planes and moves into policy labels, for
//!   [`crate::game::xiangqi::Xiangqi`] ([`encode_xiangqi`]) and
//!   [`crate::game::banqi::Banqi`] ([`encode_banqi`]), with their board symmetries.
//! - [`Net`] is the burn model ([`model`]), trained with [`loss::losses`], saved and
//!   loaded as safetensors ([`store`]) with their metadata ([`info`]: game, shape,
//!   [`ENCODING_VERSION`]), on the device [`device::device`]
//!   picks.
//! - [`conv3x3`] and [`batch_norm`] give burn's `flex` backend our own 3×3 convolution
//!   and training batch-norm.
//! - [`CpuNet`] is our own forward pass of a [`Net`]'s weights, the fast one on CPU.
//! - [`NetEvaluator`]: the net as the search's evaluator, over our CPU forward pass or
//!   burn's on a GPU ([`Inference`]).
//! - [`onnx::model`] writes a [`Net`] as an ONNX model, for ONNX Runtime and other programs.
//! - [`Net::average`] is the mean of several nets (stochastic weight averaging);
//!   [`Net::grow`] a larger net computing what a smaller one does (Net2Net).
//! - [`shipped_net`]: the nets that ship in the binary; [`NetSource`]: a file or one of them.
//! - [`policy`] turns logits into probabilities over legal moves and win/draw/loss.

pub mod attention_policy;
mod average;
pub mod batch_norm;
pub mod conv3x3;
mod cpu;
pub mod device;
pub mod encode_banqi;
pub mod encode_xiangqi;
mod encoding;
mod eval_cache;
mod evaluator;
mod flex_data;
mod grow;
pub mod info;
mod labels;
pub mod loss;
pub mod model;
mod net_error;
pub mod onnx;
pub mod policy;
mod shipped;
pub mod store;

pub use average::AverageError;
pub use cpu::precision::{Precision, PRECISION_VARIABLE};
pub use cpu::{bf16, int8, CpuNet};
pub use encoding::{transform_planes, transform_policy, Encoding};
pub use evaluator::{Inference, NetEvaluator};
pub use grow::GrowError;
pub use info::{NetInfo, Provenance, ENCODING_VERSION};
pub use model::{Net, NetConfig, NetOutput, PolicyHead, PolicyLayers};
pub use net_error::NetError;
pub use shipped::{shipped_net, NetSource};

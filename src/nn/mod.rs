//! The network: game encodings (the burn ResNet and our own CPU forward pass follow).
//!
//! - [`Encoding`] turns a position into input planes and moves into policy labels, for
//!   [`crate::game::xiangqi::Xiangqi`] ([`encode_xiangqi`]) and
//!   [`crate::game::banqi::Banqi`] ([`encode_banqi`]), with their board symmetries.
//! - [`policy`] turns logits into probabilities over legal moves and win/draw/loss.

pub mod encode_banqi;
pub mod encode_xiangqi;
mod encoding;
mod labels;
pub mod policy;

pub use encoding::{transform_planes, transform_policy, Encoding};

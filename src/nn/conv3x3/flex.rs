//! The convolution on burn's `flex` CPU backend.

use burn::backend::Flex;

use super::Conv3x3Backend;

/// For now burn's own kernels (the trait's defaults).
impl Conv3x3Backend for Flex {}

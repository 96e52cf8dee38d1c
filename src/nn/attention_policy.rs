//! The attention policy head (lc0's, without its transformer): a query and a key per
//! square, each a 1×1 convolution of the trunk's features, and each move's logit the
//! scaled dot product of its from-square's query with its to-square's key. A move's
//! logit thus reads both ends of the move (what stands on the from-square, what the
//! to-square holds and is attacked by), where a dense head must route every label
//! through a few shared planes.

use burn::module::Module;
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::tensor::{Device, Int, Tensor, TensorData};

/// The query and key convolutions of the attention policy head.
#[derive(Module, Debug)]
pub struct AttentionPolicy {
    /// The 1×1 conv from the trunk's channels to each square's query.
    pub query: Conv2d,
    /// The 1×1 conv from the trunk's channels to each square's key.
    pub key: Conv2d,
}

impl AttentionPolicy {
    /// A head reading `channels` trunk channels into queries and keys of `channels` each.
    pub fn new(channels: usize, device: &Device) -> AttentionPolicy {
        let conv = || Conv2dConfig::new([channels, channels], [1, 1]).init(device);
        AttentionPolicy { query: conv(), key: conv() }
    }

    /// The logits `[batch, labels]` of the trunk's output `x` `[batch, channels, height,
    /// width]`, label `l` scoring the pair `label_cells[l]` (from-cell, to-cell).
    pub fn forward(&self, x: Tensor<4>, label_cells: &[(u8, u8)]) -> Tensor<2> {
        let [batch, _, height, width] = x.dims();
        let cells = height * width;
        let [dim, ..] = self.query.weight.dims();
        let query = self.query.forward(x.clone()).reshape([batch, dim, cells]).swap_dims(1, 2);
        let key = self.key.forward(x).reshape([batch, dim, cells]);
        let scores = query.matmul(key).div_scalar((dim as f32).sqrt()).reshape([batch, cells * cells]);
        let pairs: Vec<i64> = label_cells.iter().map(|&(from, to)| from as i64 * cells as i64 + to as i64).collect();
        let index = Tensor::<1, Int>::from_data(TensorData::new(pairs, [label_cells.len()]), &scores.device());
        scores.select(1, index)
    }
}

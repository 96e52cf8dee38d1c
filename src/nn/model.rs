//! The burn ResNet: a 3×3 conv stem, `blocks` residual blocks of `channels`, a policy
//! head ([`PolicyHead`]: dense, a 1×1 conv to 2 planes and a linear layer to the game's
//! labels, or [`AttentionPolicy`]) and a win/draw/loss value
//! head (1×1 conv to 1 plane, linear to 64, linear to 3). Every conv is followed by
//! batch-norm and ReLU (the block's second after the residual add). With
//! [`NetConfig::count_value`] the value logits also take a linear function of each input
//! plane's mean — the piece counts, for a game whose planes are one per piece kind — so
//! that material reaches the value directly and the trunk learns what material does not say.

use burn::module::Module;
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::{BatchNorm, BatchNormConfig, Initializer, Linear, LinearConfig, PaddingConfig2d};
use burn::tensor::activation::relu;
use burn::tensor::{Device, Tensor, TensorData};

use serde::{Deserialize, Serialize};

use super::attention_policy::AttentionPolicy;
use super::{batch_norm, conv3x3, Encoding};

/// Width of the value head's hidden layer.
pub const VALUE_HIDDEN: usize = 64;
/// Planes of the policy head's 1×1 conv.
pub const POLICY_PLANES: usize = 2;

/// How the policy head turns the trunk's features into move logits.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PolicyHead {
    /// AlphaZero's: a 1×1 conv to [`POLICY_PLANES`] planes, then a linear layer to every label.
    #[default]
    Dense,
    /// [`AttentionPolicy`]: each move's logit from its from-square's query and its
    /// to-square's key.
    Attention,
}

/// The network's shape: the game's input and policy sizes and the trunk's size.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct NetConfig {
    /// The game's name (`xiangqi`, `banqi`).
    pub game: &'static str,
    /// Input planes.
    pub planes: usize,
    /// Rows of the board.
    pub height: usize,
    /// Columns of the board.
    pub width: usize,
    /// Policy labels.
    pub policy_size: usize,
    /// Residual blocks in the trunk.
    pub blocks: usize,
    /// Channels of the trunk.
    pub channels: usize,
    /// Whether the value logits also take the input planes' means (see the module doc).
    pub count_value: bool,
    /// The policy head.
    pub policy_head: PolicyHead,
    /// Whether the net also predicts the opponent's reply (KataGo's auxiliary policy
    /// target): an attention head of its own, trained only; play never reads it.
    pub reply_policy: bool,
    /// Whether the net also predicts the search's policy flattened (KataGo's auxiliary
    /// soft policy target: the visit shares to the power 1/4, renormalized), so that the
    /// trunk tells apart the moves the sharp policy leaves near zero: an attention head of
    /// its own, trained only; play never reads it.
    pub soft_policy: bool,
    /// The (from, to) plane cells of each policy label ([`Encoding::label_cells`]).
    pub label_cells: &'static [(u8, u8)],
}

impl NetConfig {
    /// The shape of a `blocks × channels` net for game `G`.
    pub fn new<G: Encoding>(blocks: usize, channels: usize) -> NetConfig {
        NetConfig {
            game: G::NAME,
            planes: G::PLANES,
            height: G::HEIGHT,
            width: G::WIDTH,
            policy_size: G::POLICY_SIZE,
            blocks,
            channels,
            count_value: false,
            policy_head: PolicyHead::Dense,
            reply_policy: false,
            soft_policy: false,
            label_cells: G::label_cells(),
        }
    }

    /// This shape with the input planes' means in the value logits, or without.
    pub fn with_count_value(self, count_value: bool) -> NetConfig {
        NetConfig { count_value, ..self }
    }

    /// This shape with policy head `policy_head`.
    pub fn with_policy_head(self, policy_head: PolicyHead) -> NetConfig {
        NetConfig { policy_head, ..self }
    }

    /// This shape with the opponent's reply predicted, or without.
    pub fn with_reply_policy(self, reply_policy: bool) -> NetConfig {
        NetConfig { reply_policy, ..self }
    }

    /// This shape with the search's policy flattened predicted, or without.
    pub fn with_soft_policy(self, soft_policy: bool) -> NetConfig {
        NetConfig { soft_policy, ..self }
    }

    /// This shape with the training-only heads of `shape` (the reply and soft policies).
    pub fn with_training_heads(self, shape: &NetConfig) -> NetConfig {
        self.with_reply_policy(shape.reply_policy).with_soft_policy(shape.soft_policy)
    }

    /// Floats of one encoded position.
    pub fn input_size(&self) -> usize {
        self.planes * self.height * self.width
    }
}

impl std::fmt::Display for NetConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "a {} net of {} blocks × {} channels, {} planes of {}×{}, {} policy labels",
            self.game, self.blocks, self.channels, self.planes, self.height, self.width, self.policy_size
        )?;
        if self.count_value {
            write!(f, ", piece counts in its value")?;
        }
        if self.policy_head == PolicyHead::Attention {
            write!(f, ", an attention policy")?;
        }
        if self.reply_policy {
            write!(f, ", the opponent's reply predicted")?;
        }
        if self.soft_policy {
            write!(f, ", the search's policy flattened predicted")?;
        }
        Ok(())
    }
}

/// A convolution without bias followed by batch-norm.
#[derive(Module, Debug)]
pub struct ConvBn {
    /// The convolution (no bias: batch-norm's shift takes its place).
    pub conv: Conv2d,
    /// The batch-norm after it.
    pub bn: BatchNorm,
}

impl ConvBn {
    fn new(input: usize, output: usize, kernel: usize, device: &Device) -> ConvBn {
        let pad = kernel / 2;
        let conv = Conv2dConfig::new([input, output], [kernel, kernel])
            .with_padding(PaddingConfig2d::Explicit(pad, pad, pad, pad))
            .with_bias(false)
            .init(device);
        ConvBn { conv, bn: BatchNormConfig::new(output).init(device) }
    }

    /// `relu(layer(x))` on channels-first `x`: burn's conv, then batch-norm and ReLU
    /// through [`batch_norm::batch_norm_relu`] (our kernels in training on `flex`).
    fn forward(&self, x: Tensor<4>) -> Tensor<4> {
        batch_norm::batch_norm_relu(&self.bn, self.conv.forward(x))
    }

    /// `relu(layer(x) + residual)` on channels-last `x` (`[batch, height, width, channels]`),
    /// a 3×3 conv on the `flex` device ([`conv3x3::fits`]): our kernels throughout.
    fn forward_channels_last(&self, x: Tensor<4>, residual: Option<Tensor<4>>) -> Tensor<4> {
        let y = conv3x3::conv3x3(x, self.conv.weight.val());
        batch_norm::batch_norm_relu_channels_last(&self.bn, y, residual)
    }
}

/// A residual block: conv-BN-ReLU, conv-BN, add the input, ReLU.
#[derive(Module, Debug)]
pub struct ResBlock {
    /// The first conv of the block.
    pub first: ConvBn,
    /// The second conv, before the residual add.
    pub second: ConvBn,
}

impl ResBlock {
    /// The block on channels-first `x` (burn's layers, off the `flex` device).
    fn forward(&self, x: Tensor<4>) -> Tensor<4> {
        let y = self.first.forward(x.clone());
        relu(self.second.bn.forward(self.second.conv.forward(y)) + x)
    }

    /// The block on channels-last `x` (our kernels).
    fn forward_channels_last(&self, x: Tensor<4>) -> Tensor<4> {
        let y = self.first.forward_channels_last(x.clone(), None);
        self.second.forward_channels_last(y, Some(x))
    }
}

/// The policy/value ResNet.
#[derive(Module, Debug)]
pub struct Net {
    /// The stem: 3×3 conv from the input planes to the trunk's channels.
    pub stem: ConvBn,
    /// The trunk's residual blocks.
    pub blocks: Vec<ResBlock>,
    /// The dense policy head's 1×1 conv to `POLICY_PLANES` planes.
    pub policy_conv: Option<ConvBn>,
    /// The dense policy head's linear layer to the labels' logits.
    pub policy_fc: Option<Linear>,
    /// The attention policy head.
    pub policy_attention: Option<AttentionPolicy>,
    /// With [`NetConfig::reply_policy`]: the head predicting the opponent's reply.
    pub policy_reply: Option<AttentionPolicy>,
    /// With [`NetConfig::soft_policy`]: the head predicting the flattened policy.
    pub policy_soft: Option<AttentionPolicy>,
    /// The value head's 1×1 conv to one plane.
    pub value_conv: ConvBn,
    /// The value head's hidden layer.
    pub value_fc1: Linear,
    /// The value head's output: win, draw, loss logits.
    pub value_fc2: Linear,
    /// With [`NetConfig::count_value`]: the input planes' means to win, draw, loss logits
    /// (zero at first), added to `value_fc2`'s.
    pub value_counts: Option<Linear>,
    /// The shape the net was built with.
    #[module(skip)]
    pub config: NetConfig,
}

/// The layers of a net's policy head, borrowed.
#[derive(Clone, Copy, Debug)]
pub enum PolicyLayers<'a> {
    /// The dense head's 1×1 conv and linear layer.
    Dense(&'a ConvBn, &'a Linear),
    /// The attention head.
    Attention(&'a AttentionPolicy),
}

/// What the net says about a batch: policy logits `[batch, policy_size]` and
/// win/draw/loss logits `[batch, 3]` for the side to move.
#[derive(Clone, Debug)]
pub struct NetOutput {
    /// Policy logits.
    pub policy: Tensor<2>,
    /// Win, draw and loss logits.
    pub value: Tensor<2>,
    /// With [`NetConfig::reply_policy`]: logits of the opponent's reply, `[batch,
    /// policy_size]`, its labels seen from the side to move.
    pub reply: Option<Tensor<2>>,
    /// With [`NetConfig::soft_policy`]: logits of the flattened policy, `[batch,
    /// policy_size]`.
    pub soft: Option<Tensor<2>>,
}

impl Net {
    /// A net of shape `config` with fresh random weights on `device`.
    pub fn new(config: NetConfig, device: &Device) -> Net {
        let NetConfig {
            planes,
            height,
            width,
            policy_size,
            blocks,
            channels,
            count_value,
            policy_head,
            reply_policy,
            soft_policy,
            ..
        } = config;
        let dense = policy_head == PolicyHead::Dense;
        let cells = height * width;
        Net {
            stem: ConvBn::new(planes, channels, 3, device),
            blocks: (0..blocks)
                .map(|_| ResBlock {
                    first: ConvBn::new(channels, channels, 3, device),
                    second: ConvBn::new(channels, channels, 3, device),
                })
                .collect(),
            policy_conv: dense.then(|| ConvBn::new(channels, POLICY_PLANES, 1, device)),
            policy_fc: dense.then(|| LinearConfig::new(POLICY_PLANES * cells, policy_size).init(device)),
            policy_attention: (!dense).then(|| AttentionPolicy::new(channels, device)),
            policy_reply: reply_policy.then(|| AttentionPolicy::new(channels, device)),
            policy_soft: soft_policy.then(|| AttentionPolicy::new(channels, device)),
            value_conv: ConvBn::new(channels, 1, 1, device),
            value_fc1: LinearConfig::new(cells, VALUE_HIDDEN).init(device),
            value_fc2: LinearConfig::new(VALUE_HIDDEN, 3).init(device),
            value_counts: count_value
                .then(|| LinearConfig::new(planes, 3).with_initializer(Initializer::Zeros).init(device)),
            config,
        }
    }

    /// This net with the training-only heads of `shape` (its reply and soft policy heads:
    /// a head it lacks fresh, one it has kept, one `shape` lacks dropped): what it plays
    /// is the same, since play never reads them (a run going on from a net trained with
    /// other heads).
    pub fn with_training_heads(mut self, shape: &NetConfig) -> Net {
        let (device, channels) = (self.device(), self.config.channels);
        let head = |wanted: bool, had: Option<AttentionPolicy>| {
            wanted.then(|| had.unwrap_or_else(|| AttentionPolicy::new(channels, &device)))
        };
        self.policy_reply = head(shape.reply_policy, self.policy_reply.take());
        self.policy_soft = head(shape.soft_policy, self.policy_soft.take());
        self.config = self.config.with_training_heads(shape);
        self
    }

    /// The forward pass of a batch `[batch, planes, height, width]`.
    pub fn forward(&self, input: Tensor<4>) -> NetOutput {
        let (x, policy, value) = self.played(input);
        let training =
            |head: &Option<AttentionPolicy>| head.as_ref().map(|h| h.forward(x.clone(), self.config.label_cells));
        NetOutput { policy, value, reply: training(&self.policy_reply), soft: training(&self.policy_soft) }
    }

    /// The trunk's features of a batch, then the heads play reads: the policy logits and
    /// the win/draw/loss logits.
    fn played(&self, input: Tensor<4>) -> (Tensor<4>, Tensor<2>, Tensor<2>) {
        let counts = self
            .value_counts
            .as_ref()
            .map(|layer| layer.forward(input.clone().mean_dim(3).mean_dim(2).flatten::<2>(1, 3)));
        let x = self.trunk(input);
        let policy = self.policy(x.clone());
        let value = self.value_conv.forward(x.clone()).flatten::<2>(1, 3);
        let value = self.value_fc2.forward(relu(self.value_fc1.forward(value)));
        let value = match counts {
            Some(counts) => value + counts,
            None => value,
        };
        (x, policy, value)
    }

    /// The trunk's features of `input`, channels first. On the `flex` device the stem and
    /// the blocks run channels-last ([`ConvBn::forward_channels_last`]), between one
    /// transpose in and one out, so that no layer transposes its activations; elsewhere
    /// they are burn's layers, channels first.
    fn trunk(&self, input: Tensor<4>) -> Tensor<4> {
        if !conv3x3::fits(&self.stem.conv, &input) {
            let mut x = self.stem.forward(input);
            for block in &self.blocks {
                x = block.forward(x);
            }
            return x;
        }
        let mut x = self.stem.forward_channels_last(input.permute([0, 2, 3, 1]), None);
        for block in &self.blocks {
            x = block.forward_channels_last(x);
        }
        x.permute([0, 3, 1, 2])
    }

    /// The policy logits of the trunk's output `x`.
    fn policy(&self, x: Tensor<4>) -> Tensor<2> {
        match self.policy_layers() {
            PolicyLayers::Dense(conv, fc) => fc.forward(conv.forward(x).flatten::<2>(1, 3)),
            PolicyLayers::Attention(attention) => attention.forward(x, self.config.label_cells),
        }
    }

    /// The layers of the net's one policy head.
    pub fn policy_layers(&self) -> PolicyLayers<'_> {
        match (&self.policy_conv, &self.policy_fc, &self.policy_attention) {
            (Some(conv), Some(fc), _) => PolicyLayers::Dense(conv, fc),
            (_, _, Some(attention)) => PolicyLayers::Attention(attention),
            _ => unreachable!("Net::new builds one policy head"),
        }
    }

    /// The device the weights live on.
    pub fn device(&self) -> Device {
        self.stem.conv.weight.device()
    }

    /// A batch of encoded positions (`batch × input_size` floats, position after
    /// position) as an input tensor on the net's device.
    pub fn input(&self, planes: Vec<f32>, batch: usize) -> Tensor<4> {
        let NetConfig { planes: p, height, width, .. } = self.config;
        Tensor::from_data(TensorData::new(planes, [batch, p, height, width]), &self.device())
    }

    /// Runs a batch of encoded positions and returns the policy logits (`batch ×
    /// policy_size`) and the win/draw/loss logits (`batch × 3`) as plain vectors.
    pub fn infer(&self, planes: Vec<f32>, batch: usize) -> (Vec<f32>, Vec<f32>) {
        let (_, policy, value) = self.played(self.input(planes, batch));
        let floats = |t: Tensor<2>| t.into_data().try_to_vec::<f32>().expect("the net computes in f32");
        (floats(policy), floats(value))
    }
}

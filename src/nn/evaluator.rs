//! The network as the search's evaluator: every position of a batch encoded into one
//! reused input buffer, one forward pass, then each position's priors (the policy's
//! softmax over its legal moves' labels) and its win/draw/loss (the value head's
//! softmax), from the side to move's view.

use std::marker::PhantomData;

use burn::module::Module;
use burn::tensor::Device;

use super::policy::{masked_softmax, wdl};
use super::{CpuNet, Encoding, Net, NetConfig, Precision};
use crate::mcts::{Batch, Evaluator, Wdl};

/// Which forward pass runs the net.
#[derive(Clone, Debug)]
pub enum Inference {
    /// Our own CPU forward pass (the fast one on CPU). Its batch is split over the
    /// threads of the rayon pool it runs in.
    Cpu(CpuNet),
    /// burn's forward pass on the net's device (a GPU with `--features cuda` or `wgpu`);
    /// boxed, as a burn module is much larger than a [`CpuNet`].
    Burn(Box<Net>),
}

impl Inference {
    /// The forward pass for `net` on `device`: ours on the `flex` CPU device, else burn's
    /// with the net (in inference mode) moved to `device`.
    pub fn for_device(net: &Net, device: &Device) -> Inference {
        Inference::for_device_in(net, device, Precision::for_this_cpu())
    }

    /// [`Inference::for_device`] with our CPU forward pass in `precision`.
    pub fn for_device_in(net: &Net, device: &Device, precision: Precision) -> Inference {
        // Device equality compares the hardware only, so an autodiff flex device is flex too.
        if *device == Device::flex() {
            Inference::Cpu(CpuNet::in_precision(net, precision))
        } else {
            Inference::Burn(Box::new(net.valid().to_device(device)))
        }
    }

    /// The net's shape.
    pub fn config(&self) -> NetConfig {
        match self {
            Inference::Cpu(net) => net.config(),
            Inference::Burn(net) => net.config,
        }
    }

    /// Runs `batch` encoded positions, leaving `batch × policy_size` policy logits in
    /// `policy` and `batch × 3` win/draw/loss logits in `value`.
    pub fn forward(&mut self, input: &[f32], batch: usize, policy: &mut Vec<f32>, value: &mut Vec<f32>) {
        match self {
            Inference::Cpu(net) => {
                policy.resize(batch * net.config().policy_size, 0.0);
                value.resize(batch * 3, 0.0);
                net.forward(input, batch, policy, value);
            }
            Inference::Burn(net) => (*policy, *value) = net.infer(input.to_vec(), batch),
        }
    }
}

/// A network evaluator for game `G`. Cloning gives a copy with its own buffers (the
/// weights of a CPU net are shared): one per self-play thread.
#[derive(Clone, Debug)]
pub struct NetEvaluator<G> {
    inference: Inference,
    /// Encoded positions of the batch.
    input: Vec<f32>,
    /// The forward pass's outputs.
    policy: Vec<f32>,
    value: Vec<f32>,
    /// One position's legal labels and their probabilities.
    labels: Vec<usize>,
    priors: Vec<f32>,
    game: PhantomData<fn() -> G>,
}

impl<G: Encoding> NetEvaluator<G> {
    /// An evaluator running `inference` (a net of game `G`).
    pub fn new(inference: Inference) -> NetEvaluator<G> {
        NetEvaluator {
            inference,
            input: Vec::new(),
            policy: Vec::new(),
            value: Vec::new(),
            labels: Vec::new(),
            priors: Vec::new(),
            game: PhantomData,
        }
    }

    /// The forward pass it runs.
    pub fn inference(&self) -> &Inference {
        &self.inference
    }
}

impl<G: Encoding> Evaluator<G> for NetEvaluator<G> {
    fn evaluate(&mut self, batch: &mut Batch<G>) {
        let n = batch.len();
        if n == 0 {
            return;
        }
        self.input.resize(n * G::INPUT_SIZE, 0.0);
        for (i, planes) in self.input.chunks_exact_mut(G::INPUT_SIZE).enumerate() {
            batch.game(i).encode(planes);
        }
        self.inference.forward(&self.input, n, &mut self.policy, &mut self.value);
        for i in 0..n {
            let (game, moves, priors) = batch.entry_mut(i);
            self.labels.clear();
            self.labels.extend(moves.iter().map(|&mv| game.move_label(mv)));
            let logits = &self.policy[i * G::POLICY_SIZE..(i + 1) * G::POLICY_SIZE];
            masked_softmax(logits, &self.labels, &mut self.priors);
            priors.copy_from_slice(&self.priors);
            let ([win, draw, loss], _) = wdl([self.value[3 * i], self.value[3 * i + 1], self.value[3 * i + 2]]);
            batch.set_value(i, Wdl { win, draw, loss });
        }
    }
}

//! The network as the search's evaluator: every position of a batch encoded into one
//! reused input buffer, one forward pass over those its cache ([`super::eval_cache`])
//! does not answer, then each position's priors (the policy's softmax over its legal
//! moves' labels) and its win/draw/loss (the value head's softmax), from the side to
//! move's view.

use std::marker::PhantomData;

use burn::module::Module;
use burn::tensor::Device;

use super::eval_cache::EvalCache;
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

/// A network evaluator for game `G`. Cloning gives a copy with its own buffers and cache
/// (the weights of a CPU net are shared): one per self-play thread.
#[derive(Clone, Debug)]
pub struct NetEvaluator<G> {
    inference: Inference,
    /// Encoded positions of the batch.
    input: Vec<f32>,
    /// The forward pass's outputs.
    policy: Vec<f32>,
    value: Vec<f32>,
    /// The legal labels of the batch's positions the cache lacks, one after the other, and
    /// one position's probabilities.
    labels: Vec<usize>,
    priors: Vec<f32>,
    /// The net's answers by position, and the batch's positions it lacks.
    cache: EvalCache,
    misses: Vec<Miss>,
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
            cache: EvalCache::default(),
            misses: Vec::new(),
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
        // Each position encoded into the next free slot of the forward pass's input and its
        // labels after the last miss's; one the cache answers, or met earlier in this
        // batch, gives both back.
        self.input.resize(batch.len() * G::INPUT_SIZE, 0.0);
        self.misses.clear();
        self.labels.clear();
        let mut slots = 0;
        for i in 0..batch.len() {
            let planes = &mut self.input[slots * G::INPUT_SIZE..(slots + 1) * G::INPUT_SIZE];
            let (game, moves, priors) = batch.entry_mut(i);
            game.encode(planes);
            let start = self.labels.len();
            self.labels.extend(moves.iter().map(|&mv| game.move_label(mv)));
            let key = EvalCache::key(planes, &self.labels[start..]);
            if let Some(answer) = self.cache.get(key) {
                priors.copy_from_slice(&answer.priors);
                batch.set_value(i, answer.wdl);
                self.labels.truncate(start);
                continue;
            }
            let miss = match self.misses.iter().find(|miss| miss.key == key) {
                Some(earlier) => {
                    self.labels.truncate(start);
                    Miss { index: i, ..earlier.clone() }
                }
                None => {
                    slots += 1;
                    Miss { index: i, key, slot: slots - 1, labels: start..self.labels.len() }
                }
            };
            self.misses.push(miss);
        }
        if slots == 0 {
            return;
        }
        self.inference.forward(&self.input[..slots * G::INPUT_SIZE], slots, &mut self.policy, &mut self.value);
        for miss in &self.misses {
            let (slot, labels) = (miss.slot, &self.labels[miss.labels.clone()]);
            let logits = &self.policy[slot * G::POLICY_SIZE..(slot + 1) * G::POLICY_SIZE];
            masked_softmax(logits, labels, &mut self.priors);
            batch.priors_mut(miss.index).copy_from_slice(&self.priors);
            let ([win, draw, loss], _) =
                wdl([self.value[3 * slot], self.value[3 * slot + 1], self.value[3 * slot + 2]]);
            let value = Wdl { win, draw, loss };
            batch.set_value(miss.index, value);
            self.cache.insert(miss.key, value, &self.priors);
        }
    }
}

/// A position of a batch the cache did not answer: its index in the batch, its key, its
/// slot in the forward pass and its labels' place in the evaluator's list (both shared by
/// every position of the batch with its key).
#[derive(Clone, Debug)]
struct Miss {
    index: usize,
    key: u64,
    slot: usize,
    labels: std::ops::Range<usize>,
}

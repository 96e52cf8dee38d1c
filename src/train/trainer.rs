//! The trainer: the net being trained (on an autodiff device), its optimiser and the
//! global step; it trains on batches the loader prepares from the window, and saves and
//! loads all three so a resumed run carries on exactly.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use burn::module::Module;
use burn::optim::GradientsParams;
use burn::tensor::activation::log_softmax;
use burn::tensor::{Device, Tensor, TensorData};
use indicatif::ProgressBar;

use super::loader::{spawn_loader, Batch};
use super::optimizer::{Optimizer, OptimizerError};
use super::{TrainSettings, Window};
use crate::nn::conv3x3;
use crate::nn::loss::{losses, LossTargets};
use crate::nn::{Encoding, Net, NetConfig, NetError};

/// Why a trainer could not be saved or loaded: one line naming the file.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// The model file.
    #[error(transparent)]
    Net(#[from] NetError),
    /// The optimiser state file.
    #[error(transparent)]
    Optimizer(#[from] OptimizerError),
}

/// What a [`Trainer::train`] call did: means over its steps unless said otherwise.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainReport {
    /// Steps taken (fewer than asked when stopped).
    pub steps: u64,
    /// Samples trained on per second of wall time, loading included.
    pub samples_per_second: f64,
    /// The loss minimised: `policy_loss + value_loss`, plus the training heads' losses
    /// times their weights ([`crate::nn::loss::Losses::total`]).
    pub loss: f64,
    /// Policy cross-entropy over the fully searched samples.
    pub policy_loss: f64,
    /// Win/draw/loss cross-entropy over all samples.
    pub value_loss: f64,
    /// The opponent's reply's cross-entropy over the samples with one, for a net that
    /// predicts it.
    pub reply_loss: Option<f64>,
    /// The flattened policy's cross-entropy over the fully searched samples, for a net
    /// that predicts it.
    pub soft_loss: Option<f64>,
    /// Entropy (nats) of the net's policy over all labels, averaged over all samples.
    pub policy_entropy: f64,
    /// Share of samples whose most likely win/draw/loss is their value target's (the
    /// game's outcome, blended with the search's value by `root_value_weight`).
    pub value_accuracy: f64,
    /// The learning rate of the last step.
    pub learning_rate: f64,
    /// Wall time of the call.
    pub seconds: f64,
}

/// The per-step figures averaged into a [`TrainReport`], in its order (the reply and soft
/// policy losses last, 0 for a net without the head).
const FIGURES: usize = 7;

/// A net in training with its optimiser and global step.
pub struct Trainer {
    net: Net,
    optimizer: Optimizer,
    step: u64,
    settings: TrainSettings,
}

impl Trainer {
    /// A trainer at step 0 for `net` (built on an autodiff device) with a fresh optimiser.
    pub fn new(net: Net, settings: &TrainSettings) -> Trainer {
        Trainer { net, optimizer: Optimizer::new(settings), step: 0, settings: settings.clone() }
    }

    /// A trainer for game `G` resumed from the files [`Trainer::save`] wrote, at global
    /// step `step`, on `device` (an autodiff device); the net must have shape `shape`.
    pub fn load<G: Encoding>(
        model: &Path,
        optimizer_state: &Path,
        step: u64,
        shape: NetConfig,
        settings: &TrainSettings,
        device: &Device,
    ) -> Result<Trainer, TrainError> {
        let net = Net::load::<G>(model, Some(shape), device)?;
        let (optimizer, net) = Optimizer::load(settings, net, optimizer_state)?;
        Ok(Trainer { net, optimizer, step, settings: settings.clone() })
    }

    /// Writes the model (safetensors) and the optimiser state, each atomically.
    pub fn save(&self, model: &Path, optimizer_state: &Path) -> Result<(), TrainError> {
        self.net.valid().save(model)?;
        self.optimizer.save(&self.net, optimizer_state)?;
        Ok(())
    }

    /// The global step: optimiser steps taken since the start of the run.
    pub fn step(&self) -> u64 {
        self.step
    }

    /// The net for inference (no autodiff, batch-norm on its running statistics).
    pub fn model(&self) -> Net {
        self.net.valid()
    }

    /// Trains `steps` steps on batches drawn from `window` (nothing when it is empty), the
    /// run having spent `course` of its budget (0 to 1, for the learning rate's schedule),
    /// stopping early once `stop` is set. `bar` gets `steps` as its length and shows the
    /// loss and its parts as it goes.
    pub fn train<G: Encoding>(
        &mut self,
        window: &Window,
        steps: u64,
        course: f64,
        stop: &AtomicBool,
        bar: &ProgressBar,
    ) -> TrainReport {
        let started = Instant::now();
        let mut sums = [0.0; FIGURES];
        let (mut done, mut learning_rate) = (0, self.settings.learning_rate_at(self.step, course));
        bar.set_length(steps);
        bar.set_position(0);
        if !window.is_empty() {
            std::thread::scope(|scope| {
                let batches = spawn_loader::<G>(scope, window, &self.settings, self.step, steps);
                for batch in batches {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    learning_rate = self.settings.learning_rate_at(self.step, course);
                    let figures = self.train_step(batch, learning_rate);
                    sums.iter_mut().zip(figures).for_each(|(sum, figure)| *sum += figure);
                    done += 1;
                    let [loss, policy, value, ..] = figures;
                    bar.set_message(format!("loss {loss:.3} (policy {policy:.3}, value {value:.3})"));
                    bar.inc(1);
                }
            });
        }
        let seconds = started.elapsed().as_secs_f64();
        let mean = |i: usize| if done == 0 { 0.0 } else { sums[i] / done as f64 };
        TrainReport {
            steps: done,
            samples_per_second: (done as usize * self.settings.batch_size) as f64 / seconds.max(1e-9),
            loss: mean(0),
            policy_loss: mean(1),
            value_loss: mean(2),
            reply_loss: self.net.config.reply_policy.then(|| mean(5)),
            soft_loss: self.net.config.soft_policy.then(|| mean(6)),
            policy_entropy: mean(3),
            value_accuracy: mean(4),
            learning_rate,
            seconds,
        }
    }

    /// One optimiser step on `batch` at `lr`, its convolutions in the settings'
    /// precision; returns the batch's loss, policy loss, value loss, policy entropy, value
    /// accuracy, reply loss and soft policy loss (before the step).
    pub fn train_step(&mut self, batch: Batch, lr: f64) -> [f64; FIGURES] {
        conv3x3::set_precision(self.settings.precision);
        // On one of rayon's threads: the kernels' parallel loops then start from inside
        // the pool instead of waking it from outside at every operation.
        rayon::scope(|_| self.step_on(batch, lr))
    }

    /// [`Trainer::train_step`]'s work, on the calling thread.
    fn step_on(&mut self, batch: Batch, lr: f64) -> [f64; FIGURES] {
        let device = self.net.device();
        let n = batch.size;
        let policy_size = self.net.config.policy_size;
        let input = self.net.input(batch.planes, n);
        let policy = Tensor::<2>::from_data(TensorData::new(batch.policy, [n, policy_size]), &device);
        let weight = Tensor::<1>::from_data(TensorData::new(batch.policy_weight, [n]), &device);
        let value = Tensor::<2>::from_data(TensorData::new(batch.value, [n, 3]), &device);
        // The reply targets reach the device only for a net that predicts the reply.
        let reply = self.net.config.reply_policy.then(|| {
            (
                Tensor::<2>::from_data(TensorData::new(batch.reply, [n, policy_size]), &device),
                Tensor::<1>::from_data(TensorData::new(batch.reply_weight, [n]), &device),
            )
        });
        let output = self.net.forward(input);
        let targets = LossTargets { policy, policy_weight: weight, value: value.clone(), reply };
        let parts = losses(&output, targets);
        let log_p = log_softmax(output.policy.detach(), 1);
        let entropy = (log_p.clone().exp() * log_p).sum_dim(1).mean().neg();
        let hits = output.value.detach().argmax(1).equal(value.argmax(1)).float().mean().reshape([1]);
        let figure =
            |part: Option<Tensor<1>>| part.map_or_else(|| Tensor::<1>::zeros([1], &device), |part| part.detach());
        let [reply, soft] = [parts.reply, parts.soft].map(figure);
        let figures = Tensor::cat(
            vec![parts.total.clone().detach(), parts.policy.detach(), parts.value.detach(), entropy, hits, reply, soft],
            0,
        );
        let figures = figures.into_data().try_to_vec::<f32>().expect("the net computes in f32");
        let grads = GradientsParams::from_grads(parts.total.backward(), &self.net);
        self.net = self.optimizer.step(lr, self.net.clone(), grads);
        self.step += 1;
        std::array::from_fn(|i| f64::from(figures[i]))
    }
}

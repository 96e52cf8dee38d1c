//! Training the NNUE on labelled positions: each position's target is a blend of the
//! search's score (as an expected score, through the logistic of `CENTIPAWNS_PER_UNIT`)
//! and the game's result, as Stockfish's trainer blends them; the loss is the squared
//! difference of expected scores; Adam, with the rate falling along a half cosine to a
//! tenth. A tenth of the games is held out and measured after each epoch.

use burn::optim::{AdamConfig, GradientsParams};
use burn::tensor::activation::sigmoid;
use burn::tensor::{Device, Tensor, TensorData};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use super::float_net::FloatNet;
use super::model::{Inputs, NnueModel};
use super::positions::LabelledPosition;
use super::shape::CENTIPAWNS_PER_UNIT;

/// How the NNUE is trained.
#[derive(Clone, Debug)]
pub struct TrainSettings {
    /// Positions per step.
    pub batch_size: usize,
    /// Passes over the positions.
    pub epochs: usize,
    /// Adam's rate at the start.
    pub learning_rate: f64,
    /// The score's share of the target (the result the rest).
    pub score_weight: f32,
    /// The shuffling's seed.
    pub seed: u64,
}

/// What an epoch reached.
#[derive(Clone, Copy, Debug)]
pub struct EpochReport {
    /// The epoch, from 1.
    pub epoch: usize,
    /// The mean loss of its steps.
    pub loss: f64,
    /// The loss on the held-out positions after it.
    pub held_out_loss: f64,
}

/// Trains `net` on `positions` on `device` (an autodiff device), calling `on_epoch`
/// after each epoch; returns the trained net.
pub fn train(
    net: &FloatNet,
    positions: &[LabelledPosition],
    settings: &TrainSettings,
    device: &Device,
    on_epoch: &mut dyn FnMut(EpochReport),
) -> FloatNet {
    let mut rng = StdRng::seed_from_u64(settings.seed);
    // Held out: every tenth block of consecutive positions (a block of up to 1 000, about
    // ten games), so that its loss is measured on games never trained on.
    let block = (positions.len() / 100).clamp(1, 1000);
    let (held_out, mut training): (Vec<usize>, Vec<usize>) = (0..positions.len()).partition(|i| i / block % 10 == 9);
    let steps_per_epoch = training.len().div_ceil(settings.batch_size).max(1);
    let total_steps = (steps_per_epoch * settings.epochs).max(1);
    let mut model = NnueModel::new(net, device);
    let mut optimizer = AdamConfig::new().init();
    let mut step = 0;
    for epoch in 1..=settings.epochs {
        training.shuffle(&mut rng);
        let mut loss_sum = 0.0;
        for batch in training.chunks(settings.batch_size) {
            let progress = step as f64 / total_steps as f64;
            let lr = settings.learning_rate * (0.1 + 0.9 * 0.5 * (1.0 + (std::f64::consts::PI * progress).cos()));
            let loss = batch_loss(&model, positions, batch, settings.score_weight, device);
            loss_sum += f64::from(loss.clone().into_data().try_to_vec::<f32>().expect("f32")[0]);
            let grads = GradientsParams::from_grads(loss.backward(), &model);
            model = optimizer.step(lr, model, grads);
            step += 1;
        }
        let held_out_loss = held_out_loss(&model, positions, &held_out, settings, device);
        on_epoch(EpochReport { epoch, loss: loss_sum / steps_per_epoch as f64, held_out_loss });
    }
    model.to_float()
}

/// The mean loss over the held-out positions.
fn held_out_loss(
    model: &NnueModel,
    positions: &[LabelledPosition],
    held_out: &[usize],
    settings: &TrainSettings,
    device: &Device,
) -> f64 {
    let mut sum = 0.0;
    for batch in held_out.chunks(settings.batch_size) {
        let loss = batch_loss(model, positions, batch, settings.score_weight, device).detach();
        sum += f64::from(loss.into_data().try_to_vec::<f32>().expect("f32")[0]) * batch.len() as f64;
    }
    sum / held_out.len().max(1) as f64
}

/// The mean squared difference between the model's expected score and the target over
/// the positions `batch` indexes.
fn batch_loss(
    model: &NnueModel,
    positions: &[LabelledPosition],
    batch: &[usize],
    score_weight: f32,
    device: &Device,
) -> Tensor<1> {
    let boards: Vec<_> = batch.iter().map(|&i| &positions[i].board).collect();
    let targets: Vec<f32> = batch.iter().map(|&i| target(&positions[i], score_weight)).collect();
    let targets = Tensor::<2>::from_data(TensorData::new(targets, [batch.len(), 1]), device);
    let predicted = sigmoid(model.forward(&Inputs::new(&boards, device)));
    (predicted - targets).powf_scalar(2.0).mean()
}

/// The expected score a position is trained towards.
pub fn target(position: &LabelledPosition, score_weight: f32) -> f32 {
    let from_score = 1.0 / (1.0 + (-(position.score as f32) / CENTIPAWNS_PER_UNIT).exp());
    let from_result = (position.result as f32 + 1.0) / 2.0;
    score_weight * from_score + (1.0 - score_weight) * from_result
}

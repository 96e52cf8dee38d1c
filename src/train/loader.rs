//! Training batches from the replay window: samples drawn uniformly at random, each under
//! a random board symmetry, decoded to dense arrays, prepared on a background thread so the
//! training step never waits for them.

use std::thread::Scope;

use crossbeam_channel::Receiver;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::{TrainSettings, Window};
use crate::nn::{transform_planes, Encoding};
use crate::selfplay::Targets;

/// A batch as the net takes it, sample after sample.
#[derive(Clone, Debug, PartialEq)]
pub struct Batch {
    /// Samples in the batch.
    pub size: usize,
    /// Input planes, `size × G::INPUT_SIZE`.
    pub planes: Vec<f32>,
    /// Policy targets, `size × G::POLICY_SIZE`, each row summing to 1 (or all 0 for a
    /// sample without a policy).
    pub policy: Vec<f32>,
    /// Per sample: 1 where the move was fully searched (a policy target), else 0
    /// (KataGo's playout-cap randomization: fast searches teach only the value).
    pub policy_weight: Vec<f32>,
    /// Outcome targets, `size × 3`: win, draw, loss for the player to move.
    pub value: Vec<f32>,
    /// The opponent's reply, `size × G::POLICY_SIZE`: a one-hot row, or all 0 after a
    /// game's last move (the reply policy's target).
    pub reply: Vec<f32>,
    /// Per sample: 1 where a reply was played, else 0.
    pub reply_weight: Vec<f32>,
}

/// The random stream of the batch for global step `step`: the same batch for the same
/// step and seed, however the steps are split into calls.
fn batch_rng(seed: u64, step: u64) -> StdRng {
    StdRng::seed_from_u64(seed ^ step.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// A batch of `settings.batch_size` samples drawn uniformly from `window` (which must not
/// be empty) with `rng`, each under a random symmetry of `G` when `settings.symmetries` is
/// set, with value targets mixed as `settings.root_value_weight` says.
pub fn make_batch<G: Encoding>(window: &Window, settings: &TrainSettings, rng: &mut impl Rng) -> Batch {
    assert!(!window.is_empty(), "a batch from an empty window");
    let TrainSettings { batch_size: size, symmetries, root_value_weight, .. } = *settings;
    let mut batch = Batch {
        size,
        planes: vec![0.0; size * G::INPUT_SIZE],
        policy: vec![0.0; size * G::POLICY_SIZE],
        policy_weight: Vec::with_capacity(size),
        value: Vec::with_capacity(size * 3),
        reply: vec![0.0; size * G::POLICY_SIZE],
        reply_weight: Vec::with_capacity(size),
    };
    let mut decoded = vec![0.0; G::INPUT_SIZE];
    let rows = batch
        .planes
        .chunks_exact_mut(G::INPUT_SIZE)
        .zip(batch.policy.chunks_exact_mut(G::POLICY_SIZE))
        .zip(batch.reply.chunks_exact_mut(G::POLICY_SIZE));
    for ((planes, policy), reply) in rows {
        let (samples, i) = window.sample(rng.random_range(0..window.len()));
        let sym = if symmetries { rng.random_range(0..G::SYMMETRIES) } else { 0 };
        samples.planes_into(i, &mut decoded);
        transform_planes::<G>(sym, &decoded, planes);
        let (labels, probs) = samples.policy(i);
        let sum: f32 = probs.iter().sum();
        for (&label, &p) in labels.iter().zip(probs) {
            policy[G::symmetry_label(sym, usize::from(label))] += p / sum;
        }
        let targets = samples.targets(i);
        batch.policy_weight.push(if targets.full && sum > 0.0 { 1.0 } else { 0.0 });
        batch.value.extend(value_target(&targets, root_value_weight));
        if let Some(label) = targets.reply {
            reply[G::symmetry_label(sym, usize::from(label))] = 1.0;
        }
        batch.reply_weight.push(if targets.reply.is_some() { 1.0 } else { 0.0 });
    }
    batch
}

/// The value target of a sample: its game's outcome and its root value mixed,
/// `(1 − w)·outcome + w·root`; for a game cut before its end (no outcome), the root value
/// when `w > 0`, else nothing (all 0: no value loss).
fn value_target(targets: &Targets, root_weight: f32) -> [f32; 3] {
    let has_outcome = targets.outcome.iter().sum::<f32>() > 0.0;
    let w = if has_outcome {
        root_weight
    } else if root_weight > 0.0 {
        1.0
    } else {
        0.0
    };
    std::array::from_fn(|i| (1.0 - w) * targets.outcome[i] + w * targets.root[i])
}

/// Spawns, in `scope`, a thread that prepares the batches of global steps `first_step..`
/// (`count` of them, `settings.batch_size` samples each, drawn with `settings.seed`) into a
/// channel holding up to `settings.prefetch`; it stops early when the receiver is dropped.
pub fn spawn_loader<'scope, 'env, G: Encoding>(
    scope: &'scope Scope<'scope, 'env>,
    window: &'env Window,
    settings: &TrainSettings,
    first_step: u64,
    count: u64,
) -> Receiver<Batch> {
    let (sender, receiver) = crossbeam_channel::bounded(settings.prefetch);
    let settings = settings.clone();
    scope.spawn(move || {
        for step in first_step..first_step + count {
            let batch = make_batch::<G>(window, &settings, &mut batch_rng(settings.seed, step));
            if sender.send(batch).is_err() {
                break;
            }
        }
    });
    receiver
}

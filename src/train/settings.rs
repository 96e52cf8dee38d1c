//! The `[train]` table of a training config: batch size, how many optimiser steps each
//! generation of new samples buys, the optimiser and its learning-rate schedule, and the
//! replay window's size as the run grows.

use crate::nn::Precision;
use serde::{Deserialize, Serialize};

/// The optimiser.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OptimizerKind {
    /// SGD with Nesterov momentum (`momentum`), as KataGo and lc0 train.
    Sgd,
    /// Adam (β₁ 0.9, β₂ 0.999).
    Adam,
}

/// The learning rate's course (after the linear warm-up): over the global step, or over the
/// run's budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Schedule {
    /// `learning_rate` throughout.
    Constant,
    /// Half a cosine from `learning_rate` down to `learning_rate × final_lr_fraction`
    /// at `total_steps`, then flat.
    Cosine,
    /// `learning_rate × decay_factor^⌊step / decay_steps⌋`.
    Step,
    /// `learning_rate` until the run has spent `anneal_from` of its budget, then half a
    /// cosine down to `learning_rate × final_lr_fraction` at its end. The budget is the
    /// run's generations from where it started, or its minutes (`train --minutes`, on the
    /// run's own clock) where they run out first; a resumed run keeps its course when
    /// `--minutes` gives what is left of them, as `scripts/train-within.sh` does.
    Anneal,
}

/// Training settings (`[train]` in the config). Every key has a default; unknown keys are
/// refused.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TrainSettings {
    /// Samples per optimiser step.
    pub batch_size: usize,
    /// How many times, on average, each new sample is trained on: a generation of `n` new
    /// samples gets `ceil(n × sample_reuse / batch_size)` steps (KataGo's
    /// `max-train-bucket-per-new-data`, 4 by default).
    pub sample_reuse: f64,
    /// The fewest steps a generation gets.
    pub min_steps: u64,
    /// The most steps a generation gets.
    pub max_steps: u64,
    /// The optimiser.
    pub optimizer: OptimizerKind,
    /// The products of the 3×3 convolutions and their gradients: `fp32`, or `bf16` (summed
    /// in f32; where the CPU has AMX, else fp32). Master weights and the optimiser stay f32.
    pub precision: Precision,
    /// The peak learning rate (after warm-up).
    pub learning_rate: f64,
    /// SGD's (Nesterov) momentum; unused by Adam.
    pub momentum: f64,
    /// L2 penalty on every weight, applied by the optimiser.
    pub weight_decay: f64,
    /// The learning rate's course.
    pub schedule: Schedule,
    /// `cosine`: steps from the peak to the floor.
    pub total_steps: u64,
    /// `cosine` and `anneal`: the floor, as a fraction of `learning_rate`.
    pub final_lr_fraction: f64,
    /// `anneal`: the share of the run's budget spent at the full rate.
    pub anneal_from: f64,
    /// `step`: the factor applied every `decay_steps`.
    pub decay_factor: f64,
    /// `step`: steps between decays.
    pub decay_steps: u64,
    /// Steps of linear warm-up from 0 to the scheduled rate.
    pub warmup_steps: u64,
    /// The net a generation publishes (for self-play, evaluation and play) is the mean of
    /// the trainer's weights after this many generations, its own and the ones before
    /// (stochastic weight averaging; 1: the trainer's own). The trainer goes on from its
    /// own weights, saved beside the mean.
    pub average_generations: u32,
    /// The window's scale `c`: every sample is in the window until `c` have been
    /// written; beyond, the window grows as KataGo's,
    /// `c · (1 + β · ((N/c)^α − 1) / α)` for `N` samples written.
    pub window_min: u64,
    /// The window's growth exponent `α` (0 < α ≤ 1; 1 keeps every sample).
    pub window_alpha: f64,
    /// The window's growth rate `β` (the fraction of new samples the window grows by
    /// when `N = c`).
    pub window_beta: f64,
    /// The largest window, in samples.
    pub window_max: u64,
    /// Batches the loader prepares ahead of the training step.
    pub prefetch: usize,
    /// Whether each sample is shown under a random board symmetry (data augmentation).
    pub symmetries: bool,
    /// The share of the search's root value in the value target, the rest being the
    /// game's outcome (0: AlphaZero's pure outcome). A game cut before its end has no
    /// outcome: its samples' target is then the root value alone, or none at 0.
    pub root_value_weight: f32,
    /// Seed of the loader's sampling (combined with the global step, so a resumed run
    /// draws the batches it would have drawn).
    pub seed: u64,
}

impl Default for TrainSettings {
    fn default() -> TrainSettings {
        TrainSettings {
            batch_size: 256,
            sample_reuse: 4.0,
            min_steps: 1,
            max_steps: 10_000,
            optimizer: OptimizerKind::Sgd,
            precision: Precision::F32,
            learning_rate: 0.02,
            momentum: 0.9,
            weight_decay: 1e-4,
            schedule: Schedule::Constant,
            total_steps: 100_000,
            final_lr_fraction: 0.01,
            anneal_from: 0.75,
            decay_factor: 0.1,
            decay_steps: 50_000,
            warmup_steps: 100,
            average_generations: 1,
            window_min: 250_000,
            window_alpha: 0.65,
            window_beta: 0.4,
            window_max: 2_000_000,
            prefetch: 4,
            symmetries: true,
            root_value_weight: 0.0,
            seed: 0,
        }
    }
}

impl TrainSettings {
    /// Checks every value, naming the first bad key.
    pub fn validate(&self) -> Result<(), String> {
        let check =
            |ok: bool, key: &str, want: &str| if ok { Ok(()) } else { Err(format!("train.{key} must be {want}")) };
        let finite = |x: f64| x.is_finite();
        check(self.batch_size >= 1, "batch_size", "at least 1")?;
        check(self.precision != Precision::Int8, "precision", "fp32 or bf16 (int8 is for the forward pass only)")?;
        check((0.0..=1.0).contains(&self.root_value_weight), "root_value_weight", "from 0 to 1")?;
        check(finite(self.sample_reuse) && self.sample_reuse > 0.0, "sample_reuse", "a positive number")?;
        check(self.max_steps >= 1, "max_steps", "at least 1")?;
        check(self.min_steps <= self.max_steps, "min_steps", "at most max_steps")?;
        check(finite(self.learning_rate) && self.learning_rate > 0.0, "learning_rate", "a positive number")?;
        check((0.0..1.0).contains(&self.momentum), "momentum", "from 0 up to (not including) 1")?;
        check(finite(self.weight_decay) && self.weight_decay >= 0.0, "weight_decay", "0 or more")?;
        check(self.total_steps >= 1, "total_steps", "at least 1")?;
        check((0.0..=1.0).contains(&self.final_lr_fraction), "final_lr_fraction", "from 0 to 1")?;
        check((0.0..1.0).contains(&self.anneal_from), "anneal_from", "from 0 up to (not including) 1")?;
        check(self.decay_factor > 0.0 && self.decay_factor <= 1.0, "decay_factor", "above 0 and at most 1")?;
        check(self.decay_steps >= 1, "decay_steps", "at least 1")?;
        check(self.average_generations >= 1, "average_generations", "at least 1")?;
        check(self.window_min >= 1, "window_min", "at least 1")?;
        check(self.window_alpha > 0.0 && self.window_alpha <= 1.0, "window_alpha", "above 0 and at most 1")?;
        check(finite(self.window_beta) && self.window_beta >= 0.0, "window_beta", "0 or more")?;
        check(self.window_max >= self.window_min, "window_max", "at least window_min")?;
        check(self.prefetch >= 1, "prefetch", "at least 1")?;
        Ok(())
    }

    /// The learning rate of global step `step` (counted from 0) when the run has spent
    /// `course` of its budget (0 to 1): the schedule's rate, scaled by
    /// `(step + 1) / warmup_steps` during the warm-up.
    pub fn learning_rate_at(&self, step: u64, course: f64) -> f64 {
        let scheduled = match self.schedule {
            Schedule::Constant => self.learning_rate,
            Schedule::Cosine => {
                let t = step.min(self.total_steps) as f64 / self.total_steps as f64;
                self.learning_rate * half_cosine(t, self.final_lr_fraction)
            }
            Schedule::Step => {
                let decays = (step / self.decay_steps).min(i32::MAX as u64) as i32;
                self.learning_rate * self.decay_factor.powi(decays)
            }
            Schedule::Anneal => {
                let t = ((course - self.anneal_from) / (1.0 - self.anneal_from)).clamp(0.0, 1.0);
                self.learning_rate * half_cosine(t, self.final_lr_fraction)
            }
        };
        if step < self.warmup_steps {
            scheduled * (step + 1) as f64 / self.warmup_steps as f64
        } else {
            scheduled
        }
    }

    /// Optimiser steps for a generation that wrote `new_samples`: [`Self::steps_to_reuse`]
    /// them, within `min_steps..=max_steps`.
    pub fn steps_for(&self, new_samples: u64) -> u64 {
        self.steps_to_reuse(new_samples).clamp(self.min_steps, self.max_steps)
    }

    /// Optimiser steps that train on each of `samples` samples `sample_reuse` times on
    /// average.
    pub fn steps_to_reuse(&self, samples: u64) -> u64 {
        (samples as f64 * self.sample_reuse / self.batch_size as f64).ceil() as u64
    }

    /// The replay window, in samples, once `total_samples` have been written: all of
    /// them up to `window_min`, then KataGo's power law, at most `window_max`.
    pub fn window_size(&self, total_samples: u64) -> u64 {
        let c = self.window_min as f64;
        let n = total_samples as f64;
        if total_samples <= self.window_min {
            return total_samples;
        }
        let (alpha, beta) = (self.window_alpha, self.window_beta);
        let window = c * (1.0 + beta * ((n / c).powf(alpha) - 1.0) / alpha);
        (window as u64).min(total_samples).min(self.window_max)
    }
}

/// Half a cosine at `t` from 0 to 1: from 1 down to `floor`.
fn half_cosine(t: f64, floor: f64) -> f64 {
    floor + (1.0 - floor) * (1.0 + (std::f64::consts::PI * t).cos()) / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-12 * b.abs().max(1.0)
    }

    #[test]
    fn warm_up_is_linear_then_the_constant_rate() {
        let s = TrainSettings { learning_rate: 0.1, warmup_steps: 4, ..TrainSettings::default() };
        let rates: Vec<f64> = (0..6).map(|step| s.learning_rate_at(step, 0.0)).collect();
        for (rate, expected) in rates.iter().zip([0.025, 0.05, 0.075, 0.1, 0.1, 0.1]) {
            assert!(close(*rate, expected), "{rates:?}");
        }
    }

    #[test]
    fn cosine_goes_from_the_peak_through_the_midpoint_to_the_floor() {
        let s = TrainSettings {
            learning_rate: 1.0,
            schedule: Schedule::Cosine,
            total_steps: 100,
            final_lr_fraction: 0.1,
            warmup_steps: 0,
            ..TrainSettings::default()
        };
        assert!(close(s.learning_rate_at(0, 0.0), 1.0));
        // Halfway: cos(π/2) = 0, so 0.1 + 0.9 / 2.
        assert!(close(s.learning_rate_at(50, 0.0), 0.55));
        // A quarter: 0.1 + 0.9 · (1 + √2/2) / 2.
        assert!(close(s.learning_rate_at(25, 0.0), 0.1 + 0.9 * (1.0 + 0.5f64.sqrt()) / 2.0));
        assert!(close(s.learning_rate_at(100, 0.0), 0.1));
        assert!(close(s.learning_rate_at(1000, 0.0), 0.1));
    }

    #[test]
    fn step_decay_multiplies_every_decay_steps() {
        let s = TrainSettings {
            learning_rate: 0.2,
            schedule: Schedule::Step,
            decay_factor: 0.5,
            decay_steps: 10,
            warmup_steps: 0,
            ..TrainSettings::default()
        };
        for (step, expected) in [(0, 0.2), (9, 0.2), (10, 0.1), (19, 0.1), (20, 0.05), (35, 0.025)] {
            assert!(close(s.learning_rate_at(step, 0.0), expected), "step {step}: {}", s.learning_rate_at(step, 0.0));
        }
    }

    #[test]
    fn anneal_holds_the_rate_then_falls_over_the_last_part_of_the_run() {
        let s = TrainSettings {
            learning_rate: 1.0,
            schedule: Schedule::Anneal,
            anneal_from: 0.6,
            final_lr_fraction: 0.1,
            warmup_steps: 0,
            ..TrainSettings::default()
        };
        // The step does not matter, the run's course does.
        for (step, course, expected) in [(0, 0.0, 1.0), (5000, 0.3, 1.0), (9, 0.6, 1.0), (7, 1.0, 0.1), (7, 1.5, 0.1)] {
            assert!(
                close(s.learning_rate_at(step, course), expected),
                "{course}: {}",
                s.learning_rate_at(step, course)
            );
        }
        // Halfway through the last 40%: 0.1 + 0.9 / 2.
        assert!(close(s.learning_rate_at(3, 0.8), 0.55));
        let bad = TrainSettings { anneal_from: 1.0, ..s };
        assert!(bad.validate().unwrap_err().contains("train.anneal_from"));
    }

    #[test]
    fn the_window_keeps_everything_then_grows_as_a_power_law() {
        let s = TrainSettings {
            window_min: 1000,
            window_alpha: 0.5,
            window_beta: 0.5,
            window_max: 2500,
            ..TrainSettings::default()
        };
        assert_eq!(s.window_size(0), 0);
        assert_eq!(s.window_size(700), 700);
        assert_eq!(s.window_size(1000), 1000);
        // N = 4c: 1000 · (1 + 0.5 · (2 − 1) / 0.5) = 2000.
        assert_eq!(s.window_size(4000), 2000);
        // N = 2.25c: 1000 · (1 + 0.5 · (1.5 − 1) / 0.5) = 1500.
        assert_eq!(s.window_size(2250), 1500);
        // N = 9c: 1000 · (1 + 0.5 · 2 / 0.5) = 3000, capped at 2500.
        assert_eq!(s.window_size(9000), 2500);
        // α = 1, β = 1 keeps every sample.
        let all = TrainSettings { window_alpha: 1.0, window_beta: 1.0, window_max: u64::MAX, ..s };
        assert_eq!(all.window_size(123_456), 123_456);
    }

    #[test]
    fn steps_per_generation_round_up_and_clamp() {
        let s = TrainSettings { batch_size: 100, sample_reuse: 2.0, min_steps: 3, max_steps: 50, ..Default::default() };
        assert_eq!(s.steps_for(1000), 20);
        assert_eq!(s.steps_for(1001), 21);
        assert_eq!(s.steps_for(10), 3);
        assert_eq!(s.steps_for(100_000), 50);
    }

    #[test]
    fn defaults_are_valid_and_bad_values_are_named() {
        TrainSettings::default().validate().unwrap();
        let bad = TrainSettings { min_steps: 5, max_steps: 4, ..Default::default() };
        assert!(bad.validate().unwrap_err().contains("train.min_steps"));
        let bad = TrainSettings { window_alpha: 0.0, ..Default::default() };
        assert!(bad.validate().unwrap_err().contains("train.window_alpha"));
        let bad = TrainSettings { learning_rate: f64::NAN, ..Default::default() };
        assert!(bad.validate().unwrap_err().contains("train.learning_rate"));
    }

    #[test]
    fn toml_keys_and_enums_parse_and_unknown_keys_are_refused() {
        let s: TrainSettings = toml::from_str("optimizer = \"adam\"\nschedule = \"cosine\"\nbatch_size = 64").unwrap();
        assert_eq!((s.optimizer, s.schedule, s.batch_size), (OptimizerKind::Adam, Schedule::Cosine, 64));
        assert_eq!(s.precision, Precision::F32);
        let s: TrainSettings = toml::from_str("precision = \"bf16\"").unwrap();
        assert_eq!(s.precision, Precision::Bf16);
        assert!(toml::from_str::<TrainSettings>("precision = \"fp16\"").is_err());
        let int8: TrainSettings = toml::from_str("precision = \"int8\"").unwrap();
        assert!(int8.validate().unwrap_err().contains("train.precision"));
        assert_eq!(s.learning_rate, TrainSettings::default().learning_rate);
        let error = toml::from_str::<TrainSettings>("batch_sise = 64").unwrap_err().to_string();
        assert!(error.contains("batch_sise"), "{error}");
    }
}

//! The trainer: it drives the loss down on a tiny fixed set of real samples; a save and
//! load (model, optimiser state, step) carries on exactly as not saving would; a missing,
//! corrupt or foreign optimiser state is a one-line error naming the file.

mod train_common;

use std::path::Path;
use std::sync::atomic::AtomicBool;

use burn::tensor::Device;
use indicatif::ProgressBar;
use train_common::{shard, temp_dir, xiangqi_samples};
use xiangqi_zero::game::xiangqi::Xiangqi;
use xiangqi_zero::nn::{Net, NetConfig};
use xiangqi_zero::selfplay::SampleShape;
use xiangqi_zero::train::{OptimizerKind, TrainError, TrainSettings, Trainer, Window};

/// A window over one shard of `count` real Xiangqi samples in a fresh directory.
fn window(name: &str, count: usize) -> (Window, std::path::PathBuf) {
    let dir = temp_dir(name);
    let games = dir.join("games");
    std::fs::create_dir_all(&games).unwrap();
    shard(&games, "gen0001-a.npz", &xiangqi_samples(count, 4).0);
    let mut window = Window::new(&games, SampleShape::of::<Xiangqi>());
    window.refresh(&TrainSettings::default()).unwrap();
    (window, dir)
}

fn settings(optimizer: OptimizerKind, learning_rate: f64) -> TrainSettings {
    TrainSettings { batch_size: 32, optimizer, learning_rate, warmup_steps: 10, ..TrainSettings::default() }
}

fn trainer(settings: &TrainSettings) -> Trainer {
    let device = Device::flex().autodiff();
    device.seed(3);
    Trainer::new(Net::new(NetConfig::new::<Xiangqi>(1, 16), &device), settings)
}

fn train(trainer: &mut Trainer, window: &Window, steps: u64) -> xiangqi_zero::train::TrainReport {
    trainer.train::<Xiangqi>(window, steps, 0.0, &AtomicBool::new(false), &ProgressBar::hidden())
}

#[test]
fn the_loss_falls_on_a_tiny_fixed_set() {
    let (window, dir) = window("trainer-learns", 48);
    for (kind, lr) in [(OptimizerKind::Adam, 3e-3), (OptimizerKind::Sgd, 0.05)] {
        let mut trainer = trainer(&settings(kind, lr));
        let first = train(&mut trainer, &window, 20);
        train(&mut trainer, &window, 260);
        let last = train(&mut trainer, &window, 20);
        assert_eq!((first.steps, last.steps, trainer.step()), (20, 20, 300));
        assert!(last.loss < first.loss / 3.0, "{kind:?}: the loss fell only from {} to {}", first.loss, last.loss);
        assert!(last.policy_entropy < first.policy_entropy, "{kind:?}: {first:?} then {last:?}");
        assert!(last.value_accuracy > first.value_accuracy, "{kind:?}: {first:?} then {last:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn stopping_ends_training_before_the_first_step() {
    let (window, dir) = window("trainer-stop", 8);
    let mut trainer = trainer(&settings(OptimizerKind::Sgd, 0.01));
    let report = trainer.train::<Xiangqi>(&window, 50, 0.0, &AtomicBool::new(true), &ProgressBar::hidden());
    assert_eq!((report.steps, trainer.step()), (0, 0));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Relative difference.
fn differ(a: f64, b: f64) -> f64 {
    (a - b).abs() / a.abs().max(b.abs())
}

#[test]
fn a_saved_and_loaded_trainer_carries_on_as_if_never_saved() {
    let (window, dir) = window("trainer-resume", 48);
    let (model, state) = (dir.join("model.safetensors"), dir.join("model.optimizer"));
    for (kind, lr) in [(OptimizerKind::Adam, 3e-3), (OptimizerKind::Sgd, 0.05)] {
        let settings = settings(kind, lr);
        let mut original = trainer(&settings);
        train(&mut original, &window, 30);
        original.save(&model, &state).unwrap();
        let kept = train(&mut original, &window, 10);

        let device = Device::flex().autodiff();
        let mut resumed =
            Trainer::load::<Xiangqi>(&model, &state, 30, NetConfig::new::<Xiangqi>(1, 16), &settings, &device).unwrap();
        let again = train(&mut resumed, &window, 10);
        // The same batches (drawn by global step), the same weights and optimiser state:
        // the same losses. On the 2-core CPU they agree to the bit; the tolerance leaves room
        // for kernels whose float sums depend on the thread count or device (GPU atomics).
        assert!(differ(kept.loss, again.loss) < 1e-4, "{kind:?}: {} then {}", kept.loss, again.loss);
        assert_eq!(resumed.step(), 40);

        // Without the optimiser's state (a fresh optimiser's empty state, on the same net
        // at the same step) the run goes elsewhere: the state is what made the two agree.
        let empty = dir.join("empty.optimizer");
        Trainer::new(Net::load::<Xiangqi>(&model, None, &device).unwrap(), &settings)
            .save(&dir.join("unused.safetensors"), &empty)
            .unwrap();
        let mut fresh =
            Trainer::load::<Xiangqi>(&model, &empty, 30, NetConfig::new::<Xiangqi>(1, 16), &settings, &device).unwrap();
        let fresh_report = train(&mut fresh, &window, 10);
        assert!(differ(kept.loss, fresh_report.loss) > 1e-3, "{kind:?}: {} and {}", kept.loss, fresh_report.loss);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `error`'s message: one line naming `path`.
fn assert_names(error: TrainError, path: &Path) -> String {
    let message = error.to_string();
    assert!(message.contains(&path.display().to_string()) && !message.contains('\n'), "{message}");
    message
}

#[test]
fn missing_corrupt_truncated_or_foreign_optimizer_state_is_a_one_line_error() {
    let dir = temp_dir("trainer-corrupt");
    let (model, state) = (dir.join("model.safetensors"), dir.join("model.optimizer"));
    let adam = settings(OptimizerKind::Adam, 1e-3);
    let (window, games_dir) = window("trainer-corrupt-games", 8);
    let mut trainer = trainer(&adam);
    train(&mut trainer, &window, 2);
    trainer.save(&model, &state).unwrap();
    let device = Device::flex().autodiff();
    let load = |settings: &TrainSettings| {
        Trainer::load::<Xiangqi>(&model, &state, 2, NetConfig::new::<Xiangqi>(1, 16), settings, &device)
    };
    assert!(load(&adam).is_ok());

    let message = assert_names(load(&settings(OptimizerKind::Sgd, 0.01)).err().unwrap(), &state);
    assert!(message.contains("adam") && message.contains("sgd"), "{message}");

    let whole = std::fs::read(&state).unwrap();
    for cut in [whole.len() / 2, 20, 3] {
        std::fs::write(&state, &whole[..cut]).unwrap();
        assert_names(load(&adam).err().unwrap(), &state);
    }
    let mut garbled = whole.clone();
    let at = garbled.len() - 100;
    garbled[at..].fill(0xff);
    std::fs::write(&state, &garbled).unwrap();
    assert_names(load(&adam).err().unwrap(), &state);
    std::fs::write(&state, b"definitely not an optimizer state").unwrap();
    assert_names(load(&adam).err().unwrap(), &state);
    std::fs::remove_file(&state).unwrap();
    assert_names(load(&adam).err().unwrap(), &state);
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&games_dir);
}

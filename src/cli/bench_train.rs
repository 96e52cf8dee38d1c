//! `bench train`: the training step's speed on the reference net, beside PyTorch's in the
//! same run.

use std::time::Instant;

use anyhow::bail;

use super::bench_peer::{pytorch_peer, PyTorchJob};
use super::bench_stats::{reference_games, versus};
use xiangqi_zero::game::xiangqi::Xiangqi;
use xiangqi_zero::game::Game;
use xiangqi_zero::nn::bf16::has_bf16;
use xiangqi_zero::nn::NetConfig;
use xiangqi_zero::nn::Precision;

/// Training speed of the reference net (see `What::Train`).
pub(super) fn train(
    runs: u32,
    steps: u64,
    config: NetConfig,
    batch_size: usize,
    precision: Precision,
) -> anyhow::Result<()> {
    use std::sync::atomic::AtomicBool;
    use xiangqi_zero::nn::{Encoding, Net};
    use xiangqi_zero::selfplay::{write_shard, SampleShape, Samples, Targets};
    use xiangqi_zero::train::{make_batch, OptimizerKind, TrainSettings, Trainer, Window};

    if precision == Precision::Bf16 && !has_bf16() {
        bail!("this CPU has no bf16 products (AMX with AVX512-BF16): `--precision fp32`");
    }
    let settings = TrainSettings {
        optimizer: OptimizerKind::Adam,
        learning_rate: 1e-3,
        batch_size,
        precision,
        ..TrainSettings::default()
    };
    // Shards of real positions, a policy over up to eight legal moves each, in a
    // temporary games directory.
    let dir = std::env::temp_dir().join(format!("xiangqi-zero-bench-train-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let mut moves = Vec::new();
    for (shard, games) in reference_games(4096).chunks(1024).enumerate() {
        let mut samples = Samples::new(SampleShape::of::<Xiangqi>());
        let mut planes = vec![0.0; Xiangqi::INPUT_SIZE];
        for (i, game) in games.iter().enumerate() {
            game.encode(&mut planes);
            game.legal_moves(&mut moves);
            let chosen = &moves[..moves.len().min(8)];
            let policy: Vec<(usize, f32)> =
                chosen.iter().map(|&mv| (game.move_label(mv), 1.0 / chosen.len() as f32)).collect();
            let targets =
                Targets { outcome: [0.0, 1.0, 0.0], root: [0.3, 0.4, 0.3], full: i % 4 != 0, ply: 0, reply: None };
            samples.push(&planes, &policy, targets);
        }
        write_shard(&dir.join(format!("gen{shard:04}-bench.npz")), &samples)?;
    }
    let mut window = Window::new(&dir, SampleShape::of::<Xiangqi>());
    window.refresh(&settings)?;
    let _ = std::fs::remove_dir_all(&dir);

    let device = burn::tensor::Device::flex().autodiff();
    let net = Net::new(config, &device);
    let weights = burn::module::Module::num_params(&net) as u64;
    let mut trainer = Trainer::new(net, &settings);
    let batch = make_batch::<Xiangqi>(&window, &settings, &mut rand::rng());
    let (stop, bar) = (AtomicBool::new(false), indicatif::ProgressBar::hidden());
    let threads = rayon::current_num_threads();
    println!(
        "train: {config}, {weights} weights, batch {}, Adam, {} products, {threads} thread(s), {} samples in the window",
        settings.batch_size,
        precision.name(),
        window.len()
    );
    let job = PyTorchJob {
        config: &config,
        threads,
        runs,
        forward_batches: &[],
        train_batch: settings.batch_size,
        weight_decay: settings.weight_decay,
    };
    let pytorch = pytorch_peer(&job, weights).map(|p| p.train);
    if let Some(rate) = pytorch {
        println!("train PyTorch step batch {}: {rate:.0} samples/s", settings.batch_size);
    }
    trainer.train_step(batch.clone(), 1e-3);
    // Each run times the raw step on one prepared batch, then the trainer fed by the
    // loader, so that both see the same machine; the median run by ratio is reported.
    let mut runs: Vec<(f64, f64)> = (0..runs)
        .map(|_| {
            let started = Instant::now();
            for _ in 0..steps {
                trainer.train_step(batch.clone(), 1e-3);
            }
            let raw = (steps as usize * settings.batch_size) as f64 / started.elapsed().as_secs_f64();
            (raw, trainer.train::<Xiangqi>(&window, steps, 0.0, &stop, &bar).samples_per_second)
        })
        .collect();
    runs.sort_by(|a, b| (a.1 / a.0).total_cmp(&(b.1 / b.0)));
    let (raw, fed) = runs[runs.len() / 2];
    println!("train raw step batch {}: {raw:.0} samples/s{}", settings.batch_size, versus(raw, pytorch, "PyTorch"));
    println!(
        "train trainer+loader from shards batch {}: {fed:.0} samples/s, {:.3}x the raw step (aim 0.9)",
        settings.batch_size,
        fed / raw
    );
    Ok(())
}

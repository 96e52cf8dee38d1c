//! `bench nn`: the forward pass and training step of a net, ours beside burn's and the
//! peers', all in the same run on the same threads. ONNX Runtime runs the net's own ONNX
//! export by turns with ours, a round each, so that a noisy machine slows both alike; the
//! figures are medians over rounds. Each forward line also gives our share of the CPU's
//! peak for the net's direct multiply-add count.

use burn::module::Module;
use burn::optim::{AdamConfig, GradientsParams};
use burn::tensor::{Device, Tensor, TensorData};
use xiangqi_zero::game::xiangqi::Xiangqi;
use xiangqi_zero::nn::bf16::has_bf16;
use xiangqi_zero::nn::conv3x3;
use xiangqi_zero::nn::int8::{has_amx_int8, has_vnni};
use xiangqi_zero::nn::loss::{losses, LossTargets};
use xiangqi_zero::nn::Precision;
use xiangqi_zero::nn::{onnx, CpuNet, Encoding, Net, NetConfig, NetInfo, PolicyHead, Provenance};

use super::bench_peer::{pytorch_peer, PyTorchJob};
use super::bench_stats::{median, reference_games, timed_rate, versus};
use super::onnxruntime::{onnxruntime, write_inputs, OrtJob};

/// The batch sizes of the forward figures.
const BATCHES: [usize; 4] = [1, 16, 64, 256];
/// The batch of the training figure.
const TRAIN_BATCH: usize = 256;

/// Forward and training speed of the net of shape `config` (see `What::Nn`).
pub(super) fn nn(runs: u32, config: NetConfig) {
    let threads = rayon::current_num_threads();
    let device = Device::flex();
    let net = Net::new(config, &device.clone().autodiff()).valid();
    let weights = net.num_params() as u64;
    // Ours in each precision (play runs bf16 where the CPU has AMX, self-play int8 where it has VNNI).
    let mut ours: Vec<CpuNet> = Precision::available().into_iter().map(|p| CpuNet::in_precision(&net, p)).collect();
    let positions: Vec<f32> = reference_games(TRAIN_BATCH)
        .iter()
        .flat_map(|game| {
            let mut planes = vec![0.0; Xiangqi::INPUT_SIZE];
            game.encode(&mut planes);
            planes
        })
        .collect();
    let flops = forward_flops(&config);
    println!("nn: {config}, {weights} weights (batch-norm running statistics included), {threads} thread(s)");
    let peaks = Peaks::of_this_cpu(threads);
    println!("{}", peaks.describe(flops));
    let job = PyTorchJob {
        config: &config,
        threads,
        runs,
        forward_batches: &BATCHES,
        train_batch: TRAIN_BATCH,
        weight_decay: 0.0,
    };
    let pytorch = pytorch_peer(&job, weights);

    // Rounds: ONNX Runtime's runs (fp32, and int8 where ours runs int8), then ours at
    // every batch.
    let files = OnnxFiles::write(&net, &positions);
    let mut ort_error = files.as_ref().err().cloned();
    let mut ort_version = String::new();
    let ort_precisions: Vec<Precision> =
        ours.iter().map(CpuNet::precision).filter(|&p| p == Precision::F32 || p == Precision::Int8).collect();
    let mut ort_rates = vec![vec![Vec::new(); BATCHES.len()]; ort_precisions.len()];
    let mut burn_rates = vec![Vec::new(); BATCHES.len()];
    let mut our_rates = vec![vec![Vec::new(); BATCHES.len()]; ours.len()];
    for round in 0..runs {
        for (&precision, ort_rates) in ort_precisions.iter().zip(&mut ort_rates) {
            let (Ok(files), None) = (&files, &ort_error) else { break };
            let job = OrtJob {
                model: &files.model,
                inputs: &files.inputs,
                threads,
                runs: 1,
                forward_batches: &BATCHES,
                check: round == 0 && precision == Precision::F32,
                int8: precision == Precision::Int8,
            };
            match onnxruntime(&job) {
                Ok(ort) => {
                    if let Some((policy, value)) = ort.differences {
                        ort_version = ort.version.clone();
                        println!(
                            "ONNX Runtime {}: measured in this run by turns with ours, on the same net's ONNX export \
                             (largest difference from our logits: policy {policy:.1e}, value {value:.1e}){}",
                            ort.version,
                            if ort_precisions.contains(&Precision::Int8) {
                                "; in int8 by its own static quantization (QDQ, per-channel int8 weights, uint8 \
                                 activations calibrated on the same positions)"
                            } else {
                                ""
                            }
                        );
                    }
                    for (i, &(_, rate)) in ort.forward.iter().enumerate() {
                        ort_rates[i].push(rate);
                    }
                }
                Err(why) => ort_error = Some(why),
            }
        }
        for (i, &batch) in BATCHES.iter().enumerate() {
            let input = &positions[..batch * config.input_size()];
            burn_rates[i].push(timed_rate(1, batch, || {
                let _ = net.infer(input.to_vec(), batch);
            }));
            let (mut policy, mut value) = (vec![0.0; batch * config.policy_size], vec![0.0; batch * 3]);
            for (fast, rates) in ours.iter_mut().zip(&mut our_rates) {
                rates[i].push(timed_rate(1, batch, || fast.forward(input, batch, &mut policy, &mut value)));
            }
        }
    }
    if let Some(why) = &ort_error {
        println!("ONNX Runtime: not measured ({why})");
    }
    for (i, &batch) in BATCHES.iter().enumerate() {
        let torch = pytorch.as_ref().and_then(|p| p.forward.iter().find(|f| f.0 == batch)).map(|f| f.1);
        // ONNX Runtime's rate at batch `batch` in `precision`, where it ran so.
        let ort = |precision: Precision| {
            let at = ort_precisions.iter().position(|&p| p == precision)?;
            (ort_error.is_none() && !ort_rates[at][i].is_empty()).then(|| median(ort_rates[at][i].clone()))
        };
        if let Some(rate) = torch {
            println!("nn forward PyTorch fp32 batch {batch}: {rate:.0} positions/s");
        }
        for &precision in &ort_precisions {
            if let Some(rate) = ort(precision) {
                println!(
                    "nn forward ONNX Runtime {ort_version} {} batch {batch}: {rate:.0} positions/s",
                    precision.name()
                );
            }
        }
        let rate = median(burn_rates[i].clone());
        println!(
            "nn forward burn-flex fp32 batch {batch}: {rate:.0} positions/s{}",
            versus(rate, torch, "PyTorch fp32")
        );
        let mut f32_rate = None;
        for (fast, rates) in ours.iter().zip(&our_rates) {
            let rate = median(rates[i].clone());
            let precision = fast.precision();
            // Each peer at our precision only.
            let torch = torch.filter(|_| precision == Precision::F32);
            let against = versus(rate, ort(precision), &format!("ONNX Runtime {}", precision.name()))
                + &versus(rate, torch, "PyTorch fp32")
                + &versus(rate, f32_rate, "ours fp32")
                + &peaks.share(precision, rate * flops);
            println!("nn forward ours {} batch {batch}: {rate:.0} positions/s{against}", precision.name());
            f32_rate = f32_rate.or(Some(rate));
        }
    }
    train_step(runs, config, &positions, pytorch.map(|p| p.train));
}

/// The training step of a fresh net of shape `config` on `positions` (one Adam step a
/// batch of [`TRAIN_BATCH`]), in f32 and, where the CPU has bf16, with the convolutions'
/// products in bf16 (`[train] precision = "bf16"`), beside PyTorch's figure when there is one.
fn train_step(runs: u32, config: NetConfig, positions: &[f32], pytorch: Option<f64>) {
    let autodiff = Device::flex().autodiff();
    let mut trained = Net::new(config, &autodiff);
    let mut optimizer = AdamConfig::new().init();
    let input = trained.input(positions.to_vec(), TRAIN_BATCH);
    let mut policy = vec![0.0; TRAIN_BATCH * config.policy_size];
    for (i, chunk) in policy.chunks_mut(config.policy_size).enumerate() {
        chunk[i % config.policy_size] = 1.0;
    }
    let policy = Tensor::<2>::from_data(TensorData::new(policy, [TRAIN_BATCH, config.policy_size]), &autodiff);
    let value =
        Tensor::<2>::from_data(TensorData::new([1.0f32, 0.0, 0.0].repeat(TRAIN_BATCH), [TRAIN_BATCH, 3]), &autodiff);
    let weight = Tensor::<1>::ones([TRAIN_BATCH], &autodiff);
    if let Some(rate) = pytorch {
        println!("nn train PyTorch batch {TRAIN_BATCH} (Adam): {rate:.0} samples/s");
    }
    let mut f32_rate = None;
    for precision in Precision::available().into_iter().filter(|&p| p != Precision::Int8) {
        conv3x3::set_precision(precision);
        let rate = timed_rate(runs, TRAIN_BATCH, || {
            let targets = LossTargets {
                policy: policy.clone(),
                policy_weight: weight.clone(),
                value: value.clone(),
                reply: None,
            };
            let loss = losses(&trained.forward(input.clone()), targets).total;
            let grads = GradientsParams::from_grads(loss.backward(), &trained);
            trained = optimizer.step(1e-3, trained.clone(), grads);
        });
        let against = versus(rate, pytorch.filter(|_| precision == Precision::F32), "PyTorch fp32")
            + &versus(rate, f32_rate, "ours fp32");
        println!("nn train burn-flex {} batch {TRAIN_BATCH} (Adam): {rate:.0} samples/s{against}", precision.name());
        f32_rate = f32_rate.or(Some(rate));
    }
    conv3x3::set_precision(Precision::F32);
}

/// The net's ONNX export and the script's inputs, in a scratch directory removed on drop.
struct OnnxFiles {
    dir: std::path::PathBuf,
    model: std::path::PathBuf,
    inputs: std::path::PathBuf,
}

impl OnnxFiles {
    /// Writes `net` as ONNX and `positions` (with burn's outputs for them) as the inputs.
    fn write(net: &Net, positions: &[f32]) -> Result<OnnxFiles, String> {
        let dir = std::env::temp_dir().join(format!("xiangqi-zero-bench-nn-{}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let files = OnnxFiles { model: dir.join("net.onnx"), inputs: dir.join("positions.npz"), dir };
        let info = NetInfo::new(net.config, Provenance::default());
        std::fs::write(&files.model, onnx::model(net, &info)).map_err(|e| format!("{}: {e}", files.model.display()))?;
        let batch = positions.len() / net.config.input_size();
        write_inputs(&files.inputs, net, positions, batch).map_err(|e| format!("{}: {e}", files.inputs.display()))?;
        Ok(files)
    }
}

impl Drop for OnnxFiles {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Floating-point operations of one position's forward pass, counted directly (a
/// multiply-add is two): what a peak is a share of, whatever algorithm runs the convs.
fn forward_flops(config: &NetConfig) -> f64 {
    let NetConfig { planes, height, width, policy_size, blocks, channels, .. } = *config;
    let cells = height * width;
    let conv = |inputs: usize, outputs: usize, kernel: usize| 2 * cells * inputs * outputs * kernel * kernel;
    let trunk = conv(planes, channels, 3) + 2 * blocks * conv(channels, channels, 3);
    let policy = match config.policy_head {
        PolicyHead::Dense => conv(channels, 2, 1) + 2 * 2 * cells * policy_size,
        PolicyHead::Attention => 2 * conv(channels, channels, 1) + 2 * cells * cells * channels,
    };
    let value = conv(channels, 1, 1) + 2 * cells * 64 + 2 * 64 * 3;
    (trunk + policy + value) as f64
}

/// The CPU's peak floating-point rate on the threads used, from its features and clock.
struct Peaks {
    /// The clock in GHz (`/proc/cpuinfo`), if known.
    ghz: Option<f64>,
    /// Threads (taken as cores).
    cores: usize,
    /// fp32 operations a cycle a core: two FMA units of the widest vectors (256 bits on
    /// Zen 4, which splits AVX-512's).
    f32_per_cycle: f64,
    /// bf16 operations a cycle a core where bf16 runs (AMX: 1 024).
    bf16_per_cycle: Option<f64>,
    /// int8 operations a cycle a core: AMX-INT8's tiles, or four times fp32's where VNNI runs.
    int8_per_cycle: Option<f64>,
}

impl Peaks {
    /// The peaks of `cores` cores of this CPU.
    fn of_this_cpu(cores: usize) -> Peaks {
        #[cfg(target_arch = "x86_64")]
        let lanes = if std::arch::is_x86_feature_detected!("avx512f") {
            16.0
        } else if std::arch::is_x86_feature_detected!("fma") {
            8.0
        } else {
            4.0
        };
        #[cfg(not(target_arch = "x86_64"))]
        let lanes = 4.0;
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let field = |name: &str| {
            cpuinfo.lines().find(|line| line.starts_with(name)).and_then(|line| Some(line.split(':').nth(1)?.trim()))
        };
        let ghz = field("cpu MHz").and_then(|mhz| mhz.parse::<f64>().ok()).map(|mhz| mhz / 1000.0);
        // Zen 4 (AMD family 25) runs a 512-bit FMA as two 256-bit halves.
        let zen4 = field("vendor_id") == Some("AuthenticAMD") && field("cpu family") == Some("25");
        let lanes = if zen4 { f64::min(lanes, 8.0) } else { lanes };
        let f32_per_cycle = 2.0 * 2.0 * lanes;
        Peaks {
            ghz,
            cores,
            f32_per_cycle,
            // AMX: a 16 × 16 tile of sums over 32 bf16 or 64 int8 pairs every 16 cycles.
            bf16_per_cycle: has_bf16().then_some(1024.0),
            int8_per_cycle: if has_amx_int8() { Some(2048.0) } else { has_vnni().then_some(4.0 * f32_per_cycle) },
        }
    }

    /// The peak of `precision` in operations a second, if the clock is known.
    fn peak(&self, precision: Precision) -> Option<f64> {
        let per_cycle = match precision {
            Precision::F32 => Some(self.f32_per_cycle),
            Precision::Bf16 => self.bf16_per_cycle,
            Precision::Int8 => self.int8_per_cycle,
        }?;
        Some(per_cycle * self.cores as f64 * self.ghz? * 1e9)
    }

    /// A line with the peaks and the net's cost.
    fn describe(&self, flops: f64) -> String {
        let net = format!("the net: {:.1} MFLOP a position (direct count)", flops / 1e6);
        let Some(ghz) = self.ghz else {
            return format!("{net}; the CPU's clock is unknown, so no peak");
        };
        let gflops = |p: Option<f64>| p.map_or("-".to_string(), |p| format!("{:.0}", p / 1e9));
        format!(
            "{net}; peak of {} core(s) at {ghz:.2} GHz (the clock /proc/cpuinfo gives): fp32 {} GFLOP/s \
             (2 FMA units), bf16 {} GFLOP/s (AMX). Shares below are of the direct count: our 3×3 convs run as Winograd F(2×3, 3×3), with 2.7× \
             fewer multiplies on this board, so a share can pass 100%",
            self.cores,
            gflops(self.peak(Precision::F32)),
            gflops(self.peak(Precision::Bf16)),
        )
    }

    /// `, N% of the PRECISION peak` for `rate` operations a second, or nothing.
    fn share(&self, precision: Precision, rate: f64) -> String {
        self.peak(precision)
            .map_or(String::new(), |peak| format!(", {:.0}% of the {} peak", 100.0 * rate / peak, precision.name()))
    }
}

//! `bench selfplay`: self-play's simulations per second with a net, as training plays it,
//! in each precision this CPU runs.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::bail;

use xiangqi_zero::game::xiangqi::Xiangqi;
use xiangqi_zero::game::Game;
use xiangqi_zero::mcts::SearchConfig;
use xiangqi_zero::nn::NetConfig;
use xiangqi_zero::train::config::{Config, GameName};

/// What `bench selfplay` measures: a net (random weights), the self-play search and the
/// games each worker plays at once.
pub(super) struct SelfplaySetup {
    net: NetConfig,
    search: SearchConfig,
    games: usize,
    /// A trained net's weights; random ones when `None`.
    model: Option<PathBuf>,
}

impl SelfplaySetup {
    /// The 6×64 reference net under the training preset, `sims` simulations a full search
    /// (cheap searches the preset's, at most that), `batch` games at once.
    pub(super) fn reference(batch: usize, sims: u32) -> Self {
        let training = SearchConfig::training();
        let search = SearchConfig {
            simulations: sims,
            cheap_simulations: training.cheap_simulations.map(|cheap| cheap.min(sims)),
            batch_size: batch,
            ..training
        };
        SelfplaySetup { net: NetConfig::new::<Xiangqi>(6, 64), search, games: batch, model: None }
    }

    /// The net size, self-play search and games at once of the Xiangqi config at `path`,
    /// with `model`'s weights where given.
    pub(super) fn from_config(path: &std::path::Path, model: Option<PathBuf>) -> anyhow::Result<Self> {
        let config = Config::load(path)?;
        if config.game != GameName::Xiangqi {
            bail!("{}: `bench selfplay` measures Xiangqi configs", path.display());
        }
        let net = config.network.net_config::<Xiangqi>();
        Ok(SelfplaySetup { net, search: config.search, games: config.selfplay.parallel_games, model })
    }
}

/// Self-play speed against the network's (see `What::Selfplay`).
pub(super) fn selfplay(setup: SelfplaySetup, threads: usize, runs: u32, seconds: f64) -> anyhow::Result<()> {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;

    use burn::tensor::Device;
    use xiangqi_zero::mcts::Guided;
    use xiangqi_zero::nn::{CpuNet, Encoding, Inference, Net, NetEvaluator, Precision};
    use xiangqi_zero::selfplay::{on_worker_threads, play_games, SelfPlayJob, SelfPlayProgress, SelfPlaySettings};

    let SelfplaySetup { net: config, search, games, model } = setup;
    let (batch, sims) = (search.batch_size, search.simulations);
    let net = match &model {
        Some(path) => Net::load::<Xiangqi>(path, Some(config), &Device::flex())?,
        None => Net::new(config, &Device::flex()),
    };
    let precisions = Precision::available();
    let nets: Vec<CpuNet> = precisions.iter().map(|&p| CpuNet::in_precision(&net, p)).collect();
    let settings = SelfPlaySettings { threads, parallel_games: games, ..SelfPlaySettings::default() };
    settings.validate().map_err(anyhow::Error::msg)?;
    let workers = settings.workers();
    let dir = std::env::temp_dir().join(format!("xiangqi-zero-bench-selfplay-{}", std::process::id()));
    let job = SelfPlayJob {
        games: u64::MAX,
        new_game: Arc::new(|_: &mut rand::rngs::StdRng| Xiangqi::start()),
        out_dir: dir.clone(),
        prefix: "bench".to_string(),
        seed: 1,
    };
    // The start position's encoding, as many times as a batch holds.
    let mut planes = vec![0.0; Xiangqi::INPUT_SIZE];
    Xiangqi::start().encode(&mut planes);
    let input = planes.repeat(batch);
    let run_for = Duration::from_secs_f64(seconds);
    // Each run times, in each precision by turns, the net alone on the workers' threads,
    // then self-play, so that both see the same machine; the median run by ratio is
    // reported.
    let mut results: Vec<Vec<(f64, f64)>> = vec![Vec::new(); nets.len()];
    for _ in 0..runs {
        for (net, results) in nets.iter().zip(&mut results) {
            let started = Instant::now();
            let done: usize = on_worker_threads(workers, |_| {
                let mut net = net.clone();
                let (mut policy, mut value) = (vec![0.0; batch * config.policy_size], vec![0.0; batch * 3]);
                let mut done = 0;
                while started.elapsed() < run_for / 2 {
                    net.forward(&input, batch, &mut policy, &mut value);
                    done += batch;
                }
                done
            })
            .into_iter()
            .sum();
            let net_rate = done as f64 / started.elapsed().as_secs_f64();
            let stop = AtomicBool::new(false);
            let report = std::thread::scope(|scope| {
                scope.spawn(|| {
                    std::thread::sleep(run_for);
                    stop.store(true, Ordering::Relaxed);
                });
                let evaluator = Guided::new(NetEvaluator::new(Inference::Cpu(net.clone())), &search);
                play_games(evaluator, &search, &settings, &job, &stop, &SelfPlayProgress::new())
            })?;
            results.push((report.simulations_per_second(), net_rate));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    let weights = model.map_or("random weights".to_string(), |path| path.display().to_string());
    println!(
        "selfplay xiangqi {}×{} net ({weights}), {workers} worker(s) of {} thread(s), {games} games at once, batch {batch}, {sims} simulations, {:?} root, medians of {runs} by turns:",
        config.blocks,
        config.channels,
        (rayon::current_num_threads() / workers).max(1),
        search.root,
    );
    let mut fp32_rate = None;
    for (net, results) in nets.iter().zip(&mut results) {
        results.sort_by(|a, b| (a.0 / a.1).total_cmp(&(b.0 / b.1)));
        let (selfplay_rate, net_rate) = results[results.len() / 2];
        let fp32 = *fp32_rate.get_or_insert(selfplay_rate);
        let precision = net.precision();
        println!(
            "  {}: {selfplay_rate:.0} simulations/s ({:.2}x fp32's), {:.3}x the net's positions/s ({net_rate:.0}; aim 0.9){}",
            precision.name(),
            selfplay_rate / fp32,
            selfplay_rate / net_rate,
            if precision == Precision::fastest_for_this_cpu() { "; self-play's default here" } else { "" }
        );
    }
    Ok(())
}

//! `net:` — a trained network searched by MCTS as a player: `net:PATH` or
//! `net(sims=N,batch=B,root=puct|gumbel,device=cpu|N):PATH`, the net read from a
//! safetensors file our `train` or `export` wrote (its game, shape and encoding version
//! checked), evaluated by our CPU forward pass, or by burn on GPU `N` in a build with
//! `--features cuda` or `wgpu`. As an engine it is [`MctsPlayer`]'s (`go`, `Threads`,
//! `Batch`).

use std::path::{Path, PathBuf};

use burn::tensor::Device;

use super::mcts::MctsPlayer;
use super::Player;
use crate::mcts::SearchConfig;
use crate::nn::{Encoding, Net};
use crate::selfplay::{Inference, NetEvaluator};

/// The player of a `net:` spec: the net at `path` (of game `G`, any shape), searching
/// under `config`, on `device` (`cpu`, or a GPU index in a build with a GPU backend).
pub fn net_player<G: Encoding + Send + 'static>(
    path: &Path,
    config: &SearchConfig,
    device: &str,
    seed: u64,
) -> Result<Box<dyn Player<G>>, String> {
    let device = crate::nn::device::device(device)?;
    let net = Net::load::<G>(path, None, &Device::flex()).map_err(|e| e.to_string())?;
    let evaluator = NetEvaluator::new(Inference::for_device(&net, &device));
    Ok(Box::new(MctsPlayer::new(spec_name(path, config), config.clone(), evaluator, seed)))
}

/// The spec text of a net player: `net(sims=N):PATH`.
pub fn spec_name(path: &Path, config: &SearchConfig) -> String {
    format!("net(sims={}):{}", config.simulations, path.display())
}

/// The path, search config and device of a `net` spec's rest: `:PATH` or
/// `(options):PATH`, with the `mcts` options other than `eval`, and `device`.
pub fn parse(rest: &str, text: &str) -> Result<(PathBuf, SearchConfig, String), String> {
    let (options, path) = match rest.strip_prefix('(') {
        Some(inner) => {
            let close = inner.find("):").ok_or_else(|| format!("`{text}`: expected `net(options):PATH`"))?;
            (&inner[..close], &inner[close + 2..])
        }
        None => ("", rest.strip_prefix(':').unwrap_or(rest)),
    };
    if path.is_empty() {
        return Err(format!("`{text}`: no network file after `net:`"));
    }
    let mut pairs = Vec::new();
    let mut device = "cpu".to_string();
    for part in options.split(',').filter(|part| !part.trim().is_empty()) {
        match part.split_once('=') {
            Some(("eval", _)) => return Err(format!("`{text}`: a net player's evaluator is its net")),
            Some(("device", value)) => {
                crate::nn::device::device(value.trim()).map_err(|e| format!("`{text}`: {e}"))?;
                device = value.trim().to_string();
            }
            Some((key, value)) => pairs.push((key.trim(), value.trim())),
            None => return Err(format!("`{text}`: expected key=value, found `{part}`")),
        }
    }
    let (config, _) = super::mcts::parse_options(pairs.into_iter()).map_err(|e| format!("`{text}`: {e}"))?;
    Ok((PathBuf::from(path), config, device))
}

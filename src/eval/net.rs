//! `net:` — a trained network searched by MCTS as a player: `net:PATH` or
//! `net(sims=N,batch=B,root=puct|gumbel,device=cpu|N,quiet=1,rules=W,material=W):PATH`,
//! the net read from a safetensors file our `train` or `export` wrote (its game, shape and
//! encoding version checked), evaluated by our CPU forward pass, or by burn on GPU `N` in
//! a build with `--features cuda` or `wgpu`. `quiet`, `rules` and `material` are the
//! search's `quiet_leaves`, `rules_prior` and `rules_value` (the rules' help,
//! [`crate::mcts::Guided`]). As an engine it is [`MctsPlayer`]'s (`go`, `Threads`,
//! `Batch`).

use std::path::{Path, PathBuf};

use burn::tensor::Device;

use super::mcts::MctsPlayer;
use super::Player;
use crate::game::Game;
use crate::mcts::{Batch, Evaluator, Guided, Material, SearchConfig, Wdl};
use crate::nn::{Encoding, Net};
use crate::selfplay::{Inference, NetEvaluator};

/// The player of a `net:` spec: the net at `path` (of game `G`, any shape), searching
/// under `config`, on `device` (`cpu`, or a GPU index in a build with a GPU backend).
pub fn net_player<G: Encoding + Material + Send + 'static>(
    path: &Path,
    config: &SearchConfig,
    device: &str,
    seed: u64,
) -> Result<Box<dyn Player<G>>, String> {
    let evaluator = Guided::new(net_evaluator::<G>(path, device)?, config);
    Ok(Box::new(MctsPlayer::new(spec_name(path, config), config.clone(), evaluator, seed)))
}

/// The net at `path` (of game `G`, any shape) as an evaluator on `device` (`cpu`, or a
/// GPU index in a build with a GPU backend): its raw priors and values, without search.
pub fn net_evaluator<G: Encoding>(path: &Path, device: &str) -> Result<NetEvaluator<G>, String> {
    let device = crate::nn::device::device(device)?;
    let net = Net::load::<G>(path, None, &Device::flex()).map_err(|e| e.to_string())?;
    Ok(NetEvaluator::new(Inference::for_device(&net, &device)))
}

/// What `evaluator` (a net's, [`net_evaluator`]) makes of `game`'s position by itself,
/// before any search: its value from the side to move's view, and its priors over the
/// legal moves, the likeliest first (the shares add up to 1).
pub fn net_opinion<G: Game>(evaluator: &mut impl Evaluator<G>, game: &G) -> (Wdl, Vec<(G::Move, f32)>) {
    let mut batch = Batch::new();
    let i = batch.push(game);
    evaluator.evaluate(&mut batch);
    let mut policy: Vec<(G::Move, f32)> = batch.moves(i).iter().copied().zip(batch.priors(i).iter().copied()).collect();
    policy.sort_by(|a, b| b.1.total_cmp(&a.1));
    (batch.value(i), policy)
}

/// The spec text of a net player: `net(sims=N):PATH`, with `quiet=1`, `rules=W` and
/// `material=W` when set.
pub fn spec_name(path: &Path, config: &SearchConfig) -> String {
    let quiet = if config.quiet_leaves { ",quiet=1" } else { "" };
    let rules = if config.rules_prior > 0.0 { format!(",rules={}", config.rules_prior) } else { String::new() };
    let material = if config.rules_value > 0.0 { format!(",material={}", config.rules_value) } else { String::new() };
    format!("net(sims={}{quiet}{rules}{material}):{}", config.simulations, path.display())
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
    let (mut quiet_leaves, mut rules_prior, mut rules_value) = (false, 0.0, 0.0);
    for part in options.split(',').filter(|part| !part.trim().is_empty()) {
        match part.split_once('=') {
            Some(("eval", _)) => return Err(format!("`{text}`: a net player's evaluator is its net")),
            Some(("device", value)) => {
                crate::nn::device::device(value.trim()).map_err(|e| format!("`{text}`: {e}"))?;
                device = value.trim().to_string();
            }
            Some(("quiet", value)) => {
                quiet_leaves = match value.trim() {
                    "1" => true,
                    "0" => false,
                    other => return Err(format!("`{text}`: `quiet` is 1 or 0, not `{other}`")),
                };
            }
            Some((key @ ("rules" | "material"), value)) => {
                let share = value.trim().parse::<f32>().ok().filter(|x| (0.0..=1.0).contains(x));
                let share = share.ok_or(format!("`{text}`: `{key}` is a share from 0 to 1, not `{}`", value.trim()))?;
                *(if key == "rules" { &mut rules_prior } else { &mut rules_value }) = share;
            }
            Some((key, value)) => pairs.push((key.trim(), value.trim())),
            None => return Err(format!("`{text}`: expected key=value, found `{part}`")),
        }
    }
    let (config, _) = super::mcts::parse_options(pairs.into_iter()).map_err(|e| format!("`{text}`: {e}"))?;
    Ok((PathBuf::from(path), SearchConfig { quiet_leaves, rules_prior, rules_value, ..config }, device))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules_help_reads_back_from_the_spec_text_it_is_written_as() {
        let config = SearchConfig {
            simulations: 200,
            quiet_leaves: true,
            rules_prior: 0.25,
            rules_value: 0.5,
            ..SearchConfig::default()
        };
        let text = spec_name(Path::new("n.safetensors"), &config);
        assert_eq!(text, "net(sims=200,quiet=1,rules=0.25,material=0.5):n.safetensors");
        let (path, parsed, device) = parse(text.strip_prefix("net").unwrap(), &text).unwrap();
        assert_eq!((path, device), (PathBuf::from("n.safetensors"), "cpu".to_string()));
        assert_eq!(parsed, config);
        // Off unless asked for.
        let (_, plain, _) = parse(":n.safetensors", "net:n.safetensors").unwrap();
        assert!(!plain.quiet_leaves && plain.rules_prior == 0.0 && plain.rules_value == 0.0);
    }

    #[test]
    fn a_help_flag_is_one_or_zero_and_a_share_is_within_zero_and_one() {
        let error = |options: &str| parse(&format!("({options}):n"), "spec").unwrap_err();
        assert_eq!(error("quiet=2"), "`spec`: `quiet` is 1 or 0, not `2`");
        assert_eq!(error("material=1.5"), "`spec`: `material` is a share from 0 to 1, not `1.5`");
    }
}

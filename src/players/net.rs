//! `net:` — a trained network searched by MCTS as a player: `net:PATH` or
//! `net(sims=N,batch=B,root=puct|gumbel,cpuct=C,fpu=F,device=cpu|N,quiet_leaves=1,rules_prior=W,rules_value=W,rules_threats=T):PATH`,
//! the net read from a safetensors file our `train` or `export` wrote (its game, shape and
//! encoding version checked), evaluated by our CPU forward pass, or by burn on GPU `N` in
//! a build with `--features cuda` or `wgpu`; `net` or `net(options)` with no path is the
//! net shipped in the binary for the game played ([`crate::nn::shipped_net`]). `cpuct` and
//! the rules' help (`quiet_leaves`, `rules_prior`, `rules_value`, `rules_threats`,
//! [`crate::mcts::Guided`])
//! are its play settings ([`PlaySettings`]): those the spec leaves out are the ones the
//! net's file records it plays best with, if any. As an engine it is [`MctsPlayer`]'s
//! (`go`, `Threads`, `Batch`).

use std::path::PathBuf;

use super::mcts::MctsPlayer;
use super::Player;
use crate::game::Game;
use crate::mcts::{Batch, Evaluator, Guided, Material, PlaySettings, SearchConfig, Wdl};
use crate::nn::{Encoding, Inference, Net, NetEvaluator, NetSource};

/// The player of a `net` spec: the net `source` names (of game `G`, any shape), searching
/// under `config` with the `play` settings (what they leave open taken from the net's file),
/// on `device` (`cpu`, or a GPU index in a build with a GPU backend).
pub fn net_player<G: Encoding + Material + Send + 'static>(
    source: &NetSource,
    config: &SearchConfig,
    play: PlaySettings,
    device: &str,
    seed: u64,
) -> Result<Box<dyn Player<G>>, String> {
    let (net, info) = source.load::<G>().map_err(|e| e.to_string())?;
    let config = play.or(info.provenance.play.unwrap_or_default()).apply(config.clone());
    let evaluator = Guided::new(evaluator_on::<G>(&net, device)?, &config);
    Ok(Box::new(MctsPlayer::new(spec_name(source, &config), config, evaluator, seed)))
}

/// The net `source` names (of game `G`, any shape) as an evaluator on `device` (`cpu`, or
/// a GPU index in a build with a GPU backend): its raw priors and values, without search.
pub fn net_evaluator<G: Encoding>(source: &NetSource, device: &str) -> Result<NetEvaluator<G>, String> {
    let (net, _) = source.load::<G>().map_err(|e| e.to_string())?;
    evaluator_on(&net, device)
}

/// `net`'s evaluator on `device`.
fn evaluator_on<G: Encoding>(net: &Net, device: &str) -> Result<NetEvaluator<G>, String> {
    Ok(NetEvaluator::new(Inference::for_device(net, &crate::nn::device::device(device)?)))
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

/// The spec text of a net player: `net(sims=N):PATH` (no `:PATH` for the shipped net),
/// with the search options that are not the default (`cpuct=C`, …) and `quiet_leaves=1`,
/// `rules_prior=W`, `rules_value=W` and `rules_threats=T` when set.
pub fn spec_name(source: &NetSource, config: &SearchConfig) -> String {
    // `cpuct` is among the search options already.
    let help = PlaySettings { c_puct: None, ..PlaySettings::of(config) }.to_string();
    let help = if help.is_empty() { help } else { format!(",{help}") };
    format!("net(sims={}{}{help}){source}", config.simulations, super::mcts::search_options(config))
}

/// The net, search config, play settings and device of a `net` spec's rest: nothing,
/// `(options)`, `:PATH` or `(options):PATH`, with the `mcts` options other than `eval`,
/// the play settings and `device`.
pub fn parse(rest: &str, text: &str) -> Result<(NetSource, SearchConfig, PlaySettings, String), String> {
    let (options, path) = match rest.strip_prefix('(') {
        Some(inner) => {
            let close = inner.find(')').ok_or_else(|| format!("`{text}`: expected `net(options):PATH`"))?;
            match &inner[close + 1..] {
                "" => (&inner[..close], None),
                after => {
                    let path =
                        after.strip_prefix(':').ok_or_else(|| format!("`{text}`: expected `net(options):PATH`"))?;
                    (&inner[..close], Some(path))
                }
            }
        }
        None => ("", rest.strip_prefix(':')),
    };
    let source = match path {
        None => NetSource::Shipped,
        Some("") => return Err(format!("`{text}`: no network file after `net:` (`net` alone: the shipped net)")),
        Some(path) => NetSource::File(PathBuf::from(path)),
    };
    let mut pairs = Vec::new();
    let mut device = "cpu".to_string();
    let mut play = PlaySettings::default();
    for part in options.split(',').filter(|part| !part.trim().is_empty()) {
        match part.split_once('=').map(|(key, value)| (key.trim(), value.trim())) {
            Some(("eval", _)) => return Err(format!("`{text}`: a net player's evaluator is its net")),
            Some(("device", value)) => {
                crate::nn::device::device(value).map_err(|e| format!("`{text}`: {e}"))?;
                device = value.to_string();
            }
            Some((key, value)) => {
                if !play.read_option(key, value).map_err(|e| format!("`{text}`: {e}"))? {
                    pairs.push((key, value));
                }
            }
            None => return Err(format!("`{text}`: expected key=value, found `{part}`")),
        }
    }
    let (config, _) = super::mcts::parse_options(pairs.into_iter()).map_err(|e| format!("`{text}`: {e}"))?;
    Ok((source, config, play, device))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_search_and_play_settings_read_back_from_the_spec_text_they_are_written_as() {
        let config = SearchConfig {
            simulations: 200,
            c_puct: 2.0,
            quiet_leaves: true,
            rules_prior: 0.25,
            rules_value: 0.5,
            ..SearchConfig::default()
        };
        let file = NetSource::File(PathBuf::from("n.safetensors"));
        let text = spec_name(&file, &config);
        assert_eq!(text, "net(sims=200,cpuct=2,quiet_leaves=1,rules_prior=0.25,rules_value=0.5):n.safetensors");
        let (source, parsed, play, device) = parse(text.strip_prefix("net").unwrap(), &text).unwrap();
        assert_eq!((source, device), (file, "cpu".to_string()));
        assert_eq!(play.apply(parsed), config);
        // Left open unless given.
        let (_, _, open, _) = parse(":n.safetensors", "net:n.safetensors").unwrap();
        assert_eq!(open, PlaySettings::default());
        // No path: the shipped net, whose spec text has none either.
        let shipped = spec_name(&NetSource::Shipped, &config);
        assert_eq!(shipped, "net(sims=200,cpuct=2,quiet_leaves=1,rules_prior=0.25,rules_value=0.5)");
        let (source, parsed, play, _) = parse(shipped.strip_prefix("net").unwrap(), &shipped).unwrap();
        assert_eq!((source, play.apply(parsed)), (NetSource::Shipped, config));
        assert_eq!(parse("", "net").unwrap().0, NetSource::Shipped);
    }

    #[test]
    fn a_help_flag_is_one_or_zero_and_a_share_is_within_zero_and_one() {
        let error = |options: &str| parse(&format!("({options}):n"), "spec").unwrap_err();
        assert_eq!(error("quiet_leaves=2"), "`spec`: `quiet_leaves` is 1 or 0, not `2`");
        assert_eq!(error("rules_value=1.5"), "`spec`: `rules_value` is a share from 0 to 1, not `1.5`");
        assert!(parse("(sims=5)x", "spec").unwrap_err().contains("expected `net(options):PATH`"));
        assert!(parse("(sims=5):", "spec").unwrap_err().contains("no network file"));
    }
}

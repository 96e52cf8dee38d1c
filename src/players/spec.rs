//! Players named by strings, as on the command line:
//! - `random[:seed=N]` — a uniformly random legal move;
//! - `alphabeta[:depth=N][,ms=N][,nodes=N][,hash=MB]` — the classical baseline
//!   (alpha-beta for Xiangqi, expectimax for Banqi); with no limit, depth 4 (a Xiangqi
//!   search by depth alone searches every move; by time or nodes it prunes selectively);
//! - `nnue[(depth=N,ms=N,nodes=N,hash=MB)][:FILE]` — alpha-beta with an NNUE evaluation
//!   (Xiangqi; a net from `train` with an NNUE config, or the shipped one); with no limit,
//!   a second a move;
//! - `mcts[:sims=N][,eval=uniform|material|settled][,batch=B][,root=puct|gumbel][,cpuct=C][,fpu=F]`
//!   — Monte Carlo tree search with a built-in evaluator (800 simulations and `material` by
//!   default);
//! - `net:PATH` or `net(sims=N,batch=B,root=…,cpuct=C,fpu=F,device=cpu|N,quiet_leaves=1,rules_prior=W,rules_value=W,rules_threats=T):PATH`
//!   — a trained network (safetensors from `train`) searched by MCTS (800 simulations by
//!   default), with the rules' help when asked (`quiet_leaves`: values at quiet positions;
//!   `rules_prior`: the share of the rules' capture-and-check priors; `rules_value`: the
//!   share of the settled material count in the value; `rules_threats`: the rules' prior
//!   weight per soldier a quiet move threatens to win) or, where the spec leaves it out, as
//!   the net's file records it plays best; `net` or `net(options)` alone is the net shipped
//!   for the game;
//! - `uci:COMMAND`, `ucci:COMMAND`, or with options
//!   `uci(ranks=1,ms=N,depth=N,nodes=N,option.NAME=VALUE):COMMAND` — an external Xiangqi
//!   engine; `uci:` detects UCI or UCCI by handshake, `ucci:` insists on UCCI; `ranks=1`
//!   for engines that number ranks 1–10 (Fairy-Stockfish, which is also told
//!   `UCI_Variant xiangqi` whenever it offers that option); `option.Threads=2` and the
//!   like are set after the handshake. A wrapper script should `exec` the engine, so
//!   that stopping the player stops the engine.

use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use super::alphabeta::{nnue_player, DEFAULT_HASH_MB, MAX_HASH_MB};
use super::external::{EngineConfig, ExternalEngine, Protocol};
use super::mcts::{mcts_player, parse_options as mcts_options, BuiltinEvaluator};
use super::net::{self, net_player};
use super::{AlphaBetaPlayer, Player, RandomPlayer};
use crate::game::banqi::Banqi;
use crate::game::xiangqi::Xiangqi;
use crate::mcts::{PlaySettings, SearchConfig};
use crate::nn::NetSource;
use crate::search::Limits;

/// A player described by its spec string.
#[derive(Clone, Debug)]
pub enum PlayerSpec {
    /// `random`.
    Random {
        /// A fixed seed, or one per game.
        seed: Option<u64>,
    },
    /// `alphabeta:…`.
    AlphaBeta {
        /// Its limits per move.
        limits: Limits,
        /// Transposition table size in MiB.
        hash_mb: usize,
    },
    /// `nnue[(…)][:FILE]`: alpha-beta with an NNUE evaluation.
    Nnue {
        /// The NNUE file, or `None` for the shipped one.
        file: Option<PathBuf>,
        /// Its limits per move.
        limits: Limits,
        /// Transposition table size in MiB.
        hash_mb: usize,
    },
    /// `uci:…` / `ucci:…`.
    Engine(EngineConfig),
    /// `net:PATH`, or `net` for the shipped net.
    Net {
        /// The network: a file or the shipped one.
        net: NetSource,
        /// The search's settings but the play settings.
        config: SearchConfig,
        /// The play settings the spec gives (what it leaves open: the net's own).
        play: PlaySettings,
        /// `cpu`, or the GPU index the net runs on.
        device: String,
    },
    /// `mcts:…`.
    Mcts {
        /// The search's settings.
        config: SearchConfig,
        /// The evaluator.
        evaluator: BuiltinEvaluator,
    },
}

impl PlayerSpec {
    /// The spec as a match at `movetime` a move plays it: an alpha-beta player's own
    /// limits replaced by that time, so that its name says what it plays at (engines and
    /// nets are given the time with each move, whatever their spec says).
    pub fn at_movetime(mut self, movetime: Duration) -> PlayerSpec {
        if let PlayerSpec::AlphaBeta { limits, .. } | PlayerSpec::Nnue { limits, .. } = &mut self {
            *limits = Limits::movetime(movetime);
        }
        self
    }
}

/// Default limit of `alphabeta` when its spec gives none.
const DEFAULT_DEPTH: u32 = 4;
/// Default thinking time of an external engine when nothing else limits it.
const DEFAULT_ENGINE_MS: u64 = 1000;

impl FromStr for PlayerSpec {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let text = text.trim();
        let (kind, rest) = match text.find([':', '(']) {
            Some(i) => (&text[..i], &text[i..]),
            None => (text, ""),
        };
        match kind {
            "random" => {
                let options = options(rest.strip_prefix(':').unwrap_or(rest), text)?;
                let mut seed = None;
                for (key, value) in options {
                    match key {
                        "seed" => seed = Some(number(key, value, text)?),
                        _ => return Err(unknown(key, text)),
                    }
                }
                Ok(PlayerSpec::Random { seed })
            }
            "alphabeta" => {
                let (mut limits, hash_mb) = search_options(rest.strip_prefix(':').unwrap_or(rest), text)?;
                if !limits.sets_any() {
                    limits.depth = Some(DEFAULT_DEPTH);
                }
                Ok(PlayerSpec::AlphaBeta { limits, hash_mb })
            }
            "nnue" => {
                let (option_text, file) = match rest.strip_prefix('(') {
                    Some(inner) => {
                        let close = inner.find(')').ok_or_else(|| format!("`{text}`: expected `nnue(options):FILE`"))?;
                        (&inner[..close], &inner[close + 1..])
                    }
                    None => ("", rest),
                };
                let file = match file.strip_prefix(':') {
                    Some("") => return Err(format!("`{text}`: no NNUE file after `:` (`nnue` alone: the shipped one)")),
                    Some(path) => Some(PathBuf::from(path)),
                    None if file.is_empty() => None,
                    None => return Err(format!("`{text}`: expected `nnue(options):FILE`")),
                };
                let (mut limits, hash_mb) = search_options(option_text, text)?;
                if !limits.sets_any() {
                    limits.movetime = Some(Duration::from_millis(DEFAULT_ENGINE_MS));
                }
                Ok(PlayerSpec::Nnue { file, limits, hash_mb })
            }
            "mcts" => {
                let (config, evaluator) =
                    mcts_options(options(rest.strip_prefix(':').unwrap_or(rest), text)?.into_iter())
                        .map_err(|e| format!("`{text}`: {e}"))?;
                Ok(PlayerSpec::Mcts { config, evaluator })
            }
            "net" => {
                let (net, config, play, device) = net::parse(rest, text)?;
                Ok(PlayerSpec::Net { net, config, play, device })
            }
            "uci" | "ucci" => engine(kind, rest, text),
            _ => Err(format!(
                "unknown player `{text}` (random, alphabeta:…, nnue:FILE, mcts:…, net:PATH, net, uci:COMMAND, ucci:COMMAND)"
            )),
        }
    }
}

/// Reads the options and command of an engine spec: `(opts):COMMAND` or `:COMMAND`.
fn engine(kind: &str, rest: &str, text: &str) -> Result<PlayerSpec, String> {
    let (option_text, command) = match rest.strip_prefix('(') {
        Some(inner) => {
            let close = inner.find("):").ok_or_else(|| format!("`{text}`: expected `(options):COMMAND`"))?;
            (&inner[..close], &inner[close + 2..])
        }
        None => ("", rest.strip_prefix(':').unwrap_or(rest)),
    };
    let command = shlex::split(command).ok_or_else(|| format!("`{text}`: unbalanced quotes in the command"))?;
    if command.is_empty() {
        return Err(format!("`{text}`: no engine command after `{kind}:`"));
    }
    let mut config = EngineConfig {
        command,
        protocol: if kind == "ucci" { Protocol::Ucci } else { Protocol::Detect },
        ranks_from_one: false,
        limits: Limits::default(),
        grace: Duration::from_secs(1),
        options: Vec::new(),
    };
    for (key, value) in options(option_text, text)? {
        match key {
            "ranks" => match value {
                "0" => config.ranks_from_one = false,
                "1" => config.ranks_from_one = true,
                _ => return Err(format!("`{text}`: ranks must be 0 or 1")),
            },
            "depth" => config.limits.depth = Some(number(key, value, text)?),
            "nodes" => config.limits.nodes = Some(number(key, value, text)?),
            "ms" => config.limits.movetime = Some(Duration::from_millis(number(key, value, text)?)),
            _ => match key.strip_prefix("option.") {
                Some(name) if !name.is_empty() => config.options.push((name.to_string(), value.to_string())),
                _ => return Err(unknown(key, text)),
            },
        }
    }
    if !config.limits.sets_any() {
        config.limits.movetime = Some(Duration::from_millis(DEFAULT_ENGINE_MS));
    }
    Ok(PlayerSpec::Engine(config))
}

/// The limits and hash size of an alpha-beta spec's options (`depth`, `nodes`, `ms`, `hash`).
fn search_options(option_text: &str, text: &str) -> Result<(Limits, usize), String> {
    let mut limits = Limits::default();
    let mut hash_mb = DEFAULT_HASH_MB;
    for (key, value) in options(option_text, text)? {
        match key {
            "depth" => limits.depth = Some(number(key, value, text)?),
            "nodes" => limits.nodes = Some(number(key, value, text)?),
            "ms" => limits.movetime = Some(Duration::from_millis(number(key, value, text)?)),
            "hash" => {
                hash_mb = number(key, value, text)?;
                if !(1..=MAX_HASH_MB).contains(&hash_mb) {
                    return Err(format!("`{text}`: hash must be 1 to {MAX_HASH_MB} (MiB)"));
                }
            }
            _ => return Err(unknown(key, text)),
        }
    }
    Ok((limits, hash_mb))
}

/// Splits `key=value,key=value`.
fn options<'a>(text: &'a str, spec: &str) -> Result<Vec<(&'a str, &'a str)>, String> {
    text.split(',')
        .filter(|part| !part.trim().is_empty())
        .map(|part| {
            part.split_once('=')
                .map(|(k, v)| (k.trim(), v.trim()))
                .ok_or_else(|| format!("`{spec}`: expected key=value, found `{part}`"))
        })
        .collect()
}

fn number<T: FromStr>(key: &str, value: &str, spec: &str) -> Result<T, String> {
    value.parse().map_err(|_| format!("`{spec}`: `{key}` needs a number, not `{value}`"))
}

fn unknown(key: &str, spec: &str) -> String {
    format!("`{spec}`: unknown option `{key}`")
}

/// A game the built-in players can play.
pub trait Playable: crate::nn::Encoding {
    /// Builds the player `spec` describes; `seed` varies its random choices.
    fn player(spec: &PlayerSpec, seed: u64) -> Result<Box<dyn Player<Self>>, String>;

    /// The rule options this position is played under, in words (a match's `setup.txt`).
    fn rules_text(&self) -> String;
}

impl Playable for Xiangqi {
    fn rules_text(&self) -> String {
        format!("{:?}", self.rules())
    }

    fn player(spec: &PlayerSpec, seed: u64) -> Result<Box<dyn Player<Self>>, String> {
        Ok(match spec {
            PlayerSpec::Random { seed: fixed } => Box::new(RandomPlayer::new(fixed.unwrap_or(seed))),
            PlayerSpec::AlphaBeta { limits, hash_mb } => Box::new(AlphaBetaPlayer::xiangqi(limits.clone(), *hash_mb)),
            PlayerSpec::Nnue { file, limits, hash_mb } => Box::new(nnue_player(file.as_deref(), limits, *hash_mb)?),
            PlayerSpec::Engine(config) => Box::new(ExternalEngine::new(config.clone())),
            PlayerSpec::Mcts { config, evaluator } => mcts_player(config, *evaluator, seed),
            PlayerSpec::Net { net, config, play, device } => net_player(net, config, *play, device, seed)?,
        })
    }
}

impl Playable for Banqi {
    fn rules_text(&self) -> String {
        format!("{:?}", self.rules())
    }

    fn player(spec: &PlayerSpec, seed: u64) -> Result<Box<dyn Player<Self>>, String> {
        Ok(match spec {
            PlayerSpec::Random { seed: fixed } => Box::new(RandomPlayer::new(fixed.unwrap_or(seed))),
            PlayerSpec::AlphaBeta { limits, hash_mb } => Box::new(AlphaBetaPlayer::banqi(limits.clone(), *hash_mb)),
            PlayerSpec::Engine(_) => return Err("external engines play Xiangqi only".to_string()),
            PlayerSpec::Nnue { .. } => return Err("the NNUE plays Xiangqi only".to_string()),
            PlayerSpec::Mcts { config, evaluator } => mcts_player(config, *evaluator, seed),
            PlayerSpec::Net { net, config, play, device } => net_player(net, config, *play, device, seed)?,
        })
    }
}

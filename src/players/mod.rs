//! Players: everything that can be asked for a move — the classical searches, MCTS with
//! a built-in evaluator or a net, random moves and external UCI/UCCI engines — and the
//! [`PlayerSpec`] texts that name them (`alphabeta:depth=4`, `net:FILE`, `uci:PATH`).

mod alphabeta;
mod engine_process;
mod external;
mod mcts;
mod net;
mod option;
mod player;
mod random;
mod spec;

pub use alphabeta::{AlphaBetaPlayer, Searcher, DEFAULT_HASH_MB};
pub use engine_process::{EngineProcess, WaitError};
pub use external::{EngineConfig, ExternalEngine, Protocol};
pub use mcts::{mcts_player, BuiltinEvaluator, MctsPlayer};
pub use net::{net_evaluator, net_opinion, net_player, spec_name as net_spec_name};
pub use option::SpinOption;
pub use player::{Player, PlayerError};
pub use random::RandomPlayer;
pub use spec::{Playable, PlayerSpec};

use crate::search::Limits;

/// `limits` if it sets any limit, else `own` — keeping the stop flag of `limits`.
pub fn limits_or(limits: &Limits, own: &Limits) -> Limits {
    let mut chosen = if limits.sets_any() { limits.clone() } else { own.clone() };
    chosen.stop = limits.stop.clone().or(chosen.stop);
    chosen
}

//! Players and the arena: who plays, how matches are run, and how results are judged.

mod alphabeta;
mod arena;
mod engine_process;
mod external;
pub mod ladder;
mod mcts;
mod net;
pub mod openings;
mod option;
mod player;
mod policy_check;
mod random;
pub mod record;
mod spec;
mod starts;
pub mod stats;
mod value_check;

pub use alphabeta::{AlphaBetaPlayer, Searcher};
pub use arena::{run_match, MatchConfig, MatchResult, Start};
pub use engine_process::{EngineProcess, WaitError};
pub use external::{EngineConfig, ExternalEngine, Protocol};
pub use mcts::{centipawns, mcts_player, BuiltinEvaluator, MctsPlayer};
pub use net::{net_evaluator, net_opinion, net_player, spec_name as net_spec_name};
pub use openings::{builtin as builtin_openings, parse_file as parse_openings, Opening, OwnedOpening};
pub use option::SpinOption;
pub use player::{Player, PlayerError};
pub use policy_check::{policy_check, refereed_positions, PolicyCheck, Refereed};
pub use random::RandomPlayer;
pub use record::GameRecord;
pub use spec::{Playable, PlayerSpec};
pub use starts::{banqi_starts, xiangqi_starts};
pub use stats::{elo_estimate, likelihood_of_superiority, EloEstimate, Score, Sprt, SprtDecision};
pub use value_check::{judged_positions, value_check, Judged, ValueCheck};

use crate::search::Limits;

/// `limits` if it sets any limit, else `own` — keeping the stop flag of `limits`.
pub fn limits_or(limits: &Limits, own: &Limits) -> Limits {
    let sets_any = limits.depth.is_some() || limits.nodes.is_some() || limits.movetime.is_some();
    let mut chosen = if sets_any { limits.clone() } else { own.clone() };
    chosen.stop = limits.stop.clone().or(chosen.stop);
    chosen
}

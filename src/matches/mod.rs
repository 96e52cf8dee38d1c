//! Matches between players and how their results are judged: the arena that plays them
//! ([`run_match`]) from openings and start positions, adjudicated by the players' scores
//! where asked ([`Adjudication`]), Elo and SPRT statistics
//! ([`stats`]), ratings on a ladder of fixed players ([`ratings`]), and the checks of a
//! net's value and policy against referees ([`value_check`], [`policy_check`]).

mod adjudication;
mod arena;
pub mod openings;
mod policy_check;
pub mod ratings;
mod resume;
mod starts;
pub mod stats;
mod value_check;

pub use adjudication::{Adjudication, DrawRule, ResignRule};
pub use arena::{run_match, MatchConfig, MatchResult};
pub use openings::{builtin as builtin_openings, parse_file as parse_openings, Opening, OwnedOpening};
pub use policy_check::{policy_check, refereed_positions, PolicyCheck, Refereed};
pub use starts::{banqi_starts, xiangqi_starts, Start};
pub use stats::{elo_estimate, likelihood_of_superiority, EloEstimate, Score, Sprt, SprtDecision};
pub use value_check::{judged_positions, value_check, Judged, ValueCheck};

//! `alphabeta:` — the classical searches of `crate::search` as players.

use std::path::Path;
use std::sync::Arc;

use super::mcts::MAX_MULTI_PV;
use super::{limits_or, Player, PlayerError, SpinOption};
use crate::game::banqi::Banqi;
use crate::game::xiangqi::Xiangqi;
use crate::game::Game;
use crate::nnue::{shipped_nnue, Nnue, NnueEvaluation};
use crate::search::banqi::Expectimax;
use crate::search::evaluation::Evaluation;
use crate::search::xiangqi::AlphaBeta;
use crate::search::{Limits, Report};

/// A classical search of game `G` (alpha-beta for Xiangqi, expectimax for Banqi).
pub trait Searcher<G: Game>: Send {
    /// Searches `game` within `limits`, reporting each iteration.
    fn search(&mut self, game: &G, limits: &Limits, info: &mut dyn FnMut(&Report<G::Move>)) -> Report<G::Move>;
    /// Forgets what earlier searches learnt.
    fn clear(&mut self);
    /// Starts afresh with a transposition table of `hash_mb` MiB.
    fn resize(&mut self, hash_mb: usize);
    /// Whether it can report several root moves' lines (MultiPV).
    const MULTI_PV: bool;
    /// Reports the best `lines` root moves with their lines (only if [`Self::MULTI_PV`]).
    fn set_multi_pv(&mut self, lines: usize);
}

impl<E: Evaluation> Searcher<Xiangqi> for AlphaBeta<E> {
    fn search(
        &mut self,
        game: &Xiangqi,
        limits: &Limits,
        info: &mut dyn FnMut(&Report<<Xiangqi as Game>::Move>),
    ) -> Report<<Xiangqi as Game>::Move> {
        AlphaBeta::search(self, game, limits, info)
    }

    fn clear(&mut self) {
        AlphaBeta::clear(self)
    }

    fn resize(&mut self, hash_mb: usize) {
        *self = AlphaBeta::with_evaluation(self.evaluation().clone(), hash_mb);
    }

    const MULTI_PV: bool = true;

    fn set_multi_pv(&mut self, lines: usize) {
        AlphaBeta::set_multi_pv(self, lines)
    }
}

impl Searcher<Banqi> for Expectimax {
    fn search(
        &mut self,
        game: &Banqi,
        limits: &Limits,
        info: &mut dyn FnMut(&Report<<Banqi as Game>::Move>),
    ) -> Report<<Banqi as Game>::Move> {
        Expectimax::search(self, game, limits, info)
    }

    fn clear(&mut self) {
        Expectimax::clear(self)
    }

    fn resize(&mut self, hash_mb: usize) {
        *self = Expectimax::new(hash_mb);
    }

    /// Expectimax reports its best line only.
    const MULTI_PV: bool = false;

    fn set_multi_pv(&mut self, _lines: usize) {}
}

/// Transposition table size when none is given (MiB).
pub const DEFAULT_HASH_MB: usize = 16;
/// The largest transposition table a GUI may ask for (MiB).
pub const MAX_HASH_MB: usize = 4096;

/// A classical search with its own limits per move.
pub struct AlphaBetaPlayer<S> {
    searcher: S,
    /// The spec's kind and, for an NNUE, its file: how `name` begins.
    kind: Kind,
    limits: Limits,
    /// Root moves reported with their lines (UCI's `MultiPV`).
    multi_pv: usize,
}

/// Which spec an [`AlphaBetaPlayer`] was built from.
enum Kind {
    /// `alphabeta`.
    Classical,
    /// `nnue`, with its file (`None`: the shipped one).
    Nnue(Option<String>),
}

impl AlphaBetaPlayer<AlphaBeta> {
    /// The Xiangqi alpha-beta player.
    pub fn xiangqi(limits: Limits, hash_mb: usize) -> Self {
        AlphaBetaPlayer { searcher: AlphaBeta::new(hash_mb), kind: Kind::Classical, limits, multi_pv: 1 }
    }
}

impl AlphaBetaPlayer<AlphaBeta<NnueEvaluation>> {
    /// The Xiangqi alpha-beta player evaluating with `net`, read from `file` (`None`: the
    /// shipped net).
    pub fn nnue(net: Arc<Nnue>, file: Option<&Path>, limits: Limits, hash_mb: usize) -> Self {
        AlphaBetaPlayer {
            searcher: AlphaBeta::with_evaluation(NnueEvaluation::new(net), hash_mb),
            kind: Kind::Nnue(file.map(|f| f.display().to_string())),
            limits,
            multi_pv: 1,
        }
    }
}

/// The `nnue` player of `file` (`None`: the shipped net).
pub fn nnue_player(
    file: Option<&Path>,
    limits: &Limits,
    hash_mb: usize,
) -> Result<AlphaBetaPlayer<AlphaBeta<NnueEvaluation>>, String> {
    let net = match file {
        Some(path) => Arc::new(Nnue::load(path)?),
        None => shipped_nnue()?,
    };
    Ok(AlphaBetaPlayer::nnue(net, file, limits.clone(), hash_mb))
}

impl AlphaBetaPlayer<Expectimax> {
    /// The Banqi expectimax player.
    pub fn banqi(limits: Limits, hash_mb: usize) -> Self {
        AlphaBetaPlayer { searcher: Expectimax::new(hash_mb), kind: Kind::Classical, limits, multi_pv: 1 }
    }
}

impl<G: Game, S: Searcher<G>> Player<G> for AlphaBetaPlayer<S> {
    fn name(&self) -> String {
        let limits = &self.limits;
        let parts: Vec<String> = [
            limits.depth.map(|d| format!("depth={d}")),
            limits.nodes.map(|n| format!("nodes={n}")),
            limits.movetime.map(|t| format!("ms={}", t.as_millis())),
        ]
        .into_iter()
        .flatten()
        .collect();
        match &self.kind {
            Kind::Classical => format!("alphabeta:{}", parts.join(",")),
            Kind::Nnue(None) => format!("nnue({})", parts.join(",")),
            Kind::Nnue(Some(file)) => format!("nnue({}):{file}", parts.join(",")),
        }
    }

    fn options(&self) -> Vec<SpinOption> {
        let mut options = vec![SpinOption { name: "Hash", default: DEFAULT_HASH_MB, min: 1, max: MAX_HASH_MB }];
        if S::MULTI_PV {
            options.push(SpinOption { name: "MultiPV", default: 1, min: 1, max: MAX_MULTI_PV });
        }
        options
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        if S::MULTI_PV && name.eq_ignore_ascii_case("MultiPV") {
            return match value.trim().parse::<usize>() {
                Ok(lines) if (1..=MAX_MULTI_PV).contains(&lines) => {
                    self.multi_pv = lines;
                    Ok(())
                }
                _ => Err(format!("MultiPV must be 1 to {MAX_MULTI_PV}, not `{value}`")),
            };
        }
        if !name.eq_ignore_ascii_case("hash") {
            return Err(format!("unknown option `{name}`"));
        }
        match value.parse::<usize>() {
            Ok(mb) if (1..=MAX_HASH_MB).contains(&mb) => {
                self.searcher.resize(mb);
                Ok(())
            }
            _ => Err(format!("Hash must be 1 to {MAX_HASH_MB} (MiB), not `{value}`")),
        }
    }

    fn new_game(&mut self) -> Result<(), PlayerError> {
        self.searcher.clear();
        Ok(())
    }

    fn think(
        &mut self,
        game: &G,
        limits: &Limits,
        info: &mut dyn FnMut(&Report<G::Move>),
    ) -> Result<Report<G::Move>, PlayerError> {
        self.searcher.set_multi_pv(self.multi_pv);
        let report = self.searcher.search(game, &limits_or(limits, &self.limits), info);
        match report.best {
            Some(_) => Ok(report),
            None => Err(PlayerError::Protocol("the search found no move".into())),
        }
    }
}

//! `alphabeta:` — the classical searches of `crate::search` as players.

use super::{limits_or, Player, PlayerError};
use crate::game::banqi::Banqi;
use crate::game::xiangqi::Xiangqi;
use crate::game::Game;
use crate::search::banqi::Expectimax;
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
}

impl Searcher<Xiangqi> for AlphaBeta {
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
        *self = AlphaBeta::new(hash_mb);
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
}

/// Transposition table size when none is given (MiB).
pub const DEFAULT_HASH_MB: usize = 16;
/// The largest transposition table a GUI may ask for (MiB).
pub const MAX_HASH_MB: usize = 4096;

/// A classical search with its own limits per move.
pub struct AlphaBetaPlayer<S> {
    searcher: S,
    limits: Limits,
}

impl AlphaBetaPlayer<AlphaBeta> {
    /// The Xiangqi alpha-beta player.
    pub fn xiangqi(limits: Limits, hash_mb: usize) -> Self {
        AlphaBetaPlayer { searcher: AlphaBeta::new(hash_mb), limits }
    }
}

impl AlphaBetaPlayer<Expectimax> {
    /// The Banqi expectimax player.
    pub fn banqi(limits: Limits, hash_mb: usize) -> Self {
        AlphaBetaPlayer { searcher: Expectimax::new(hash_mb), limits }
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
        format!("alphabeta:{}", parts.join(","))
    }

    fn options(&self) -> Vec<String> {
        vec![format!("option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}")]
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
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
        let report = self.searcher.search(game, &limits_or(limits, &self.limits), info);
        match report.best {
            Some(_) => Ok(report),
            None => Err(PlayerError::Protocol("the search found no move".into())),
        }
    }
}

//! What the generation loop needs of a game beyond the network's encoding: its start
//! under the config's rules, and the starts of evaluation matches.

use std::sync::Arc;

use rand::rngs::StdRng;

use super::config::Config;
use crate::game::banqi::Banqi;
use crate::game::xiangqi::Xiangqi;
use crate::matches::{banqi_starts, builtin_openings, xiangqi_starts, OwnedOpening, Start};
use crate::mcts::Material;
use crate::players::Playable;

/// How self-play starts each game.
pub type NewGame<G> = Arc<dyn Fn(&mut StdRng) -> G + Send + Sync>;

/// A game `train` can run: encodable for the net, playable in the arena, with a material
/// count for the bootstrap generations.
pub trait TrainableGame: Playable + Material + Send + Sync + 'static {
    /// A self-play game's usual length in plies, for the first estimate of a run's time
    /// (measured in this project's runs; a run times its own as it goes).
    const TYPICAL_PLIES: f64;

    /// Self-play's start of a game under the config's rules.
    fn new_game(config: &Config) -> Result<NewGame<Self>, String>;

    /// The starts of an evaluation match of `games` games (each start with both colours).
    fn eval_starts(config: &Config, games: u32) -> Result<Vec<Start<Self>>, String>;
}

impl TrainableGame for Xiangqi {
    /// xiangqi-tiny's games: 165 to 190 plies in the bootstrap, 200 to 280 in the net's.
    const TYPICAL_PLIES: f64 = 220.0;

    fn new_game(config: &Config) -> Result<NewGame<Self>, String> {
        let game = Xiangqi::from_fen("startpos", config.rules.xiangqi()?).map_err(|e| e.to_string())?;
        Ok(Arc::new(move |_| game.clone()))
    }

    fn eval_starts(config: &Config, _games: u32) -> Result<Vec<Start<Self>>, String> {
        let openings: Vec<OwnedOpening> = builtin_openings().iter().map(OwnedOpening::from).collect();
        xiangqi_starts(&openings, config.rules.xiangqi()?)
    }
}

impl TrainableGame for Banqi {
    /// banqi-tiny's bootstrap games: about 165 plies.
    const TYPICAL_PLIES: f64 = 170.0;

    fn new_game(config: &Config) -> Result<NewGame<Self>, String> {
        let rules = config.rules.banqi()?;
        Ok(Arc::new(move |_| Banqi::with_rules(rules)))
    }

    fn eval_starts(config: &Config, games: u32) -> Result<Vec<Start<Self>>, String> {
        Ok(banqi_starts(games.div_ceil(2), config.seed, config.rules.banqi()?))
    }
}

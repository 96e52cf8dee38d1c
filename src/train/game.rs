//! What the generation loop needs of a game beyond the network's encoding: its start
//! under the config's rules, and the starts of evaluation matches.

use std::sync::Arc;

use rand::rngs::StdRng;

use super::config::Config;
use crate::game::banqi::Banqi;
use crate::game::xiangqi::{ImportedRecord, Move, Xiangqi};
use crate::game::Game;
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

    /// The games of a file of self-play records (PGN) under the config's rules, as games
    /// begun at earlier games' positions replay them ([`super::earlier_starts`]).
    fn read_records(config: &Config, pgn: &str) -> Result<Vec<RecordedGame<Self>>, String>;
}

/// A recorded game as a game begun at one of its positions replays it.
pub struct RecordedGame<G: Game> {
    /// The position it began from.
    pub start: G,
    /// Its moves.
    pub moves: Vec<G::Move>,
    /// The plies (moves played before) a game may begin at: those before a move, short of
    /// a long run without captures (the no-capture counter under half its limit), whose
    /// games would mostly be the draw the limit is about to call.
    pub starts: Vec<usize>,
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

    fn read_records(config: &Config, pgn: &str) -> Result<Vec<RecordedGame<Self>>, String> {
        let rules = config.rules.xiangqi()?;
        let records = ImportedRecord::read_all(pgn)?;
        records
            .iter()
            .map(|record| {
                let moves: Vec<Move> = record.replay_under(rules)?.moves().collect();
                let start = Xiangqi::from_fen(record.start(), rules).map_err(|e| e.to_string())?;
                let mut game = start.clone();
                let mut starts = Vec::new();
                for (ply, &mv) in moves.iter().enumerate() {
                    if game.plies_since_capture() < rules.no_capture_plies / 2 {
                        starts.push(ply);
                    }
                    game.play(mv);
                }
                Ok(RecordedGame { start, moves, starts })
            })
            .collect()
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

    /// Not for Banqi: its records do not say how its hidden pieces were drawn
    /// (`Config::validate` refuses `earlier_starts` in a Banqi run).
    fn read_records(_: &Config, _: &str) -> Result<Vec<RecordedGame<Self>>, String> {
        Err("Banqi games are not replayed from their records".to_string())
    }
}

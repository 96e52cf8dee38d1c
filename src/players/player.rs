//! The `Player` trait: anything that picks moves — a search, a network, an external
//! engine, a random mover — as the arena, the engine loop and the play commands see it.

use super::SpinOption;
use crate::game::Game;
use crate::search::{Limits, Report};

/// Why a player failed to produce a move. The arena scores it as a loss with this reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayerError {
    /// The player's process died or closed its output.
    #[error("engine died: {0}")]
    Crashed(String),
    /// The player did not answer in time.
    #[error("no move within {0} ms")]
    Timeout(u128),
    /// The player answered with a move that is not legal.
    #[error("illegal move `{0}`")]
    IllegalMove(String),
    /// The player's output made no sense.
    #[error("protocol error: {0}")]
    Protocol(String),
    /// The player could not be started.
    #[error("cannot start player: {0}")]
    Start(String),
}

/// Something that chooses moves in a game `G`.
pub trait Player<G: Game>: Send {
    /// A short name for tables and game records.
    fn name(&self) -> String;

    /// The options this player offers a GUI (the hash table's size, MultiPV, …).
    fn options(&self) -> Vec<SpinOption> {
        Vec::new()
    }

    /// Sets one of the offered options.
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        let _ = value;
        Err(format!("unknown option `{name}`"))
    }

    /// Prepares for a new game (clears tables, tells an engine `ucinewgame`).
    fn new_game(&mut self) -> Result<(), PlayerError> {
        Ok(())
    }

    /// Chooses a move for the side to move in `game`, an ongoing game at a decision
    /// point. `limits`, when it sets anything, replaces the player's own limits (from its
    /// spec); each finished iteration of a search is passed to `info`. The report's
    /// `best` is a legal move, or none where an external engine gives no move: it claims
    /// the game drawn by its own rules.
    fn think(
        &mut self,
        game: &G,
        limits: &Limits,
        info: &mut dyn FnMut(&Report<G::Move>),
    ) -> Result<Report<G::Move>, PlayerError>;
}

//! A room's mutable state — its table, seats, clock, offers and spectators — and what
//! follows from it: whose turn, whether the game is live, started or over, who may abort.

use std::collections::HashMap;

use rand::rngs::StdRng;

use super::clock::Clock;
use super::protocol::Outcome;
use super::role::Role;
use super::store::GameRow;
use super::table::{new_table, Table};
use crate::game::Player as Seat;
use crate::players::PlayerSpec;

/// A room's mutable state, behind the room's lock.
pub struct RoomState {
    /// The stored game.
    pub row: GameRow,
    /// The seat a player from the lobby took.
    pub lobby_seat: Option<Seat>,
    /// An engine game's engine, or why it cannot be had.
    pub engine: Option<Result<PlayerSpec, String>>,
    /// The position and the moves that led to it.
    pub table: Box<dyn Table>,
    /// The game's clock, when it has one.
    pub clock: Option<Clock>,
    /// How the game ended, once it has.
    pub end: Option<Outcome>,
    /// The seat offering a draw (online).
    pub draw_offer: Option<Seat>,
    /// The seat asking to take its last move back (online).
    pub takeback_request: Option<Seat>,
    /// Takebacks so far: an engine's answer for a position taken back is dropped.
    pub takebacks: u64,
    /// After the end: the seat asking for a rematch (online).
    pub rematch_request: Option<Seat>,
    /// The rematch's game id, once it has started.
    pub rematch: Option<String>,
    /// Each spectator connection's suggestion for the current position.
    pub suggestions: HashMap<u64, String>,
    /// Spectator connections.
    pub spectators: usize,
    /// Flips, engine seeds and new game ids.
    pub rng: StdRng,
    /// The ply an engine is thinking on, so that it is asked once.
    pub engine_busy: Option<usize>,
    /// The ply the clock's timer watches, so that one timer runs per ply.
    pub timer_for: Option<usize>,
}

impl RoomState {
    /// Plies played, the starting record's included.
    pub fn plies(&self) -> usize {
        self.table.moves().len()
    }

    /// The game has ended.
    pub fn over(&self) -> bool {
        self.end.is_some()
    }

    /// Both seats are taken.
    pub fn live(&self) -> bool {
        self.row.names.iter().all(Option::is_some)
    }

    /// Whether `seat` has moved since the game was created (imported moves not counted).
    pub fn has_moved(&self, seat: Seat) -> bool {
        let played = self.plies().saturating_sub(self.row.start_plies);
        // Turns alternate, so after one ply the first mover is the side not to move.
        played >= 2 || (played == 1 && self.to_move() != seat)
    }

    /// Both sides have moved once: the clock runs from here.
    pub fn started(&self) -> bool {
        self.plies() >= self.row.start_plies + 2
    }

    /// Whether `role` may abort now: a seat that has not moved yet, in a game not over.
    pub fn can_abort(&self, role: Role) -> bool {
        let seat = match role {
            Role::Seat(seat) => seat,
            Role::Both => self.to_move(),
            Role::Spectator => return false,
        };
        !self.over() && (!self.has_moved(seat) || self.engine_missing().is_some())
    }

    /// The seat to move.
    pub fn to_move(&self) -> Seat {
        self.table.to_move()
    }

    /// The engine's spec, when the seat to move is an engine's that can be had.
    pub fn engine_to_move(&self) -> Option<PlayerSpec> {
        let seat = self.to_move();
        if self.over() || self.row.tokens[seat.index()].is_some() {
            return None;
        }
        self.engine.clone()?.ok()
    }

    /// Why the engine of a game going on cannot be had.
    pub fn engine_missing(&self) -> Option<&str> {
        self.engine.as_ref()?.as_ref().err().map(String::as_str).filter(|_| !self.over())
    }
}

/// Why a takeback is refused at the start of the game.
pub const NOTHING_TO_TAKE_BACK: &str = "there is no move to take back";

/// The table of game `row` after `moves`, replayed from its start.
pub fn replayed(row: &GameRow, moves: &[String]) -> Result<Box<dyn Table>, String> {
    let mut table = new_table(&row.game, Some(&row.start))?;
    for (ply, mv) in moves.iter().enumerate() {
        table.apply(mv).map_err(|e| format!("move {} of game {}: {e}", ply + 1, row.id))?;
    }
    Ok(table)
}

//! The `state` frames a room publishes after every change: one per role, serialised once,
//! each showing what that role may see (suggestions go to spectators and the seat that
//! waits, moves only to a seat whose turn it is).

use super::protocol::{BySeat, ClockView, Outcome, State};
use super::role::{seat_name, Role};
use super::room_state::RoomState;
use crate::game::Player as Seat;

/// The `state` frame for each role, serialised once per change.
#[derive(Debug, Default)]
pub struct Frames {
    spectator: String,
    red: String,
    black: String,
    both: String,
}

impl Frames {
    /// The frame `role` is sent.
    pub fn for_role(&self, role: Role) -> &str {
        match role {
            Role::Spectator => &self.spectator,
            Role::Seat(Seat::First) => &self.red,
            Role::Seat(Seat::Second) => &self.black,
            Role::Both => &self.both,
        }
    }

    /// The `state` frame for every role of game `id` in the state `room`.
    pub fn of(id: &str, room: &RoomState) -> Frames {
        let snapshot = room.table.snapshot();
        let mut tally: Vec<(String, usize)> = Vec::new();
        for mv in room.suggestions.values() {
            match tally.iter_mut().find(|(m, _)| m == mv) {
                Some(entry) => entry.1 += 1,
                None => tally.push((mv.clone(), 1)),
            }
        }
        tally.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        let [red_color, black_color] = snapshot.colors.clone();
        let mut state = State {
            kind: "state".to_string(),
            id: id.to_string(),
            game: room.row.game.clone(),
            mode: room.row.mode.clone(),
            you: String::new(),
            seats: BySeat { red: room.row.names[0].clone(), black: room.row.names[1].clone() },
            colors: BySeat { red: red_color, black: black_color },
            start: room.table.start(),
            fen: snapshot.fen,
            moves: room.table.moves().to_vec(),
            move_names: room.table.move_names().to_vec(),
            board: snapshot.board,
            to_move: seat_name(snapshot.to_move).to_string(),
            // No move is offered before both seats are taken, nor after the end.
            legal: if room.over() || !room.live() { Vec::new() } else { snapshot.legal },
            legal_names: if room.over() || !room.live() { Vec::new() } else { snapshot.legal_names },
            repetition_warnings: snapshot.repetition_warnings,
            check: snapshot.check,
            last: room.table.moves().last().map(|mv| mv.split(':').next().unwrap_or_default().to_string()),
            status: room.end.clone().unwrap_or(Outcome { over: false, result: None, reason: None, text: None }),
            draw_offer: room.draw_offer.map(|seat| seat_name(seat).to_string()),
            takeback_request: room.takeback_request.map(|seat| seat_name(seat).to_string()),
            rematch_request: room.rematch_request.map(|seat| seat_name(seat).to_string()),
            rematch: room.rematch.clone(),
            clock: room.clock.as_ref().map(|clock| ClockView {
                red_ms: clock.left(Seat::First),
                black_ms: clock.left(Seat::Second),
                running: clock.running().map(|seat| seat_name(seat).to_string()),
                increment_ms: clock.increment_ms(),
            }),
            suggestions: Vec::new(),
            spectators: room.spectators,
            can_abort: false,
            lobby_seat: room.lobby_seat.map(|seat| seat_name(seat).to_string()),
            engine_missing: room.engine_missing().map(String::from),
        };
        let mut frame = |role: Role| {
            let shown = match role {
                Role::Spectator => true,
                Role::Seat(seat) => seat != snapshot.to_move,
                Role::Both => false,
            };
            state.you = role.as_str().to_string();
            state.can_abort = room.can_abort(role);
            state.suggestions = if shown { tally.clone() } else { Vec::new() };
            serde_json::to_string(&state).unwrap_or_default()
        };
        Frames {
            spectator: frame(Role::Spectator),
            red: frame(Role::Seat(Seat::First)),
            black: frame(Role::Seat(Seat::Second)),
            both: frame(Role::Both),
        }
    }
}

//! What one seat offers and the other answers: draws, takebacks and rematches. Each
//! answer changes the room's state and says what the room must do next ([`Effect`]): the
//! room stores and publishes it.

use rand::Rng;

use super::protocol::ClientFrame;
use super::role::Role;
use super::room_state::{RoomState, NOTHING_TO_TAKE_BACK};
use super::store::GameRow;
use crate::date::unix_now;
use crate::game::Player as Seat;

/// What an offer or its answer does to the game.
#[derive(Debug)]
pub enum Effect {
    /// Only an offer changed: publish the state.
    Changed,
    /// The game ends, won by a seat or drawn (`None`), for a reason.
    Finish(Option<Seat>, &'static str),
    /// The last this many plies are taken back.
    Undo(usize),
    /// The rematch starts: this new game is opened.
    Rematch(Box<GameRow>),
}

/// Draw offers, acceptances and refusals.
pub fn draw(room: &mut RoomState, role: Role, frame: &ClientFrame) -> Result<Effect, String> {
    let seat = match (role, room.row.mode.as_str()) {
        (Role::Spectator, _) => return Err("spectators cannot offer or accept draws".to_string()),
        (Role::Both, _) if matches!(frame, ClientFrame::DeclineDraw) => {
            return Err("there is no draw offer to answer".to_string())
        }
        (Role::Both, _) => room.to_move(),
        (Role::Seat(seat), "online") => seat,
        _ => return Err("the engine does not take draw offers".to_string()),
    };
    if matches!(frame, ClientFrame::OfferDraw) && !room.has_moved(seat) {
        return Err("you have not moved yet: abort the game instead of offering a draw".to_string());
    }
    if role == Role::Both {
        return Ok(Effect::Finish(None, "agreement"));
    }
    match frame {
        ClientFrame::OfferDraw if room.draw_offer == Some(seat.opponent()) => Ok(Effect::Finish(None, "agreement")),
        ClientFrame::OfferDraw => {
            room.draw_offer = Some(seat);
            Ok(Effect::Changed)
        }
        _ if room.draw_offer != Some(seat.opponent()) => Err("there is no draw offer to answer".to_string()),
        ClientFrame::AcceptDraw => Ok(Effect::Finish(None, "agreement")),
        _ => {
            room.draw_offer = None;
            Ok(Effect::Changed)
        }
    }
}

/// Takebacks: at once on one device (the last ply) and against the engine (back to the
/// player's turn before its last move); online by request and acceptance (the asker's
/// last move, and the reply to it if there was one). Xiangqi only: a Banqi flip cannot
/// be hidden again.
pub fn takeback(room: &mut RoomState, role: Role, frame: &ClientFrame) -> Result<Effect, String> {
    if room.row.game != "xiangqi" {
        return Err("takebacks are for Xiangqi: a Banqi flip cannot be hidden again".to_string());
    }
    // The plies that take `asker`'s last move back.
    let plies_for = |room: &RoomState, asker: Seat| if room.to_move() == asker { 2 } else { 1 };
    let seat = match role {
        Role::Spectator => return Err("spectators cannot take moves back".to_string()),
        Role::Both => return Ok(Effect::Undo(1)),
        Role::Seat(seat) if room.row.mode != "online" => return Ok(Effect::Undo(plies_for(room, seat))),
        Role::Seat(seat) => seat,
    };
    let asked = room.takeback_request == Some(seat.opponent());
    match frame {
        ClientFrame::DeclineTakeback if asked => {
            room.takeback_request = None;
            Ok(Effect::Changed)
        }
        ClientFrame::DeclineTakeback => Err("there is no takeback request to answer".to_string()),
        _ if asked => Ok(Effect::Undo(plies_for(room, seat.opponent()))),
        _ if plies_for(room, seat) > room.plies() => Err(NOTHING_TO_TAKE_BACK.to_string()),
        _ => {
            room.takeback_request = Some(seat);
            Ok(Effect::Changed)
        }
    }
}

/// A rematch once the game is over: against the engine or on one device at once;
/// online when both seats have asked. The new game starts where this one started, with
/// the seats (their tokens and names) swapped and the same clock.
pub fn rematch(room: &mut RoomState, role: Role) -> Result<Effect, String> {
    if !room.over() {
        return Err("a rematch is for a finished game".to_string());
    }
    if room.rematch.is_some() {
        return Err("the rematch has started".to_string());
    }
    match role {
        Role::Spectator => return Err("spectators cannot ask for a rematch".to_string()),
        Role::Seat(seat) if room.row.mode == "online" && room.rematch_request != Some(seat.opponent()) => {
            room.rematch_request = Some(seat);
            return Ok(Effect::Changed);
        }
        _ => {}
    }
    let old = &room.row;
    let row = GameRow {
        id: format!("{:016x}", room.rng.random::<u64>()),
        created: unix_now(),
        tokens: [old.tokens[1].clone(), old.tokens[0].clone()],
        names: [old.names[1].clone(), old.names[0].clone()],
        left_ms: old.clock.map(|(base, _)| [base, base]),
        end: None,
        start_plies: 0,
        ..old.clone()
    };
    Ok(Effect::Rematch(Box::new(row)))
}

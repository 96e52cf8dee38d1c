//! Who a connection to a room is: a seat, both seats (one device), or a spectator.

use crate::game::Player as Seat;

/// Who a connection is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// A player's seat.
    Seat(Seat),
    /// The local mode's token: both seats.
    Both,
    /// A watcher.
    Spectator,
}

impl Role {
    /// The protocol's name: `red`, `black`, `both`, `spectator`.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Seat(seat) => seat_name(seat),
            Role::Both => "both",
            Role::Spectator => "spectator",
        }
    }
}

/// A seat's protocol name: `red` or `black`.
pub fn seat_name(seat: Seat) -> &'static str {
    match seat {
        Seat::First => "red",
        Seat::Second => "black",
    }
}

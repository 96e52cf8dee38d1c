//! The frames and bodies of the `serve` protocol (docs/web-protocol.md), as serde types.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::records::full_width_digits;

/// A frame a client sends over the game's WebSocket.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientFrame {
    /// A seat plays a move on its turn.
    Move {
        /// The move as ICCS text (`h2e2`; a Banqi flip `b3b3`).
        #[serde(rename = "move")]
        mv: String,
    },
    /// A spectator's version of the next move.
    Suggest {
        /// The move as ICCS text.
        #[serde(rename = "move")]
        mv: String,
    },
    /// A seat gives up.
    Resign,
    /// A seat offers a draw.
    OfferDraw,
    /// A seat accepts the opponent's draw offer.
    AcceptDraw,
    /// A seat declines the opponent's draw offer.
    DeclineDraw,
    /// A seat takes its last move back: at once against the engine or on one device;
    /// online, asks the opponent, or accepts the opponent's request.
    Takeback,
    /// A seat declines the opponent's takeback request.
    DeclineTakeback,
    /// After the end, a seat asks for a new game with the colours swapped (against the
    /// engine or on one device at once; online, asks the opponent or accepts its request).
    Rematch,
    /// A seat asks the hint engine for a move.
    Hint,
    /// A seat that has not moved yet calls the game off: no result. Also the way out of
    /// an engine game whose engine cannot be had.
    Abort,
    /// An engine game whose engine cannot be had goes on against another offered engine.
    ChangeEngine {
        /// The offered engine's name.
        engine: String,
    },
    /// Answered by `pong`.
    Ping,
}

/// A frame the server sends to one client (the `state` frame is [`State`]).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Reply {
    /// The hint engine's move for the side to move.
    Hint {
        /// The move.
        #[serde(rename = "move")]
        mv: String,
    },
    /// What was wrong with the client's last frame, in one line.
    Error {
        /// The line.
        message: String,
    },
    /// The answer to `ping`.
    Pong,
}

impl Reply {
    /// An `error` frame.
    pub fn error(message: impl Into<String>) -> Reply {
        Reply::Error { message: message.into() }
    }

    /// The frame as JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// A game's clock settings in a `NewGame` body.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ClockSetting {
    /// Each side's starting time, in seconds.
    pub base_s: f64,
    /// Time added after each of a side's moves, in seconds.
    #[serde(default)]
    pub increment_s: f64,
}

/// The body of `POST /api/games`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// `xiangqi` or `banqi`.
    pub game: String,
    /// `engine`, `local` or `online`.
    pub mode: String,
    /// The engine's name (engine mode).
    #[serde(default)]
    pub engine: Option<String>,
    /// The human's side (engine mode) or the creator's (online): `red`, `black`, `random`.
    #[serde(default)]
    pub side: Option<String>,
    /// The clock; none when absent.
    #[serde(default)]
    pub clock: Option<ClockSetting>,
    /// The start position (Xiangqi only).
    #[serde(default)]
    pub fen: Option<String>,
    /// A game to go on from (Xiangqi only; not with `fen`): a FEN, or a record (PGN or a
    /// plain move list in ICCS, WXF or Chinese) whose moves are played at once.
    #[serde(default)]
    pub record: Option<String>,
    /// The creator's nickname, shown on its seat (`human` when absent).
    #[serde(default)]
    pub name: Option<String>,
    /// Online: listed in the lobby, where anyone may take the free seat (and the invite
    /// link is then void). Without it only the invite link seats the opponent.
    #[serde(default)]
    pub open: bool,
}

/// The body of `POST /api/games/<id>/join` (optional).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Join {
    /// The joiner's nickname, shown on its seat (`human` when absent).
    #[serde(default)]
    pub name: Option<String>,
}

/// The longest nickname kept, in characters.
const NICKNAME_CHARS: usize = 24;

/// A player's nickname as shown on its seat: `text` without control characters or the
/// `engine:` prefix engines' seats have, trimmed, at most [`NICKNAME_CHARS`] characters;
/// `human` when nothing is left.
pub fn nickname(text: Option<&str>) -> String {
    let text = text.unwrap_or_default();
    let clean: String = text.chars().filter(|c| !c.is_control()).take(NICKNAME_CHARS).collect();
    let clean = clean.trim();
    if clean.is_empty() || clean.to_lowercase().starts_with("engine:") {
        "human".to_string()
    } else {
        clean.to_string()
    }
}

/// The links of a created game.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Links {
    /// The creator's own seat.
    pub play: String,
    /// The other seat (online only).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub opponent: Option<String>,
    /// The spectators' link.
    pub watch: String,
}

/// The answer to `POST /api/games`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Created {
    /// The game's id.
    pub id: String,
    /// The creator's seat token (local mode: both sides).
    pub token: String,
    /// The page links.
    pub links: Links,
}

/// One game as the lobby and `GET /api/games/<id>` show it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct GameSummary {
    /// The game's id.
    pub id: String,
    /// `xiangqi` or `banqi`.
    pub game: String,
    /// `engine`, `local` or `online`.
    pub mode: String,
    /// Creation time, seconds since the Unix epoch.
    pub created: u64,
    /// `open`, `live` or `over`.
    pub status: String,
    /// The red (first) seat's player, `None` while free.
    pub red: Option<String>,
    /// The black (second) seat's player, `None` while free.
    pub black: Option<String>,
    /// Plies played.
    pub plies: usize,
    /// The clock, when the game has one.
    pub clock: Option<ClockSetting>,
    /// `1-0`, `0-1`, `1/2-1/2`, or `None` while the game goes on.
    pub result: Option<String>,
    /// Spectators connected.
    pub spectators: usize,
}

/// A pair of values, one per seat, named as the protocol names seats.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct BySeat<T> {
    /// The red (first) seat's.
    pub red: T,
    /// The black (second) seat's.
    pub black: T,
}

/// How the game stands: going on, or over with its result.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Outcome {
    /// True once the game is over.
    pub over: bool,
    /// `1-0`, `0-1` or `1/2-1/2`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub result: Option<String>,
    /// `checkmate`, `time`, `resignation`, …
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub reason: Option<String>,
    /// `Red wins by checkmate`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub text: Option<String>,
}

/// The clocks as a `state` frame shows them.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct ClockView {
    /// Red's (the first seat's) time left.
    pub red_ms: u64,
    /// Black's (the second seat's) time left.
    pub black_ms: u64,
    /// The seat whose time runs.
    pub running: Option<String>,
    /// Time added after each move.
    pub increment_ms: u64,
}

/// A Xiangqi move as players read it (the protocol's own move texts are ICCS).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct MoveNames {
    /// WXF: `C2.5`.
    pub wxf: String,
    /// Chinese as records write it: `炮二平五`, Black's figures full-width (`马８进７`).
    pub chinese: String,
}

impl MoveNames {
    /// The names of a move written `wxf` and `chinese` by the rules core: Black's Chinese
    /// figures made full-width, as the PGN export and Chinese xiangqi software write them.
    pub fn new(wxf: String, chinese: String) -> MoveNames {
        MoveNames { wxf, chinese: full_width_digits(&chinese) }
    }
}

/// The `state` frame: everything a client draws.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct State {
    /// Always `state`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The game's id.
    pub id: String,
    /// `xiangqi` or `banqi`.
    pub game: String,
    /// `engine`, `local` or `online`.
    pub mode: String,
    /// `red`, `black`, `both` or `spectator`.
    pub you: String,
    /// Who sits in each seat (`human`, `engine: easy`), `None` while free.
    pub seats: BySeat<Option<String>>,
    /// Banqi: the colour each seat plays, once decided.
    pub colors: BySeat<Option<String>>,
    /// The start position's text.
    pub start: String,
    /// The current position's text.
    pub fen: String,
    /// The moves as recorded (Banqi flips with the piece: `b3b3:R`).
    pub moves: Vec<String>,
    /// Xiangqi: each of `moves` in WXF and Chinese (empty for Banqi).
    pub move_names: Vec<MoveNames>,
    /// The board's cells, top rank first: `""` empty, a FEN letter, `X` face-down.
    pub board: Vec<String>,
    /// The seat to move.
    pub to_move: String,
    /// The legal moves of the side to move (empty when over).
    pub legal: Vec<String>,
    /// Xiangqi: each of `legal` in WXF and Chinese (empty for Banqi).
    pub legal_names: Vec<MoveNames>,
    /// The moves of `legal` that let a repetition end the game against their player, each
    /// with what it means ("this move repeats the position for the third time: …").
    pub repetition_warnings: BTreeMap<String, String>,
    /// Xiangqi: the square of the general in check.
    pub check: Option<String>,
    /// The last move.
    pub last: Option<String>,
    /// Going on, or the result.
    pub status: Outcome,
    /// The seat that offers a draw.
    pub draw_offer: Option<String>,
    /// The seat asking to take its last move back (online), if any.
    pub takeback_request: Option<String>,
    /// After the end: the seat asking for a rematch (online), if any.
    pub rematch_request: Option<String>,
    /// The rematch's game id once it is created: each seat goes on there with its own
    /// token, now for the other colour.
    pub rematch: Option<String>,
    /// The clocks, when the game has them; they run once both sides have moved.
    pub clock: Option<ClockView>,
    /// Whether this connection's seat may abort the game now (it has not moved yet).
    pub can_abort: bool,
    /// The seat a player from the lobby took (the invite link for it is void).
    pub lobby_seat: Option<String>,
    /// Why the game's engine cannot be had (after a restart): the game waits for another
    /// engine (`change_engine`) or its end (`abort`).
    pub engine_missing: Option<String>,
    /// The spectators' suggestions for this position, most first (empty where hidden).
    pub suggestions: Vec<(String, usize)>,
    /// Spectators connected.
    pub spectators: usize,
}

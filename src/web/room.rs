//! One game's room: its table, seats and tokens, clock, draw offer, spectators and their
//! suggestions. Every change is stored first, then published as new `state` frames to
//! every connection; the room also runs its engine and its clock's timer.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use tokio::sync::{mpsc, watch};

use super::clock::Clock;
use super::ending::{aborted, outcome};
use super::engines::{restored_engine, think, Engine, HINT_SPEC};
use super::protocol::{BySeat, ClientFrame, ClockSetting, ClockView, GameSummary, Outcome, Reply, State};
use super::store::{GameRow, Store};
use super::table::{new_table, Table};
use crate::date::unix_now;
use crate::game::{Player as Seat, Status};
use crate::players::PlayerSpec;

/// What the rooms share: the database and the engines offered.
pub struct Context {
    /// The database.
    pub store: Store,
    /// The engines offered.
    pub engines: Vec<Engine>,
    /// Every room, by game id.
    pub rooms: Mutex<HashMap<String, Arc<Room>>>,
}

impl Context {
    /// The context of a server with `store` and `engines`, and no room yet.
    pub fn new(store: Store, engines: Vec<Engine>) -> Context {
        Context { store, engines, rooms: Mutex::default() }
    }

    /// The room of game `id`.
    pub fn room(&self, id: &str) -> Option<Arc<Room>> {
        self.rooms.lock().unwrap_or_else(|p| p.into_inner()).get(id).cloned()
    }

    /// Stores a new game with the moves it starts with and opens its room: replayed
    /// under the server's rules first, so that nothing unplayable is stored.
    pub fn open_game(self: &Arc<Self>, row: GameRow, moves: &[String]) -> Result<Arc<Room>, String> {
        let room = Room::restore(Arc::clone(self), row.clone(), moves)?;
        self.store.insert(&row, moves)?;
        self.rooms.lock().unwrap_or_else(|p| p.into_inner()).insert(row.id, Arc::clone(&room));
        Ok(room)
    }
}

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
            Role::Seat(seat) => seat_str(seat),
            Role::Both => "both",
            Role::Spectator => "spectator",
        }
    }
}

/// A seat's protocol name.
fn seat_str(seat: Seat) -> &'static str {
    match seat {
        Seat::First => "red",
        Seat::Second => "black",
    }
}

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
}

/// The table of game `row` after `moves`, replayed from its start.
fn replayed(row: &GameRow, moves: &[String]) -> Result<Box<dyn Table>, String> {
    let mut table = new_table(&row.game, Some(&row.start))?;
    for (ply, mv) in moves.iter().enumerate() {
        table.apply(mv).map_err(|e| format!("move {} of game {}: {e}", ply + 1, row.id))?;
    }
    Ok(table)
}

/// Why a takeback is refused at the start of the game.
const NOTHING_TO_TAKE_BACK: &str = "there is no move to take back";

/// A room's mutable state.
struct Inner {
    row: GameRow,
    /// The seat a player from the lobby took.
    lobby_seat: Option<Seat>,
    /// An engine game's engine, or why it cannot be had.
    engine: Option<Result<PlayerSpec, String>>,
    table: Box<dyn Table>,
    clock: Option<Clock>,
    end: Option<Outcome>,
    draw_offer: Option<Seat>,
    /// The seat asking to take its last move back (online).
    takeback_request: Option<Seat>,
    /// Takebacks so far: an engine's answer for a position taken back is dropped.
    takebacks: u64,
    /// After the end: the seat asking for a rematch (online), and the rematch's id.
    rematch_request: Option<Seat>,
    rematch: Option<String>,
    /// Each spectator connection's suggestion for the current position.
    suggestions: HashMap<u64, String>,
    spectators: usize,
    rng: StdRng,
    /// The ply an engine is thinking on, so that it is asked once.
    engine_busy: Option<usize>,
    /// The ply the clock's timer watches, so that one timer runs per ply.
    timer_for: Option<usize>,
}

impl Inner {
    fn plies(&self) -> usize {
        self.table.moves().len()
    }

    fn over(&self) -> bool {
        self.end.is_some()
    }

    /// Both seats are taken.
    fn live(&self) -> bool {
        self.row.names.iter().all(Option::is_some)
    }

    /// Whether `seat` has moved since the game was created (imported moves not counted).
    fn has_moved(&self, seat: Seat) -> bool {
        let played = self.plies().saturating_sub(self.row.start_plies);
        // Turns alternate, so after one ply the first mover is the side not to move.
        played >= 2 || (played == 1 && self.to_move() != seat)
    }

    /// Both sides have moved once: the clock runs from here.
    fn started(&self) -> bool {
        self.plies() >= self.row.start_plies + 2
    }

    /// Whether `role` may abort now: a seat that has not moved yet, in a game not over.
    fn can_abort(&self, role: Role) -> bool {
        let seat = match role {
            Role::Seat(seat) => seat,
            Role::Both => self.to_move(),
            Role::Spectator => return false,
        };
        !self.over() && (!self.has_moved(seat) || self.engine_missing().is_some())
    }

    fn to_move(&self) -> Seat {
        self.table.to_move()
    }

    /// The engine's spec, when the seat to move is an engine's that can be had.
    fn engine_to_move(&self) -> Option<PlayerSpec> {
        let seat = self.to_move();
        if self.over() || self.row.tokens[seat.index()].is_some() {
            return None;
        }
        self.engine.clone()?.ok()
    }

    /// Why the engine of a game going on cannot be had.
    fn engine_missing(&self) -> Option<&str> {
        self.engine.as_ref()?.as_ref().err().map(String::as_str).filter(|_| !self.over())
    }
}

/// An open game that nobody has moved in leaves the lobby this long after its creation.
const UNSTARTED_LISTED_S: u64 = 30 * 60;

/// One game and the connections that play or watch it.
pub struct Room {
    /// The game's id.
    pub id: String,
    context: Arc<Context>,
    inner: Mutex<Inner>,
    frames: watch::Sender<Arc<Frames>>,
}

impl Room {
    /// Rebuilds a room from its stored row and moves, and resumes its engine and clock.
    pub fn restore(context: Arc<Context>, row: GameRow, moves: &[String]) -> Result<Arc<Room>, String> {
        let table = replayed(&row, moves)?;
        let engine = row
            .engine
            .as_deref()
            .filter(|_| row.mode == "engine")
            .map(|name| restored_engine(name, row.engine_identity.as_ref(), &context.engines));
        let clock = row.clock.map(|(base, increment)| Clock::new(row.left_ms.unwrap_or([base, base]), increment));
        let room = Arc::new(Room {
            id: row.id.clone(),
            context,
            inner: Mutex::new(Inner {
                end: row.end.clone(),
                row,
                lobby_seat: None,
                engine,
                table,
                clock,
                draw_offer: None,
                takeback_request: None,
                takebacks: 0,
                rematch_request: None,
                rematch: None,
                suggestions: HashMap::new(),
                spectators: 0,
                rng: StdRng::from_rng(&mut rand::rng()),
                engine_busy: None,
                timer_for: None,
            }),
            frames: watch::Sender::new(Arc::default()),
        });
        {
            let mut inner = room.lock();
            room.start_clock(&mut inner);
            room.changed(&mut inner);
        }
        Ok(room)
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The newest `state` frames, for a new connection.
    pub fn subscribe(&self) -> watch::Receiver<Arc<Frames>> {
        self.frames.subscribe()
    }

    /// Whether the lobby lists the game at `now` (seconds since the Unix epoch): open to
    /// anyone, not over, and either moved in since its creation (a pasted record's moves
    /// not counted) or created less than [`UNSTARTED_LISTED_S`] ago.
    pub fn in_lobby(&self, now: u64) -> bool {
        let inner = self.lock();
        inner.row.open
            && !inner.over()
            && (inner.plies() > inner.row.start_plies || now.saturating_sub(inner.row.created) < UNSTARTED_LISTED_S)
    }

    /// The game's summary for the lobby.
    pub fn summary(&self) -> GameSummary {
        let inner = self.lock();
        GameSummary {
            id: self.id.clone(),
            game: inner.row.game.clone(),
            mode: inner.row.mode.clone(),
            created: inner.row.created,
            status: if inner.over() {
                "over"
            } else if inner.live() {
                "live"
            } else {
                "open"
            }
            .to_string(),
            red: inner.row.names[0].clone(),
            black: inner.row.names[1].clone(),
            plies: inner.plies(),
            clock: inner.row.clock.map(|(base, increment)| ClockSetting {
                base_s: base as f64 / 1000.0,
                increment_s: increment as f64 / 1000.0,
            }),
            result: inner.end.as_ref().and_then(|end| end.result.clone()),
            spectators: inner.spectators,
        }
    }

    /// The game as a record for PGN.
    pub fn record(&self) -> crate::records::GameRecord {
        let inner = self.lock();
        let name = |seat: usize| inner.row.names[seat].clone().unwrap_or_else(|| "?".to_string());
        let end = inner.end.clone().unwrap_or(Outcome { over: false, result: None, reason: None, text: None });
        crate::records::GameRecord {
            game: inner.row.game.clone(),
            red: name(0),
            black: name(1),
            start: inner.table.start(),
            moves: inner.table.moves().to_vec(),
            result: end.result.unwrap_or_else(|| "*".to_string()),
            reason: end.reason.unwrap_or_default(),
            round: 1,
            opening: None,
        }
    }

    /// A new connection with `token` (none: a spectator): its role, and a warning when the
    /// token is no seat of this game. An online game's free seat is taken by its token, for
    /// the player `name` (a nickname, already cleaned).
    pub fn join(self: &Arc<Self>, token: Option<&str>, name: &str) -> (Role, Option<String>) {
        let mut inner = self.lock();
        let seats: Vec<Seat> = [Seat::First, Seat::Second]
            .into_iter()
            .filter(|seat| token.is_some() && inner.row.tokens[seat.index()].as_deref() == token)
            .collect();
        let role = match seats.as_slice() {
            [_, _] => Role::Both,
            [seat] => Role::Seat(*seat),
            _ => Role::Spectator,
        };
        if let Role::Seat(seat) = role {
            if inner.row.names[seat.index()].is_none() {
                if let Err(e) = self.seat_human(&mut inner, seat.index(), name, None) {
                    return (Role::Spectator, Some(e));
                }
            }
        }
        if role == Role::Spectator {
            inner.spectators += 1;
        }
        self.changed(&mut inner);
        let warning = (role == Role::Spectator && token.is_some())
            .then(|| format!("the token is not a seat of game {}; you are watching as a spectator", self.id));
        (role, warning)
    }

    /// Gives the free seat of a game open to anyone to a newcomer from the lobby, under
    /// `token`, which replaces the seat's invite token (that link only watches from now
    /// on); or says why there is none.
    pub fn take_free_seat(self: &Arc<Self>, token: String, name: &str) -> Result<String, String> {
        let mut inner = self.lock();
        match inner.row.mode.as_str() {
            "engine" => return Err(format!("game {} is played against the engine: it has no seat to join", self.id)),
            "local" => {
                return Err(format!("game {} is a local game, both sides on one device: no seat to join", self.id))
            }
            _ => {}
        }
        if !inner.row.open {
            return Err(format!("game {} is by invitation only: its seat is taken with the invite link", self.id));
        }
        let free = (0..2).find(|&i| inner.row.names[i].is_none() && inner.row.tokens[i].is_some() && !inner.over());
        let Some(seat) = free else { return Err(format!("game {} has no free seat", self.id)) };
        self.seat_human(&mut inner, seat, name, Some(&token))?;
        inner.lobby_seat = Some(if seat == 0 { Seat::First } else { Seat::Second });
        self.changed(&mut inner);
        Ok(token)
    }

    /// Seats the human `name` at free seat `seat` (stored first), under `new_token` when given.
    fn seat_human(&self, inner: &mut Inner, seat: usize, name: &str, new_token: Option<&str>) -> Result<(), String> {
        self.context.store.take_seat(&self.id, seat, name, new_token)?;
        inner.row.names[seat] = Some(name.to_string());
        if let Some(token) = new_token {
            inner.row.tokens[seat] = Some(token.to_string());
        }
        Ok(())
    }

    /// A connection has closed.
    pub fn leave(self: &Arc<Self>, role: Role, connection: u64) {
        if role == Role::Spectator {
            let mut inner = self.lock();
            inner.spectators = inner.spectators.saturating_sub(1);
            inner.suggestions.remove(&connection);
            self.changed(&mut inner);
        }
    }

    /// Handles one frame from connection `connection` playing `role`: a reply for it
    /// alone, or an error line (and then nothing has changed). A hint comes later
    /// through `replies`.
    pub fn handle(
        self: &Arc<Self>,
        role: Role,
        connection: u64,
        frame: ClientFrame,
        replies: &mpsc::UnboundedSender<String>,
    ) -> Result<Option<Reply>, String> {
        let mut inner = self.lock();
        if inner.over() && !matches!(frame, ClientFrame::Ping | ClientFrame::Rematch) {
            return Err("the game is over".to_string());
        }
        match frame {
            ClientFrame::Ping => Ok(Some(Reply::Pong)),
            ClientFrame::Suggest { mv } => {
                if role != Role::Spectator {
                    return Err("only spectators suggest moves; players play them".to_string());
                }
                if !inner.table.is_legal(&mv) {
                    return Err(format!("`{mv}` is not a legal move in this position"));
                }
                inner.suggestions.insert(connection, mv);
                self.changed(&mut inner);
                Ok(None)
            }
            ClientFrame::Move { mv } => {
                let seat = self.seat_on_turn(&inner, role)?;
                if !inner.live() {
                    return Err("wait for an opponent to take the other seat".to_string());
                }
                if let Some(flagged) = inner.clock.as_ref().and_then(Clock::flagged) {
                    self.finish(&mut inner, Some(flagged.opponent()), "time")?;
                    return Err("time is up".to_string());
                }
                self.play(&mut inner, seat, &mv).map(|()| None)
            }
            ClientFrame::Resign if role == Role::Spectator => Err("spectators cannot resign".to_string()),
            ClientFrame::Resign | ClientFrame::OfferDraw | ClientFrame::AcceptDraw | ClientFrame::DeclineDraw
                if !inner.live() =>
            {
                Err("nobody has taken the other seat yet: abort the game instead".to_string())
            }
            ClientFrame::Abort => {
                if role == Role::Spectator {
                    return Err("spectators cannot abort the game".to_string());
                }
                if !inner.can_abort(role) {
                    return Err("too late to abort: you have moved; resign or offer a draw".to_string());
                }
                self.end(&mut inner, aborted()).map(|()| None)
            }
            ClientFrame::ChangeEngine { engine } => self.change_engine(&mut inner, role, &engine).map(|()| None),
            ClientFrame::Resign => {
                let seat = match role {
                    Role::Seat(seat) => seat,
                    Role::Both => inner.to_move(),
                    Role::Spectator => return Err("spectators cannot resign".to_string()),
                };
                // As the page offers it: a seat resigns once it has moved, and aborts before.
                if !inner.has_moved(seat) && inner.can_abort(role) {
                    return Err("you have not moved yet: abort the game instead".to_string());
                }
                self.finish(&mut inner, Some(seat.opponent()), "resignation").map(|()| None)
            }
            ClientFrame::OfferDraw | ClientFrame::AcceptDraw | ClientFrame::DeclineDraw => {
                self.draw(&mut inner, role, &frame).map(|()| None)
            }
            ClientFrame::Rematch => self.rematch(&mut inner, role).map(|()| None),
            ClientFrame::Takeback | ClientFrame::DeclineTakeback => {
                self.takeback(&mut inner, role, &frame).map(|()| None)
            }
            ClientFrame::Hint => {
                if role == Role::Spectator {
                    return Err("spectators cannot ask for hints".to_string());
                }
                let spec = match inner.row.mode.as_str() {
                    "engine" => inner.engine.clone().and_then(Result::ok),
                    "local" => HINT_SPEC.parse().ok(),
                    _ => return Err("hints are for engine and local games".to_string()),
                };
                let spec = spec.ok_or("no hint engine")?;
                let (table, replies) = (inner.table.boxed_clone(), replies.clone());
                let seed = inner.rng.random();
                tokio::spawn(async move {
                    let reply = match think(table, spec, seed).await {
                        Ok(mv) => Reply::Hint { mv },
                        Err(why) => Reply::error(format!("no hint: {why}")),
                    };
                    let _ = replies.send(reply.to_json());
                });
                Ok(None)
            }
        }
    }

    /// An engine game whose engine cannot be had goes on against the offered engine `name`.
    fn change_engine(self: &Arc<Self>, inner: &mut Inner, role: Role, name: &str) -> Result<(), String> {
        if role == Role::Spectator {
            return Err("spectators cannot choose the engine".to_string());
        }
        if inner.engine_missing().is_none() {
            return Err("the game's engine is playing; the engine is changed only when it cannot be had".to_string());
        }
        let engine =
            self.context.engines.iter().find(|e| e.name == name).ok_or_else(|| format!("unknown engine `{name}`"))?;
        if !engine.games.contains(&inner.row.game.as_str()) {
            return Err(format!("engine `{name}` does not play {}", inner.row.game));
        }
        let seat = (0..2).find(|&i| inner.row.tokens[i].is_none()).ok_or("the game has no engine seat")?;
        self.context.store.change_engine(&self.id, seat, name, &engine.identity)?;
        inner.row.engine = Some(name.to_string());
        inner.row.engine_identity = Some(engine.identity.clone());
        inner.row.names[seat] = Some(format!("engine: {name}"));
        inner.engine = Some(Ok(engine.spec.clone()));
        self.changed(inner);
        Ok(())
    }

    /// The seat `role` moves for, if it is its turn.
    fn seat_on_turn(&self, inner: &Inner, role: Role) -> Result<Seat, String> {
        let to_move = inner.to_move();
        match role {
            Role::Spectator => Err("spectators cannot move; send a suggestion instead".to_string()),
            Role::Both if inner.row.tokens[to_move.index()].is_some() => Ok(to_move),
            Role::Seat(seat) if seat == to_move => Ok(seat),
            _ => Err(format!("not your turn: {} to move", seat_str(to_move))),
        }
    }

    /// Draw offers, acceptances and refusals.
    fn draw(self: &Arc<Self>, inner: &mut Inner, role: Role, frame: &ClientFrame) -> Result<(), String> {
        let seat = match (role, inner.row.mode.as_str()) {
            (Role::Spectator, _) => return Err("spectators cannot offer or accept draws".to_string()),
            (Role::Both, _) if matches!(frame, ClientFrame::DeclineDraw) => {
                return Err("there is no draw offer to answer".to_string())
            }
            (Role::Both, _) => inner.to_move(),
            (Role::Seat(seat), "online") => seat,
            _ => return Err("the engine does not take draw offers".to_string()),
        };
        if matches!(frame, ClientFrame::OfferDraw) && !inner.has_moved(seat) {
            return Err("you have not moved yet: abort the game instead of offering a draw".to_string());
        }
        if role == Role::Both {
            return self.finish(inner, None, "agreement");
        }
        match frame {
            ClientFrame::OfferDraw if inner.draw_offer == Some(seat.opponent()) => {
                self.finish(inner, None, "agreement")
            }
            ClientFrame::OfferDraw => {
                inner.draw_offer = Some(seat);
                self.changed(inner);
                Ok(())
            }
            _ if inner.draw_offer != Some(seat.opponent()) => Err("there is no draw offer to answer".to_string()),
            ClientFrame::AcceptDraw => self.finish(inner, None, "agreement"),
            _ => {
                inner.draw_offer = None;
                self.changed(inner);
                Ok(())
            }
        }
    }

    /// Takebacks: at once on one device (the last ply) and against the engine (back to the
    /// player's turn before its last move); online by request and acceptance (the asker's
    /// last move, and the reply to it if there was one). Xiangqi only: a Banqi flip cannot
    /// be hidden again.
    fn takeback(self: &Arc<Self>, inner: &mut Inner, role: Role, frame: &ClientFrame) -> Result<(), String> {
        if inner.row.game != "xiangqi" {
            return Err("takebacks are for Xiangqi: a Banqi flip cannot be hidden again".to_string());
        }
        // The plies that take `asker`'s last move back.
        let plies_for = |inner: &Inner, asker: Seat| if inner.to_move() == asker { 2 } else { 1 };
        let seat = match role {
            Role::Spectator => return Err("spectators cannot take moves back".to_string()),
            Role::Both => return self.undo(inner, 1),
            Role::Seat(seat) if inner.row.mode != "online" => return self.undo(inner, plies_for(inner, seat)),
            Role::Seat(seat) => seat,
        };
        let asked = inner.takeback_request == Some(seat.opponent());
        match frame {
            ClientFrame::DeclineTakeback if asked => {
                inner.takeback_request = None;
                self.changed(inner);
                Ok(())
            }
            ClientFrame::DeclineTakeback => Err("there is no takeback request to answer".to_string()),
            _ if asked => self.undo(inner, plies_for(inner, seat.opponent())),
            _ if plies_for(inner, seat) > inner.plies() => Err(NOTHING_TO_TAKE_BACK.to_string()),
            _ => {
                inner.takeback_request = Some(seat);
                self.changed(inner);
                Ok(())
            }
        }
    }

    /// A rematch once the game is over: against the engine or on one device at once;
    /// online when both seats have asked. The new game starts where this one started, with
    /// the seats (their tokens and names) swapped and the same clock.
    fn rematch(self: &Arc<Self>, inner: &mut Inner, role: Role) -> Result<(), String> {
        if !inner.over() {
            return Err("a rematch is for a finished game".to_string());
        }
        if inner.rematch.is_some() {
            return Err("the rematch has started".to_string());
        }
        match role {
            Role::Spectator => return Err("spectators cannot ask for a rematch".to_string()),
            Role::Seat(seat) if inner.row.mode == "online" && inner.rematch_request != Some(seat.opponent()) => {
                inner.rematch_request = Some(seat);
                self.changed(inner);
                return Ok(());
            }
            _ => {}
        }
        let old = &inner.row;
        let id = format!("{:016x}", inner.rng.random::<u64>());
        let row = GameRow {
            id: id.clone(),
            created: unix_now(),
            tokens: [old.tokens[1].clone(), old.tokens[0].clone()],
            names: [old.names[1].clone(), old.names[0].clone()],
            left_ms: old.clock.map(|(base, _)| [base, base]),
            end: None,
            start_plies: 0,
            ..old.clone()
        };
        self.context.open_game(row, &[])?;
        inner.rematch = Some(id);
        inner.rematch_request = None;
        self.changed(inner);
        Ok(())
    }

    /// Takes the last `count` plies back: stored, the position rebuilt, the clock handed to
    /// the side to move, and any engine's answer for the old position dropped.
    fn undo(self: &Arc<Self>, inner: &mut Inner, count: usize) -> Result<(), String> {
        let plies = inner.plies().checked_sub(count).ok_or(NOTHING_TO_TAKE_BACK)?;
        let table = replayed(&inner.row, &inner.table.moves()[..plies])?;
        let to_move = table.to_move();
        let mut clock = inner.clock.clone();
        if let Some(clock) = clock.as_mut().filter(|clock| clock.running().is_some()) {
            if plies >= inner.row.start_plies + 2 {
                clock.start(to_move);
            } else {
                clock.stop();
            }
        }
        let left = clock.as_ref().map(|c| [c.left(Seat::First), c.left(Seat::Second)]);
        self.context.store.take_back(&self.id, plies, left)?;
        inner.table = table;
        inner.clock = clock;
        inner.takeback_request = None;
        inner.draw_offer = None;
        inner.suggestions.clear();
        inner.takebacks += 1;
        inner.engine_busy = None;
        inner.timer_for = None;
        self.changed(inner);
        Ok(())
    }

    /// Plays `text` for `seat`: checked, stored with the clocks and any result, then shown.
    fn play(self: &Arc<Self>, inner: &mut Inner, seat: Seat, text: &str) -> Result<(), String> {
        let recorded = inner.table.prepare(text, &mut inner.rng)?;
        let mut table = inner.table.boxed_clone();
        table.apply(&recorded)?;
        let end = match table.status() {
            Status::Over { winner, reason } => Some(outcome(&*table, winner, reason.as_str())),
            Status::Ongoing => None,
        };
        let mut clock = inner.clock.clone();
        if let Some(clock) = clock.as_mut() {
            if clock.running().is_some() {
                clock.moved(seat, table.to_move());
            } else if table.moves().len() >= inner.row.start_plies + 2 {
                clock.start(table.to_move());
            }
            if end.is_some() {
                clock.stop();
            }
        }
        let left = clock.as_ref().map(|c| [c.left(Seat::First), c.left(Seat::Second)]);
        self.context.store.add_move(&self.id, inner.plies(), &recorded, left, end.as_ref())?;
        inner.table = table;
        inner.clock = clock;
        inner.end = end;
        inner.draw_offer = None;
        inner.takeback_request = None;
        inner.suggestions.clear();
        self.changed(inner);
        Ok(())
    }

    /// Ends the game: `winner` (`None`: a draw) for `reason`; stored, then shown.
    fn finish(self: &Arc<Self>, inner: &mut Inner, winner: Option<Seat>, reason: &str) -> Result<(), String> {
        let end = outcome(&*inner.table, winner, reason);
        self.end(inner, end)
    }

    /// Ends the game with `end`: stored, then shown.
    fn end(self: &Arc<Self>, inner: &mut Inner, end: Outcome) -> Result<(), String> {
        self.context.store.finish(&self.id, &end)?;
        inner.end = Some(end);
        inner.draw_offer = None;
        if let Some(clock) = inner.clock.as_mut() {
            clock.stop();
        }
        self.changed(inner);
        Ok(())
    }

    /// Starts the clock of the side to move once both sides have moved.
    fn start_clock(&self, inner: &mut Inner) {
        let to_move = inner.to_move();
        let ready = inner.started() && !inner.over();
        if let Some(clock) = inner.clock.as_mut().filter(|c| ready && c.running().is_none()) {
            clock.start(to_move);
        }
    }

    /// Publishes the new state, and sets the engine and the clock's timer going.
    fn changed(self: &Arc<Self>, inner: &mut Inner) {
        self.frames.send_replace(Arc::new(self.frames_of(inner)));
        let ply = inner.plies();
        if let Some(spec) = inner.engine_to_move().filter(|_| inner.engine_busy != Some(ply)) {
            inner.engine_busy = Some(ply);
            let (room, table, seed) = (Arc::clone(self), inner.table.boxed_clone(), inner.rng.random());
            let takebacks = inner.takebacks;
            tokio::spawn(async move {
                let answer = think(table, spec, seed).await;
                room.engine_answered(ply, takebacks, answer);
            });
        }
        let running = inner.clock.as_ref().and_then(Clock::running).is_some();
        if running && !inner.over() && inner.timer_for != Some(ply) {
            inner.timer_for = Some(ply);
            let room = Arc::clone(self);
            tokio::spawn(async move { room.watch_clock(ply).await });
        }
    }

    /// The engine's answer on ply `ply` after `takebacks` takebacks: its move, or a loss
    /// when it failed.
    fn engine_answered(self: &Arc<Self>, ply: usize, takebacks: u64, answer: Result<String, String>) {
        let mut inner = self.lock();
        if inner.over() || inner.plies() != ply || inner.takebacks != takebacks {
            return;
        }
        let seat = inner.to_move();
        let played = answer.and_then(|mv| self.play(&mut inner, seat, &mv));
        if let Err(why) = played {
            eprintln!("game {}: the engine failed: {why}", self.id);
            if let Err(e) = self.finish(&mut inner, Some(seat.opponent()), "engine-failure") {
                eprintln!("game {}: {e}", self.id);
            }
        }
    }

    /// Ends the game on time when the clock of ply `ply` runs out.
    async fn watch_clock(self: Arc<Self>, ply: usize) {
        loop {
            let wait = {
                let mut inner = self.lock();
                if inner.over() || inner.plies() != ply {
                    return;
                }
                let Some(clock) = inner.clock.as_ref() else { return };
                if let Some(flagged) = clock.flagged() {
                    if let Err(e) = self.finish(&mut inner, Some(flagged.opponent()), "time") {
                        eprintln!("game {}: {e}", self.id);
                    }
                    return;
                }
                match clock.until_flag() {
                    Some(wait) => wait,
                    None => return,
                }
            };
            tokio::time::sleep(wait + std::time::Duration::from_millis(1)).await;
        }
    }

    /// The `state` frame for every role.
    fn frames_of(&self, inner: &Inner) -> Frames {
        let snapshot = inner.table.snapshot();
        let mut tally: Vec<(String, usize)> = Vec::new();
        for mv in inner.suggestions.values() {
            match tally.iter_mut().find(|(m, _)| m == mv) {
                Some(entry) => entry.1 += 1,
                None => tally.push((mv.clone(), 1)),
            }
        }
        tally.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        let [red_color, black_color] = snapshot.colors.clone();
        let mut state = State {
            kind: "state".to_string(),
            id: self.id.clone(),
            game: inner.row.game.clone(),
            mode: inner.row.mode.clone(),
            you: String::new(),
            seats: BySeat { red: inner.row.names[0].clone(), black: inner.row.names[1].clone() },
            colors: BySeat { red: red_color, black: black_color },
            start: inner.table.start(),
            fen: snapshot.fen,
            moves: inner.table.moves().to_vec(),
            move_names: inner.table.move_names().to_vec(),
            board: snapshot.board,
            to_move: seat_str(snapshot.to_move).to_string(),
            // No move is offered before both seats are taken, nor after the end.
            legal: if inner.over() || !inner.live() { Vec::new() } else { snapshot.legal },
            legal_names: if inner.over() || !inner.live() { Vec::new() } else { snapshot.legal_names },
            repetition_warnings: snapshot.repetition_warnings,
            check: snapshot.check,
            last: inner.table.moves().last().map(|mv| mv.split(':').next().unwrap_or_default().to_string()),
            status: inner.end.clone().unwrap_or(Outcome { over: false, result: None, reason: None, text: None }),
            draw_offer: inner.draw_offer.map(|seat| seat_str(seat).to_string()),
            takeback_request: inner.takeback_request.map(|seat| seat_str(seat).to_string()),
            rematch_request: inner.rematch_request.map(|seat| seat_str(seat).to_string()),
            rematch: inner.rematch.clone(),
            clock: inner.clock.as_ref().map(|clock| ClockView {
                red_ms: clock.left(Seat::First),
                black_ms: clock.left(Seat::Second),
                running: clock.running().map(|seat| seat_str(seat).to_string()),
                increment_ms: clock.increment_ms(),
            }),
            suggestions: Vec::new(),
            spectators: inner.spectators,
            can_abort: false,
            lobby_seat: inner.lobby_seat.map(|seat| seat_str(seat).to_string()),
            engine_missing: inner.engine_missing().map(String::from),
        };
        let mut frame = |role: Role| {
            let shown = match role {
                Role::Spectator => true,
                Role::Seat(seat) => seat != snapshot.to_move,
                Role::Both => false,
            };
            state.you = role.as_str().to_string();
            state.can_abort = inner.can_abort(role);
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

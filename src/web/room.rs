//! One game's room: its state behind one lock ([`RoomState`]) and what its connections
//! send — moves, suggestions, aborts, resignations, hints and the offers between the seats
//! ([`offers`]). Every change is stored first, then published as new `state` frames
//! ([`Frames`]) to every connection; the room also runs its engine and its clock's timer.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use tokio::sync::{mpsc, watch};

use super::clock::Clock;
use super::ending::{aborted, outcome};
use super::engines::{restored_engine, think, Engine, HINT_SPEC};
use super::frames::Frames;
use super::offers::{self, Effect};
use super::protocol::{ClientFrame, ClockSetting, GameSummary, Outcome, Reply};
use super::role::{seat_name, Role};
use super::room_state::{replayed, RoomState, NOTHING_TO_TAKE_BACK};
use super::store::{GameRow, Store};
use crate::game::{Player as Seat, Status};

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

/// An open game that nobody has moved in leaves the lobby this long after its creation.
const UNSTARTED_LISTED_S: u64 = 30 * 60;

/// One game and the connections that play or watch it.
pub struct Room {
    /// The game's id.
    pub id: String,
    context: Arc<Context>,
    inner: Mutex<RoomState>,
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
            inner: Mutex::new(RoomState {
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

    fn lock(&self) -> MutexGuard<'_, RoomState> {
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
    fn seat_human(
        &self,
        inner: &mut RoomState,
        seat: usize,
        name: &str,
        new_token: Option<&str>,
    ) -> Result<(), String> {
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
                let effect = offers::draw(&mut inner, role, &frame)?;
                self.apply(&mut inner, effect).map(|()| None)
            }
            ClientFrame::Rematch => {
                let effect = offers::rematch(&mut inner, role)?;
                self.apply(&mut inner, effect).map(|()| None)
            }
            ClientFrame::Takeback | ClientFrame::DeclineTakeback => {
                let effect = offers::takeback(&mut inner, role, &frame)?;
                self.apply(&mut inner, effect).map(|()| None)
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
    fn change_engine(self: &Arc<Self>, inner: &mut RoomState, role: Role, name: &str) -> Result<(), String> {
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
    fn seat_on_turn(&self, inner: &RoomState, role: Role) -> Result<Seat, String> {
        let to_move = inner.to_move();
        match role {
            Role::Spectator => Err("spectators cannot move; send a suggestion instead".to_string()),
            Role::Both if inner.row.tokens[to_move.index()].is_some() => Ok(to_move),
            Role::Seat(seat) if seat == to_move => Ok(seat),
            _ => Err(format!("not your turn: {} to move", seat_name(to_move))),
        }
    }

    /// Does what an answered offer asks: publishes it, ends the game, takes plies back or
    /// opens the rematch.
    fn apply(self: &Arc<Self>, inner: &mut RoomState, effect: Effect) -> Result<(), String> {
        match effect {
            Effect::Changed => {
                self.changed(inner);
                Ok(())
            }
            Effect::Finish(winner, reason) => self.finish(inner, winner, reason),
            Effect::Undo(plies) => self.undo(inner, plies),
            Effect::Rematch(row) => {
                let id = row.id.clone();
                self.context.open_game(*row, &[])?;
                inner.rematch = Some(id);
                inner.rematch_request = None;
                self.changed(inner);
                Ok(())
            }
        }
    }

    /// Takes the last `count` plies back: stored, the position rebuilt, the clock handed to
    /// the side to move, and any engine's answer for the old position dropped.
    fn undo(self: &Arc<Self>, inner: &mut RoomState, count: usize) -> Result<(), String> {
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
    fn play(self: &Arc<Self>, inner: &mut RoomState, seat: Seat, text: &str) -> Result<(), String> {
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
    fn finish(self: &Arc<Self>, inner: &mut RoomState, winner: Option<Seat>, reason: &str) -> Result<(), String> {
        let end = outcome(&*inner.table, winner, reason);
        self.end(inner, end)
    }

    /// Ends the game with `end`: stored, then shown.
    fn end(self: &Arc<Self>, inner: &mut RoomState, end: Outcome) -> Result<(), String> {
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
    fn start_clock(&self, inner: &mut RoomState) {
        let to_move = inner.to_move();
        let ready = inner.started() && !inner.over();
        if let Some(clock) = inner.clock.as_mut().filter(|c| ready && c.running().is_none()) {
            clock.start(to_move);
        }
    }

    /// Publishes the new state, and sets the engine and the clock's timer going.
    fn changed(self: &Arc<Self>, inner: &mut RoomState) {
        self.frames.send_replace(Arc::new(Frames::of(&self.id, inner)));
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
}

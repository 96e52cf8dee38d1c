//! All the rooms: created from `NewGame` bodies, rebuilt from the database when the
//! server starts, found by id, listed in the lobby.

use std::sync::Arc;
use std::time::Duration;

use rand::Rng;
use tokio::sync::Semaphore;

use super::analysis::{analyse, Analysis, AnalysisNet};
use super::engines::Engine;
use super::protocol::{nickname, Created, GameSummary, Links, NewGame};
use super::room::{Context, Room};
use super::store::GameRow;
use super::table::new_table;
use crate::date::unix_now;
use crate::game::xiangqi::{position_or_record, Notation};
use crate::game::{Game, Status};

/// Analyses run at once; more are refused until one ends.
const ANALYSES: usize = 2;

/// The rooms of a server, and its analysis board.
pub struct Hub {
    context: Arc<Context>,
    /// The trained net the analysis board shows, if one is offered.
    analysis_net: Option<AnalysisNet>,
    /// A permit per analysis running.
    analyses: Arc<Semaphore>,
}

impl Hub {
    /// Rebuilds every stored game (skipping, with a warning, one that cannot be replayed).
    pub fn open(context: Context) -> Result<Hub, String> {
        let context = Arc::new(context);
        for (row, moves) in context.store.load()? {
            let id = row.id.clone();
            match Room::restore(Arc::clone(&context), row, &moves) {
                Ok(room) => {
                    context.rooms.lock().unwrap_or_else(|p| p.into_inner()).insert(id, room);
                }
                Err(e) => eprintln!("warning: game {id} is not restored: {e}"),
            }
        }
        let analysis_net = AnalysisNet::offered(&context.engines)?;
        Ok(Hub { context, analysis_net, analyses: Arc::new(Semaphore::new(ANALYSES)) })
    }

    /// Analyses the Xiangqi position after `moves` from `fen` ([`analyse`]) on a blocking
    /// thread: `None` when [`ANALYSES`] are running already.
    pub async fn analyse(
        &self,
        fen: Option<String>,
        moves: Vec<String>,
        think: Option<Duration>,
    ) -> Option<Result<Analysis, String>> {
        let permit = Arc::clone(&self.analyses).try_acquire_owned().ok()?;
        let net = self.analysis_net.clone();
        let job = tokio::task::spawn_blocking(move || {
            let _running = permit;
            let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
            analyse(fen.as_deref(), &moves, net.as_ref(), think)
        });
        Some(job.await.unwrap_or_else(|_| Err("the analysis crashed".to_string())))
    }

    /// The engines offered.
    pub fn engines(&self) -> &[Engine] {
        &self.context.engines
    }

    /// The room of game `id`.
    pub fn room(&self, id: &str) -> Option<Arc<Room>> {
        self.context.room(id)
    }

    /// The games open to anyone that are waiting or being played, newest first
    /// ([`Room::in_lobby`] says which).
    pub fn lobby(&self) -> Vec<GameSummary> {
        let rooms: Vec<Arc<Room>> =
            self.context.rooms.lock().unwrap_or_else(|p| p.into_inner()).values().cloned().collect();
        let now = unix_now();
        let mut games: Vec<GameSummary> =
            rooms.iter().filter(|room| room.in_lobby(now)).map(|room| room.summary()).collect();
        games.sort_by(|a, b| b.created.cmp(&a.created).then_with(|| a.id.cmp(&b.id)));
        games
    }

    /// Creates and stores a game as `new` asks.
    pub fn create(&self, new: &NewGame) -> Result<Created, String> {
        if new.open && new.mode != "online" {
            return Err("only online games are open to anyone".to_string());
        }
        if new.game == "banqi" && (new.fen.is_some() || new.record.is_some()) {
            return Err("a Banqi game always starts from the start position".to_string());
        }
        let (start, moves) = match (&new.fen, &new.record) {
            (Some(_), Some(_)) => return Err("give either `fen` or `record`, not both".to_string()),
            (_, Some(record)) => imported(record)?,
            (fen, None) => (fen.clone(), Vec::new()),
        };
        let table = new_table(&new.game, start.as_deref())?;
        let mut rng = rand::rng();
        let human = match new.side.as_deref().unwrap_or("red") {
            "red" => 0,
            "black" => 1,
            "random" => rng.random_range(0..2),
            other => return Err(format!("unknown side `{other}` (red, black, random)")),
        };
        let token = new_token(&mut rng);
        let creator = nickname(new.name.as_deref());
        let (tokens, names, engine): ([Option<String>; 2], [Option<String>; 2], _) = match new.mode.as_str() {
            "local" => {
                ([Some(token.clone()), Some(token.clone())], [Some(creator.clone()), Some(creator.clone())], None)
            }
            "online" => {
                let mut tokens = [Some(new_token(&mut rng)), Some(new_token(&mut rng))];
                tokens[human] = Some(token.clone());
                let mut names = [None, None];
                names[human] = Some(creator.clone());
                (tokens, names, None)
            }
            "engine" => {
                let name = new.engine.as_deref().ok_or("an engine game needs `engine`")?;
                let engine = self.engines().iter().find(|e| e.name == name).ok_or_else(|| {
                    let names: Vec<&str> = self.engines().iter().map(|e| e.name.as_str()).collect();
                    format!("unknown engine `{name}` ({})", names.join(", "))
                })?;
                if !engine.games.contains(&table.name()) {
                    return Err(format!("engine `{name}` does not play {}", table.name()));
                }
                let mut tokens = [None, None];
                tokens[human] = Some(token.clone());
                let mut names = [Some(format!("engine: {name}")), Some(format!("engine: {name}"))];
                names[human] = Some(creator.clone());
                (tokens, names, Some(engine))
            }
            other => return Err(format!("unknown mode `{other}` (engine, local, online)")),
        };
        let clock = match new.clock {
            Some(c) if !(c.base_s > 0.0 && c.base_s <= 86_400.0 && (0.0..=3_600.0).contains(&c.increment_s)) => {
                return Err("clock: base_s must be above 0 and at most 86400, increment_s 0 to 3600".to_string())
            }
            Some(c) => Some(((c.base_s * 1000.0) as u64, (c.increment_s * 1000.0) as u64)),
            None => None,
        };
        let id = format!("{:016x}", rng.random::<u64>());
        let row = GameRow {
            id: id.clone(),
            game: table.name().to_string(),
            mode: new.mode.clone(),
            created: unix_now(),
            start: table.start(),
            tokens: tokens.clone(),
            names,
            engine: engine.map(|e| e.name.clone()),
            engine_identity: engine.map(|e| e.identity.clone()),
            clock,
            left_ms: clock.map(|(base, _)| [base, base]),
            end: None,
            open: new.open,
            start_plies: moves.len(),
        };
        self.context.open_game(row, &moves)?;
        let opponent = tokens[1 - human].as_deref().filter(|_| new.mode == "online");
        Ok(created(id, token, opponent))
    }

    /// Gives a newcomer from the lobby, `name`, the free seat of game `id`, open to anyone,
    /// with a token of its own (`None`: no such game).
    pub fn join(&self, id: &str, name: Option<&str>) -> Option<Result<Created, String>> {
        let room = self.room(id)?;
        let token = new_token(&mut rand::rng());
        Some(room.take_free_seat(token, &nickname(name)).map(|token| created(id.to_string(), token, None)))
    }
}

/// The start and the moves, in ICCS, of a Xiangqi game to go on from: `text` is a FEN, or
/// a record whose every move must be legal and which must leave the game going.
fn imported(text: &str) -> Result<(Option<String>, Vec<String>), String> {
    let game = position_or_record(text)?;
    if let Status::Over { reason, .. } = game.status() {
        return Err(format!("the record's game is already over ({reason})"));
    }
    Ok((Some(game.start_fen()), game.move_texts(Notation::Iccs)))
}

/// The answer giving seat `token` of game `id`, with the links (the opponent's seat's when
/// `opponent` is a token).
fn created(id: String, token: String, opponent: Option<&str>) -> Created {
    let link = |token: &str| format!("/#/g/{id}?token={token}");
    let links = Links { play: link(&token), opponent: opponent.map(link), watch: format!("/#/g/{id}") };
    Created { links, id, token }
}

/// A new secret seat token: 128 random bits in hex.
fn new_token(rng: &mut impl Rng) -> String {
    format!("{:032x}", rng.random::<u128>())
}

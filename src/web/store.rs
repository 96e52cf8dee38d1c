//! The games on disk: one SQLite file holding every game, its seats and its moves. Each
//! change is one transaction, written before the room shows it to anybody.

use std::path::Path;
use std::sync::Mutex;

use rusqlite::{params, Connection};

use super::engines::EngineIdentity;
use super::protocol::Outcome;

/// The tables, created when missing.
const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY, game TEXT NOT NULL, mode TEXT NOT NULL, created INTEGER NOT NULL,
    start TEXT NOT NULL, red_token TEXT, black_token TEXT, red_name TEXT, black_name TEXT,
    engine TEXT, clock_base_ms INTEGER, clock_inc_ms INTEGER, red_ms INTEGER, black_ms INTEGER,
    result TEXT, reason TEXT, text TEXT, open INTEGER NOT NULL DEFAULT 0,
    start_plies INTEGER NOT NULL DEFAULT 0, engine_spec TEXT, engine_hash TEXT);
CREATE TABLE IF NOT EXISTS moves (
    game TEXT NOT NULL REFERENCES games(id), ply INTEGER NOT NULL, mv TEXT NOT NULL,
    PRIMARY KEY (game, ply));
";

/// Columns added since the first schema, with their declarations: a database written
/// before them gains them when opened (its games private, counted from their first ply).
const ADDED_COLUMNS: [(&str, &str); 4] = [
    ("open", "INTEGER NOT NULL DEFAULT 0"),
    ("start_plies", "INTEGER NOT NULL DEFAULT 0"),
    ("engine_spec", "TEXT"),
    ("engine_hash", "TEXT"),
];

/// A game's row: everything but its moves.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    /// The game's id.
    pub id: String,
    /// `xiangqi` or `banqi`.
    pub game: String,
    /// `engine`, `local` or `online`.
    pub mode: String,
    /// Creation time, seconds since the Unix epoch.
    pub created: u64,
    /// The start position's text.
    pub start: String,
    /// The seat tokens (first, second); `None` for an engine's seat.
    pub tokens: [Option<String>; 2],
    /// Who sits in each seat; `None` while free.
    pub names: [Option<String>; 2],
    /// The engine's name (engine mode).
    pub engine: Option<String>,
    /// What the engine is (engine mode; `None` in games stored before this was).
    pub engine_identity: Option<EngineIdentity>,
    /// Clock base and increment, in milliseconds.
    pub clock: Option<(u64, u64)>,
    /// Each side's time left after the last move.
    pub left_ms: Option<[u64; 2]>,
    /// The result, once the game is over.
    pub end: Option<Outcome>,
    /// Listed in the lobby, where anyone may take its free seat (online games only).
    pub open: bool,
    /// The moves the game was created with (an imported record's): its clock and its
    /// players' first moves count from there.
    pub start_plies: usize,
}

/// The database.
pub struct Store {
    db: Mutex<Connection>,
}

impl Store {
    /// Opens (or creates, with its parent directories) the database at `path`.
    pub fn open(path: &Path) -> Result<Store, String> {
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        }
        let fail = |e: rusqlite::Error| format!("cannot open the database {}: {e}", path.display());
        let db = Connection::open(path).map_err(fail)?;
        db.pragma_update(None, "journal_mode", "WAL").map_err(fail)?;
        db.pragma_update(None, "synchronous", "NORMAL").map_err(fail)?;
        db.execute_batch(SCHEMA).map_err(fail)?;
        for (column, declaration) in ADDED_COLUMNS {
            let present: bool = db
                .query_row("SELECT COUNT(*) FROM pragma_table_info('games') WHERE name = ?1", [column], |r| r.get(0))
                .map_err(fail)?;
            if !present {
                db.execute_batch(&format!("ALTER TABLE games ADD COLUMN {column} {declaration}")).map_err(fail)?;
            }
        }
        Ok(Store { db: Mutex::new(db) })
    }

    /// Runs `work` in one transaction; any error rolls it back.
    fn transaction(&self, work: impl FnOnce(&rusqlite::Transaction) -> rusqlite::Result<()>) -> Result<(), String> {
        let mut db = self.db.lock().map_err(|_| "the database is unavailable".to_string())?;
        let tx = db.transaction().map_err(write_error)?;
        work(&tx).map_err(write_error)?;
        tx.commit().map_err(write_error)
    }

    /// Stores a new game, with the moves it starts with (an imported record's), all at once.
    pub fn insert(&self, row: &GameRow, moves: &[String]) -> Result<(), String> {
        self.transaction(|tx| {
            tx.execute(
                "INSERT INTO games (id, game, mode, created, start, red_token, black_token, red_name, black_name,
                 engine, clock_base_ms, clock_inc_ms, red_ms, black_ms, open, start_plies, engine_spec, engine_hash)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)",
                params![
                    row.id,
                    row.game,
                    row.mode,
                    row.created as i64,
                    row.start,
                    row.tokens[0],
                    row.tokens[1],
                    row.names[0],
                    row.names[1],
                    row.engine,
                    row.clock.map(|c| c.0 as i64),
                    row.clock.map(|c| c.1 as i64),
                    row.left_ms.map(|l| l[0] as i64),
                    row.left_ms.map(|l| l[1] as i64),
                    row.open,
                    row.start_plies as i64,
                    row.engine_identity.as_ref().map(|e| &e.spec),
                    row.engine_identity.as_ref().and_then(|e| e.net_hash.as_ref()),
                ],
            )?;
            for (ply, mv) in moves.iter().enumerate() {
                tx.execute("INSERT INTO moves (game, ply, mv) VALUES (?1, ?2, ?3)", params![row.id, ply as i64, mv])?;
            }
            Ok(())
        })
    }

    /// Seats `name` in seat `seat` (0 first, 1 second) of game `id`; with `new_token`, the
    /// seat's token becomes that one and its old token (an invite link's) is void.
    pub fn take_seat(&self, id: &str, seat: usize, name: &str, new_token: Option<&str>) -> Result<(), String> {
        let (token, column) = if seat == 0 { ("red_token", "red_name") } else { ("black_token", "black_name") };
        self.transaction(|tx| {
            tx.execute(
                &format!("UPDATE games SET {column} = ?1, {token} = COALESCE(?2, {token}) WHERE id = ?3"),
                params![name, new_token, id],
            )
            .map(drop)
        })
    }

    /// Game `id` goes on against the engine `name`, which is `identity`, in seat `seat`.
    pub fn change_engine(&self, id: &str, seat: usize, name: &str, identity: &EngineIdentity) -> Result<(), String> {
        let column = if seat == 0 { "red_name" } else { "black_name" };
        self.transaction(|tx| {
            tx.execute(
                &format!(
                    "UPDATE games SET engine = ?1, engine_spec = ?2, engine_hash = ?3, {column} = ?4 WHERE id = ?5"
                ),
                params![name, identity.spec, identity.net_hash, format!("engine: {name}"), id],
            )
            .map(drop)
        })
    }

    /// Adds move number `ply` (from 0) to game `id`, with the clocks after it and the
    /// result when it ended the game.
    pub fn add_move(
        &self,
        id: &str,
        ply: usize,
        mv: &str,
        left_ms: Option<[u64; 2]>,
        end: Option<&Outcome>,
    ) -> Result<(), String> {
        self.transaction(|tx| {
            tx.execute("INSERT INTO moves (game, ply, mv) VALUES (?1, ?2, ?3)", params![id, ply as i64, mv])?;
            if let Some(left) = left_ms {
                tx.execute(
                    "UPDATE games SET red_ms = ?1, black_ms = ?2 WHERE id = ?3",
                    params![left[0] as i64, left[1] as i64, id],
                )?;
            }
            end.map_or(Ok(()), |end| set_end(tx, id, end))
        })
    }

    /// Takes game `id` back to its first `plies` moves, with the clocks then.
    pub fn take_back(&self, id: &str, plies: usize, left_ms: Option<[u64; 2]>) -> Result<(), String> {
        self.transaction(|tx| {
            tx.execute("DELETE FROM moves WHERE game = ?1 AND ply >= ?2", params![id, plies as i64])?;
            if let Some(left) = left_ms {
                tx.execute(
                    "UPDATE games SET red_ms = ?1, black_ms = ?2 WHERE id = ?3",
                    params![left[0] as i64, left[1] as i64, id],
                )?;
            }
            Ok(())
        })
    }

    /// Records the end of game `id`.
    pub fn finish(&self, id: &str, end: &Outcome) -> Result<(), String> {
        self.transaction(|tx| set_end(tx, id, end))
    }

    /// Every stored game with its moves, oldest first.
    pub fn load(&self) -> Result<Vec<(GameRow, Vec<String>)>, String> {
        let db = self.db.lock().map_err(|_| "the database is unavailable".to_string())?;
        let read = |e: rusqlite::Error| format!("cannot read the database: {e}");
        let mut games = db
            .prepare(
                "SELECT id, game, mode, created, start, red_token, black_token, red_name, black_name, engine,
                 clock_base_ms, clock_inc_ms, red_ms, black_ms, result, reason, text, open, start_plies, engine_spec, engine_hash FROM games ORDER BY created, rowid",
            )
            .map_err(read)?;
        let rows = games.query_map([], |r| {
            let base: Option<i64> = r.get(10)?;
            let increment: Option<i64> = r.get(11)?;
            let left: (Option<i64>, Option<i64>) = (r.get(12)?, r.get(13)?);
            let result: Option<String> = r.get(14)?;
            Ok(GameRow {
                id: r.get(0)?,
                game: r.get(1)?,
                mode: r.get(2)?,
                created: r.get::<_, i64>(3)? as u64,
                start: r.get(4)?,
                tokens: [r.get(5)?, r.get(6)?],
                names: [r.get(7)?, r.get(8)?],
                engine: r.get(9)?,
                clock: base.zip(increment).map(|(b, i)| (b as u64, i as u64)),
                left_ms: left.0.zip(left.1).map(|(a, b)| [a as u64, b as u64]),
                end: match result {
                    Some(result) => {
                        Some(Outcome { over: true, result: Some(result), reason: r.get(15)?, text: r.get(16)? })
                    }
                    None => None,
                },
                open: r.get(17)?,
                start_plies: r.get::<_, i64>(18)? as usize,
                engine_identity: r
                    .get::<_, Option<String>>(19)?
                    .map(|spec| Ok::<_, rusqlite::Error>(EngineIdentity { spec, net_hash: r.get(20)? }))
                    .transpose()?,
            })
        });
        let rows: Vec<GameRow> = rows.map_err(read)?.collect::<Result<_, _>>().map_err(read)?;
        let mut moves = db.prepare("SELECT mv FROM moves WHERE game = ?1 ORDER BY ply").map_err(read)?;
        rows.into_iter()
            .map(|row| {
                let list = moves.query_map([&row.id], |r| r.get(0)).map_err(read)?.collect::<Result<_, _>>();
                Ok((row, list.map_err(read)?))
            })
            .collect()
    }
}

fn set_end(tx: &rusqlite::Transaction, id: &str, end: &Outcome) -> rusqlite::Result<()> {
    tx.execute(
        "UPDATE games SET result = ?1, reason = ?2, text = ?3 WHERE id = ?4",
        params![end.result, end.reason, end.text, id],
    )
    .map(drop)
}

fn write_error(e: rusqlite::Error) -> String {
    format!("cannot save the game: {e}")
}

//! Game records: what the arena keeps of every game, as one JSON line
//! ([`GameRecord::to_json_line`], for `games.jsonl`) and as Xiangqi PGN
//! ([`GameRecord::to_pgn`], for `games.pgn`, readable by xiangqi GUIs), and a safe way to
//! write such files ([`crate::atomic_write::write_atomically`]).
//!
//! The PGN follows the convention xiangqi programs read and write (XQStudio, XQWizard,
//! the xqbase tools): the tag `[Game "Chinese Chess"]`, `Red`/`Black` in place of
//! `White`/`Black`, a `[FEN]` tag when the game does not start from the start position,
//! and a `[Format]` tag naming the movetext's notation:
//!
//! - `ICCS`: upper-case squares joined by a hyphen, ranks 0–9 from Red's side:
//!   `1. H2-E2 H9-G7 2. H0-G2 I9-H9`;
//! - `WXF`: `1. C2.5 H8+7 2. H2+3 R9.8`;
//! - `Chinese`: `1. 炮二平五 马８进７ 2. 马二进三 车９平８`, Black's figures in full-width
//!   digits as XQWizard writes them.

use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::date::pgn_date;
use crate::game::xiangqi::{Notation, Xiangqi};
use crate::game::Game;

/// The Xiangqi start position; a record starting here gets no `[FEN]` tag.
const XIANGQI_START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Movetext lines are wrapped before this many characters, as PGN export asks.
const PGN_LINE_WIDTH: usize = 80;

/// One finished game, as the arena saves it: enough to replay it move by move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// `xiangqi` or `banqi`.
    pub game: String,
    /// The Red (first) player's spec, e.g. `alphabeta:depth=4`.
    pub red: String,
    /// The Black (second) player's spec.
    pub black: String,
    /// The position the game started from: a FEN for Xiangqi, the state text for Banqi
    /// (`startpos` is accepted for the start position).
    pub start: String,
    /// The moves as the game's move texts (`h2e2`; Banqi flips `a1a1`), in order.
    pub moves: Vec<String>,
    /// `1-0` (Red won), `0-1` (Black won) or `1/2-1/2`.
    pub result: String,
    /// Why the game ended: `checkmate`, `repetition`, `illegal move h2h9`, `timeout`, …
    pub reason: String,
    /// The game's number in the match, from 1.
    pub round: u32,
    /// The name of the opening the game started from, if any.
    #[serde(default)]
    pub opening: Option<String>,
}

impl GameRecord {
    /// The record as one line of JSON (no newline at the end), for a `.jsonl` file.
    pub fn to_json_line(&self) -> String {
        serde_json::to_string(self).expect("a record of strings and numbers always serialises")
    }

    /// Reads a record from one line of JSON; the error is one line.
    pub fn from_json_line(line: &str) -> Result<GameRecord, String> {
        serde_json::from_str(line.trim()).map_err(|e| format!("invalid game record: {e}"))
    }

    /// The game as PGN with its moves in `notation`, dated today (UTC); see
    /// [`GameRecord::to_pgn_dated`].
    pub fn to_pgn(&self, event: &str, notation: Notation) -> String {
        let now = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
        self.to_pgn_dated(event, &pgn_date(now), notation)
    }

    /// The game as PGN with the given `[Date]` (`YYYY.MM.DD`) and its Xiangqi moves in
    /// `notation`, ending with a blank line so that games can be concatenated into one
    /// file.
    ///
    /// Tags, in order: `Game`, `Event`, `Site`, `Date`, `Round`, `Red`, `Black`, `Result`,
    /// `Opening` (when known), `FEN` (when not the start position), `Format` (`ICCS`,
    /// `WXF` or `Chinese`). The movetext numbers Red's moves (`1. H2-E2 H9-G7`;
    /// `1... H9-G7` when Black moves first), ends with the reason as a comment and the
    /// result, and is wrapped before 80 bytes. A result other than the three above is
    /// written `*` (unfinished). Moves that do not replay from the start are written in
    /// ICCS, whatever `notation` asks, with `[Format "ICCS"]`.
    ///
    /// A Banqi record is written the same way with `[Game "Banqi"]`, its state text always
    /// in `[FEN]`, and its moves as they are (`a1a1`), without a `Format` tag: xiangqi GUIs
    /// do not read Banqi, but the file stays one format.
    pub fn to_pgn_dated(&self, event: &str, date: &str, notation: Notation) -> String {
        let banqi = self.game.eq_ignore_ascii_case("banqi");
        let result = match self.result.as_str() {
            result @ ("1-0" | "0-1" | "1/2-1/2") => result,
            _ => "*",
        };
        let mut tags: Vec<(&str, String)> = vec![
            ("Game", if banqi { "Banqi" } else { "Chinese Chess" }.to_string()),
            ("Event", event.to_string()),
            ("Site", "xiangqi-zero".to_string()),
            ("Date", date.to_string()),
            ("Round", self.round.to_string()),
            ("Red", self.red.clone()),
            ("Black", self.black.clone()),
            ("Result", result.to_string()),
        ];
        if let Some(opening) = &self.opening {
            tags.push(("Opening", opening.clone()));
        }
        let start = self.start.trim();
        let from_start = start.is_empty() || start == "startpos" || same_position(start, XIANGQI_START);
        if banqi || !from_start {
            tags.push(("FEN", start.to_string()));
        }
        let (format, texts) = if banqi {
            (None, self.moves.clone())
        } else {
            let (format, texts) = self.xiangqi_moves(if from_start { "startpos" } else { start }, notation);
            (Some(format), texts)
        };
        if let Some(format) = format {
            tags.push(("Format", format.to_string()));
        }

        let mut out = String::new();
        for (name, value) in &tags {
            out.push_str(&format!("[{name} \"{}\"]\n", escape_tag(value)));
        }
        out.push('\n');

        // The side to move and the move number come from the FEN (Xiangqi only).
        let fields: Vec<&str> = if banqi || from_start { Vec::new() } else { start.split_whitespace().collect() };
        let mut black_to_move = fields.get(1) == Some(&"b");
        let mut number: u32 = fields.get(5).and_then(|n| n.parse().ok()).filter(|&n| n >= 1).unwrap_or(1);
        // A move number stays on the line of the move it numbers.
        let mut tokens = Vec::with_capacity(self.moves.len() + 2);
        for (i, text) in texts.into_iter().enumerate() {
            tokens.push(if !black_to_move {
                format!("{number}. {text}")
            } else if i == 0 {
                format!("{number}... {text}")
            } else {
                text
            });
            if black_to_move {
                number += 1;
            }
            black_to_move = !black_to_move;
        }
        let reason = self.reason.replace(['{', '}'], "").replace(['\n', '\r'], " ");
        if !reason.trim().is_empty() {
            tokens.push(format!("{{{}}}", reason.trim()));
        }
        tokens.push(result.to_string());

        let mut line = String::new();
        for token in tokens {
            if !line.is_empty() && line.len() + 1 + token.len() >= PGN_LINE_WIDTH {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&token);
        }
        out.push_str(&line);
        out.push_str("\n\n");
        out
    }

    /// The `[Format]` tag and the moves in `notation`, played from `start`; in ICCS when
    /// `notation` is ICCS or the moves do not replay.
    fn xiangqi_moves(&self, start: &str, notation: Notation) -> (&'static str, Vec<String>) {
        let replayed = || {
            let mut game = Xiangqi::from_text(start).ok()?;
            game.play_texts(&self.moves, Some(Notation::Iccs)).ok()?;
            Some(game.move_texts(notation))
        };
        let written = match notation {
            Notation::Iccs => None,
            Notation::Wxf => replayed().map(|texts| ("WXF", texts)),
            Notation::Chinese => {
                replayed().map(|texts| ("Chinese", texts.iter().map(|t| full_width_digits(t)).collect()))
            }
        };
        written.unwrap_or_else(|| ("ICCS", self.moves.iter().map(|mv| iccs_for_pgn(mv)).collect()))
    }
}

/// A move as records keep it: its text, then `:outcome` for each chance outcome that
/// followed it (a Banqi flip: `a1a1:K`).
pub fn move_entry<G: Game>(mv: G::Move, outcomes: &[G::Outcome]) -> String {
    outcomes.iter().fold(mv.to_string(), |text, outcome| format!("{text}:{outcome}"))
}

/// True when two FENs have the same board and side to move (counters aside).
fn same_position(a: &str, b: &str) -> bool {
    let key = |fen: &str| {
        let mut fields = fen.split_whitespace();
        let board = fields.next().unwrap_or("").to_string();
        let side = match fields.next() {
            Some("r") => "w".to_string(),
            Some(side) => side.to_string(),
            None => String::new(),
        };
        (board, side)
    };
    key(a) == key(b)
}

/// `h2e2` → `H2-E2`; any other text is kept as it is.
fn iccs_for_pgn(mv: &str) -> String {
    let b = mv.as_bytes();
    let square = |f: u8, r: u8| (b'a'..=b'i').contains(&f.to_ascii_lowercase()) && r.is_ascii_digit();
    if b.len() == 4 && square(b[0], b[1]) && square(b[2], b[3]) {
        let up = mv.to_ascii_uppercase();
        format!("{}-{}", &up[..2], &up[2..])
    } else {
        mv.to_string()
    }
}

/// `马8进7` → `马８进７`: ASCII digits as full-width ones, as Chinese records write Black's.
pub fn full_width_digits(text: &str) -> String {
    text.chars().map(|c| c.to_digit(10).and_then(|d| char::from_u32('０' as u32 + d)).unwrap_or(c)).collect()
}

/// A PGN tag value: backslashes and quotes escaped, line breaks as spaces.
fn escape_tag(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"").replace(['\n', '\r'], " ")
}

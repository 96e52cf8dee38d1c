//! Game records read back: PGN (`[Tag "value"]` lines, then movetext) as xiangqi programs
//! and PlayOK write it, or a plain list of moves, in ICCS, WXF or Chinese notation. Move
//! numbers (`1.`, `1...`, `１．`), comments (`{…}`, `;` to the end of the line),
//! variations (`(…)`), annotations (`$1`) and the result are passed over.

use super::{BadMove, Notation, Rules, Xiangqi};
use crate::game::Game;

/// A record as read: its tags and its moves' texts, not yet checked against the rules.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ImportedRecord {
    /// The PGN tags, in the order given (none for a plain move list).
    pub tags: Vec<(String, String)>,
    /// The moves' texts, in order.
    pub moves: Vec<String>,
}

impl ImportedRecord {
    /// Reads a PGN record or a plain move list; the error says what is malformed.
    pub fn read(text: &str) -> Result<ImportedRecord, String> {
        let mut tags = Vec::new();
        let mut movetext = String::new();
        for line in text.lines() {
            let trimmed = line.trim();
            if trimmed.starts_with('[') && movetext.trim().is_empty() {
                tags.push(tag(trimmed)?);
            } else {
                movetext.push_str(line);
                movetext.push('\n');
            }
        }
        Ok(ImportedRecord { tags, moves: move_tokens(&movetext)? })
    }

    /// Reads every record of a file of concatenated PGN records (as self-play and the
    /// arena write them): a record begins at a tag line that follows movetext.
    pub fn read_all(text: &str) -> Result<Vec<ImportedRecord>, String> {
        let mut records = Vec::new();
        let mut current = String::new();
        let mut in_movetext = false;
        for line in text.lines() {
            let trimmed = line.trim();
            if trimmed.starts_with('[') && in_movetext {
                records.push(ImportedRecord::read(&current)?);
                current.clear();
                in_movetext = false;
            }
            in_movetext |= !trimmed.is_empty() && !trimmed.starts_with('[');
            current.push_str(line);
            current.push('\n');
        }
        if !current.trim().is_empty() {
            records.push(ImportedRecord::read(&current)?);
        }
        Ok(records)
    }

    /// The value of the tag `name` (any case), if the record has it.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(tag, _)| tag.eq_ignore_ascii_case(name)).map(|(_, value)| value.as_str())
    }

    /// The position the record starts from: its `[FEN]` tag, else `startpos`.
    pub fn start(&self) -> &str {
        self.tag("FEN").unwrap_or("startpos")
    }

    /// The notation its `[Format]` tag names (`ICCS`, `WXF`, `Chinese`, any case); `None`
    /// without the tag or for another name: then each move is read in whichever fits.
    pub fn notation(&self) -> Option<Notation> {
        match self.tag("Format")?.to_ascii_lowercase().as_str() {
            "iccs" => Some(Notation::Iccs),
            "wxf" => Some(Notation::Wxf),
            "chinese" => Some(Notation::Chinese),
            _ => None,
        }
    }

    /// Plays the record from its start, its moves read in [`ImportedRecord::notation`],
    /// and returns the game after its last move; the error names the first move that is
    /// not legal, with its number, or says that the FEN is not valid.
    pub fn replay(&self) -> Result<Xiangqi, String> {
        self.replay_under(Rules::default())
    }

    /// [`ImportedRecord::replay`] under `rules` (which rule on repetitions and the
    /// no-capture limit along the way).
    pub fn replay_under(&self, rules: Rules) -> Result<Xiangqi, String> {
        let mut game = Xiangqi::from_fen(self.start(), rules).map_err(|e| e.to_string())?;
        game.play_texts(&self.moves, self.notation()).map_err(|bad: BadMove| bad.to_string())?;
        Ok(game)
    }
}

/// The game that a box for "a position or a record" holds: a FEN (or `startpos`), else a
/// record replayed to its last move. Text whose first word has a `/` is read as a FEN
/// alone, so that a malformed FEN is named as one ("the FEN: row … has 8 files").
pub fn position_or_record(text: &str) -> Result<Xiangqi, String> {
    let text = text.trim();
    let fen_like = !text.starts_with('[') && text.split_whitespace().next().is_some_and(|word| word.contains('/'));
    if fen_like || text == "startpos" {
        return Xiangqi::from_text(text).map_err(|e| format!("the FEN: {e}"));
    }
    let record = ImportedRecord::read(text).map_err(|why| format!("the record: {why}"))?;
    record.replay().map_err(|why| format!("the record: {why}"))
}

/// One `[Name "value"]` line.
fn tag(line: &str) -> Result<(String, String), String> {
    let malformed = || format!("malformed tag line `{line}`: expected [Name \"value\"]");
    let inner = line.strip_prefix('[').and_then(|rest| rest.strip_suffix(']')).ok_or_else(malformed)?;
    let (name, value) = inner.split_once(char::is_whitespace).ok_or_else(malformed)?;
    let value = value.trim().strip_prefix('"').and_then(|v| v.strip_suffix('"')).ok_or_else(malformed)?;
    Ok((name.to_string(), value.replace("\\\"", "\"").replace("\\\\", "\\")))
}

/// The move texts of movetext, with everything else left out.
fn move_tokens(movetext: &str) -> Result<Vec<String>, String> {
    let mut plain = String::with_capacity(movetext.len());
    let mut chars = movetext.chars();
    let mut depth = 0usize;
    while let Some(c) = chars.next() {
        match c {
            '{' => {
                chars.by_ref().find(|&c| c == '}').ok_or("a comment `{` is never closed")?;
                plain.push(' ');
            }
            ';' => {
                chars.by_ref().find(|&c| c == '\n');
                plain.push(' ');
            }
            '(' => depth += 1,
            ')' => depth = depth.checked_sub(1).ok_or("a `)` closes no variation")?,
            _ if depth > 0 => {}
            '．' => plain.push('.'),
            _ => plain.push(c),
        }
    }
    if depth > 0 {
        return Err("a variation `(` is never closed".to_string());
    }
    let results = ["1-0", "0-1", "1/2-1/2", "½-½", "*"];
    Ok(plain
        .split_whitespace()
        .map(without_move_number)
        .filter(|token| !token.is_empty() && !token.starts_with('$') && !results.contains(token))
        .map(str::to_string)
        .collect())
}

/// A token without the move number it starts with (`1.`, `12...`, `3.C2.5`): digits then
/// dots, taken off when nothing or a whole move (four characters or more) follows, so
/// that WXF's `33.4` stays as it is.
fn without_move_number(token: &str) -> &str {
    let digits =
        token.len() - token.trim_start_matches(|c: char| c.is_ascii_digit() || ('０'..='９').contains(&c)).len();
    let rest = token[digits..].trim_start_matches('.');
    let numbered = digits > 0 && rest.len() < token.len() - digits;
    if numbered && (rest.is_empty() || rest.chars().count() >= 4) {
        rest
    } else {
        token
    }
}

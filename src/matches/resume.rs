//! A match cut short (a lost machine, a stopped run), read back from the `games.jsonl` it
//! saved, so that it goes on where it stopped: each saved game is checked to be this
//! match's game of its round (the same start, the same two players, each in the colour the
//! round gives it where the start says who is Red) and counted as played, once the
//! match's setup (time per move, ply limit, adjudication, seed) is the one saved with them.

use std::path::Path;

use super::starts::Start;
use super::stats::Score;
use crate::game::Game;
use crate::records::GameRecord;
use crate::storage::{self, Kind};

/// Saves the match's `setup` ([`super::MatchConfig::setup_text`]) in `dir` (a new
/// match), or checks that a match resumed there was saved with the same one (a match saved
/// before `setup.txt` existed is taken as it is).
pub(super) fn keep_setup(dir: &Path, setup: &str, resume: bool) -> Result<(), String> {
    let path = dir.join("setup.txt");
    let cannot = |what: &str, e: std::io::Error| format!("cannot {what} {}: {e}", path.display());
    if resume && storage::kind(&path).map_err(|e| cannot("read", e))? == Kind::File {
        let saved = storage::read(&path).map_err(|e| cannot("read", e))?;
        let saved = String::from_utf8_lossy(&saved);
        if let Some((was, now)) = saved.lines().zip(setup.lines()).find(|(was, now)| was != now) {
            return Err(format!(
                "cannot resume from {}: its games were played with `{was}`, this match has `{now}`",
                dir.display()
            ));
        }
        return Ok(());
    }
    storage::create_dir(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    storage::write(&path, setup.as_bytes()).map_err(|e| cannot("write", e))
}

/// The games a match saved in `dir`, checked against its `starts` (game 2k and 2k+1 from
/// start k, cycled, A moving first in the first), its number of `games` and its players'
/// `names` (A's, then B's), with the score they give A. No `games.jsonl` in `dir` (on disk
/// or in an object store) is a match not started yet.
pub(super) fn saved_games<G: Game>(
    dir: &Path,
    starts: &[Start<G>],
    games: usize,
    names: (&str, &str),
) -> Result<(Vec<GameRecord>, Score), String> {
    let path = dir.join("games.jsonl");
    if names.0 == names.1 {
        return Err(format!(
            "cannot resume from {}: both players are named `{}`, so their games cannot be told apart",
            path.display(),
            names.0
        ));
    }
    let cannot_read = |e: std::io::Error| format!("cannot read {}: {e}", path.display());
    if storage::kind(&path).map_err(cannot_read)? == Kind::Missing {
        return Ok((Vec::new(), Score::default()));
    }
    let text = storage::read(&path).map_err(cannot_read)?;
    let text = String::from_utf8(text).map_err(|_| format!("{} is not UTF-8", path.display()))?;
    let mut records = Vec::new();
    let mut score = Score::default();
    for (i, line) in text.lines().enumerate().filter(|(_, line)| !line.trim().is_empty()) {
        let at = || format!("{} line {}", path.display(), i + 1);
        let record = GameRecord::from_json_line(line).map_err(|e| format!("{}: {e}", at()))?;
        let round = record.round as usize;
        if round == 0 || round > games {
            return Err(format!("{}: round {round} is not one of this match's {games} games", at()));
        }
        if records.iter().any(|r: &GameRecord| r.round == record.round) {
            return Err(format!("{}: round {round} is saved twice", at()));
        }
        let start = &starts[(round - 1) / 2 % starts.len()];
        if record.start != start.game.to_text() || record.opening != start.opening {
            return Err(format!("{}: round {round} started elsewhere than this match's start for it", at()));
        }
        let a_is_red = match (record.red.as_str(), record.black.as_str()) {
            (red, black) if (red, black) == names => true,
            (red, black) if (black, red) == names => false,
            (red, black) => {
                return Err(format!(
                    "{}: round {round} was `{red}` against `{black}`, not `{}` against `{}`",
                    at(),
                    names.0,
                    names.1
                ))
            }
        };
        if let Some(red) = start.game.red_player() {
            // A moves first in the first game of each pair (odd rounds).
            let a_moves_first = round % 2 == 1;
            let first = start.game.to_move();
            let a_seat = if a_moves_first { first } else { first.opponent() };
            if a_is_red != (a_seat == red) {
                let colour = |red: bool| if red { "Red" } else { "Black" };
                return Err(format!(
                    "{}: round {round} had `{}` as {} where this match gives it {}",
                    at(),
                    names.0,
                    colour(a_is_red),
                    colour(!a_is_red)
                ));
            }
        }
        score += match (record.result.as_str(), a_is_red) {
            ("1/2-1/2", _) => Score::DRAW,
            ("1-0", true) | ("0-1", false) => Score::WIN,
            ("1-0", false) | ("0-1", true) => Score::LOSS,
            (other, _) => return Err(format!("{}: round {round} has no result (`{other}`)", at())),
        };
        records.push(record);
    }
    records.sort_by_key(|r| r.round);
    Ok((records, score))
}

//! Helpers shared by the integration tests: reading the reference data in `tests/data`,
//! and malformed variants of valid texts for robustness tests.
#![allow(dead_code)] // each test file uses some of these

use proptest::prelude::*;
use serde::de::DeserializeOwned;
use xiangqi_zero::eval::{MatchConfig, PlayerSpec, Start};
use xiangqi_zero::game::Game;

/// Every line of the JSON Lines file `tests/data/<name>`, parsed.
pub fn read_jsonl<T: DeserializeOwned>(name: &str) -> Vec<T> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("bad line in {name}: {e}: {line}")))
        .collect()
}

/// One of `samples` with one random edit: a character of `alphabet` replacing or inserted
/// before a character, or a character deleted.
pub fn mutated(samples: &'static [&'static str], alphabet: &str) -> impl Strategy<Value = String> {
    let alphabet: Vec<char> = alphabet.chars().collect();
    (0..samples.len(), any::<prop::sample::Index>(), prop::sample::select(alphabet), 0..3u8).prop_map(
        move |(which, at, c, edit)| {
            let mut chars: Vec<char> = samples[which].chars().collect();
            let i = at.index(chars.len());
            match edit {
                0 => chars[i] = c,
                1 => {
                    chars.remove(i);
                }
                _ => chars.insert(i, c),
            }
            chars.into_iter().collect()
        },
    )
}

/// A quiet match of `games` games, two at a time, adjudicated a draw after 300 plies.
pub fn match_config(games: u32) -> MatchConfig {
    MatchConfig {
        games,
        concurrency: 2,
        movetime: None,
        sprt: None,
        out: None,
        max_plies: 300,
        seed: 7,
        progress: false,
    }
}

/// `count` start positions of `G`, with chance seeds 0, 1, ….
pub fn start_positions<G: Game>(count: u64) -> Vec<Start<G>> {
    (0..count).map(|seed| Start { game: G::start(), opening: None, seed }).collect()
}

/// A player spec that must parse.
pub fn spec(text: &str) -> PlayerSpec {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

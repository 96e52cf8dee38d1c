//! Self-play games begun at positions of earlier games (Go-Exploit, Trudeau & Bergeron
//! 2023): with `[selfplay] earlier_starts = s`, that share of a generation's games begins
//! at a position drawn uniformly from the generation before's games (short of long runs
//! without captures: [`RecordedGame::starts`]), that game's moves up to it replayed so
//! that the repetition rules see its history; the others begin at the start. A game begun
//! that way searches and explores from there as from a game's first move, and its own
//! record starts there (its `[FEN]`). The games are read back from the PGN files
//! self-play writes beside its shards, so a resumed run's and other machines' games count;
//! a file that cannot be read is passed over with a warning, as the window passes over a
//! shard it cannot read.

use std::path::Path;
use std::sync::Arc;

use rand::Rng;

use super::config::Config;
use super::game::{NewGame, RecordedGame, TrainableGame};
use super::run_dir::generation_name;
use crate::storage;

/// How the games of generation `generation` begin, the run's games in `games`: the
/// start, or with `earlier_starts` above 0 and games of the generation before there, a
/// share of them at those games' positions.
pub fn new_game<G: TrainableGame>(config: &Config, games: &Path, generation: u32) -> Result<NewGame<G>, String> {
    let start = G::new_game(config)?;
    let share = config.selfplay.earlier_starts;
    if share == 0.0 || generation <= 1 {
        return Ok(start);
    }
    let earlier = read_games::<G>(config, games, &generation_name(generation - 1))?;
    // Every position a game may begin at: (game, plies before it).
    let positions: Vec<(usize, usize)> =
        earlier.iter().enumerate().flat_map(|(i, game)| game.starts.iter().map(move |&ply| (i, ply))).collect();
    if positions.is_empty() {
        return Ok(start);
    }
    Ok(Arc::new(move |rng| {
        if rng.random::<f32>() >= share {
            return start(rng);
        }
        let (i, plies) = positions[rng.random_range(0..positions.len())];
        let mut game = earlier[i].start.clone();
        for &mv in &earlier[i].moves[..plies] {
            game.play(mv);
        }
        game
    }))
}

/// The games of the PGN files in `games` whose names start with `prefix`; a file that
/// cannot be read or replayed is passed over with a line on stderr.
fn read_games<G: TrainableGame>(config: &Config, games: &Path, prefix: &str) -> Result<Vec<RecordedGame<G>>, String> {
    let files = storage::list(games).map_err(|e| format!("{}: {e}", games.display()))?;
    let mut read = Vec::new();
    for file in files {
        if file.name.starts_with(&format!("{prefix}-")) && file.name.ends_with(".pgn") {
            let path = games.join(&file.name);
            let records = storage::read(&path)
                .map_err(|e| e.to_string())
                .and_then(|bytes| String::from_utf8(bytes).map_err(|_| "not UTF-8 text".to_string()))
                .and_then(|text| G::read_records(config, &text));
            match records {
                Ok(records) => read.extend(records),
                Err(why) => eprintln!("warning: {}: {why}; no game begins at its positions", path.display()),
            }
        }
    }
    Ok(read)
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    use super::*;
    use crate::game::xiangqi::{Move, Notation, Xiangqi};
    use crate::game::Game;
    use crate::records::GameRecord;

    /// A self-play record of `moves` (ICCS) from `start`, as the collector writes it.
    fn record(start: &str, moves: &[&str]) -> String {
        GameRecord {
            game: "xiangqi".to_string(),
            red: "self-play".to_string(),
            black: "self-play".to_string(),
            start: start.to_string(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
            result: "1/2-1/2".to_string(),
            reason: "test".to_string(),
            round: 1,
            opening: None,
        }
        .to_pgn("xiangqi-zero self-play gen0001", Notation::Iccs)
    }

    /// A shipped config.
    fn config(name: &str) -> Config {
        Config::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("configs").join(name)).unwrap()
    }

    /// `moves` played from `start`: the game and its moves.
    fn played(start: &str, moves: &[&str]) -> (Xiangqi, Vec<Move>) {
        let mut game = Xiangqi::from_text(start).unwrap();
        game.play_texts(moves, Some(Notation::Iccs)).unwrap();
        let moves = game.moves().collect();
        (game, moves)
    }

    #[test]
    fn a_share_of_games_begins_at_the_generation_befores_positions_with_their_history() {
        let dir = std::env::temp_dir().join(format!("xiangqi-zero-earlier-starts-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // Generation 1: a game whose knights go out and back (its fifth position is the
        // start again), a second game, and a third begun later, 59 plies after a capture:
        // only its first position is short of half the no-capture limit (120).
        let knights = ["h0g2", "h9g7", "g2h0", "g7h9", "h2e2"];
        let cannons = ["b2e2", "b9c7", "b0c2"];
        let mut later: Vec<String> =
            played("startpos", &["h2e2", "h9g7"]).0.to_text().split_whitespace().map(str::to_string).collect();
        later[4] = "59".to_string();
        let later = later.join(" ");
        let from_later = ["h0g2", "i9h9"];
        let file = record("startpos", &knights) + &record("startpos", &cannons);
        std::fs::write(dir.join("gen0001-1-a.pgn"), file).unwrap();
        std::fs::write(dir.join("gen0001-2-b.pgn"), record(&later, &from_later)).unwrap();
        // Generation 2's own games, and a file that is no record: neither is drawn from.
        std::fs::write(dir.join("gen0002-1-a.pgn"), record("startpos", &["c3c4"])).unwrap();
        std::fs::write(dir.join("gen0001-3-c.pgn"), "1. Z9-Z8").unwrap();

        // xiangqi-tiny's rules: whoever repeats a position loses.
        let mut config = config("xiangqi-tiny.toml");
        config.selfplay.earlier_starts = 0.5;
        let rules = config.rules.xiangqi().unwrap();
        assert_ne!(rules, Xiangqi::start().rules());
        let sources = [played("startpos", &knights).1, played("startpos", &cannons).1, played(&later, &from_later).1];
        let starts =
            [Xiangqi::start().to_text(), Xiangqi::start().to_text(), Xiangqi::from_text(&later).unwrap().to_text()];
        let begin = new_game::<Xiangqi>(&config, &dir, 2).unwrap();
        let mut rng = StdRng::seed_from_u64(1);
        let draws = 6000;
        let mut from = [0u32; 3];
        let mut repeated = 0;
        for _ in 0..draws {
            let game = begin(&mut rng);
            assert_eq!(game.rules(), rules);
            let moves: Vec<Move> = game.moves().collect();
            if moves.is_empty() && game.start_fen() == starts[0] {
                continue; // the start, or the first position of one of the first two games
            }
            // Else a position a move of generation 1 was played from, reached by its moves.
            let source = (0..3)
                .find(|&k| {
                    game.start_fen() == starts[k] && moves.len() < sources[k].len() && sources[k].starts_with(&moves)
                })
                .unwrap_or_else(|| panic!("{} is no position of generation 1", game.to_text()));
            from[source] += 1;
            assert!(source < 2 || moves.is_empty(), "a position 60 plies after a capture");
            // The knights' return: the start position again, its first time in the history.
            if moves.len() == 4 {
                assert_eq!(game.repetitions(), 1);
                repeated += 1;
            }
        }
        // Half the games; the other half's positions drawn uniformly from the nine: four
        // past the first games' starts, two, and one.
        for (k, positions) in [4.0, 2.0, 1.0].into_iter().enumerate() {
            let share = f64::from(from[k]) / f64::from(draws);
            let expected = 0.5 * positions / 9.0;
            assert!((share - expected).abs() < 0.02, "game {k}: {share} against {expected}");
        }
        assert!(repeated > 0);
        // The first generation, and a run without the key, begin every game at the start.
        let first = new_game::<Xiangqi>(&config, &dir, 1).unwrap();
        assert!((0..100).all(|_| first(&mut rng).moves().next().is_none()));
        let plain = new_game::<Xiangqi>(&self::config("xiangqi-tiny.toml"), &dir, 2).unwrap();
        assert!((0..100).all(|_| plain(&mut rng).moves().next().is_none()));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_banqi_run_refuses_earlier_starts() {
        let mut config = config("banqi-tiny.toml");
        config.selfplay.earlier_starts = 0.5;
        assert!(config.validate().unwrap_err().contains("earlier_starts"));
    }
}

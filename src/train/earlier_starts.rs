//! Self-play games begun from positions of earlier games (Go-Exploit, Trudeau & Bergeron
//! 2023): with `[selfplay] earlier_starts = s`, that share of a generation's games begins
//! at a position drawn uniformly from the generation before's games, their moves up to it
//! replayed so that the rules see its history; the others begin at the start. Those games
//! are read back from the PGN files self-play writes beside its shards, so a resumed run
//! and other machines' games count as the trainer's own.

use std::path::Path;
use std::sync::Arc;

use rand::Rng;

use super::config::Config;
use super::game::{NewGame, TrainableGame};
use super::run_dir::generation_name;
use crate::storage;

/// How the games of generation `generation` begin, the run's games in `games`: the
/// start, or with `earlier_starts` above 0 and games of the generation before there, a
/// share of them from those games' positions.
pub fn new_game<G: TrainableGame>(config: &Config, games: &Path, generation: u32) -> Result<NewGame<G>, String> {
    let start = G::new_game(config)?;
    let share = config.selfplay.earlier_starts;
    if share == 0.0 || generation <= 1 {
        return Ok(start);
    }
    let earlier = read_games::<G>(config, games, &generation_name(generation - 1))?;
    // Every position a move was played from: (game, plies before it).
    let positions: Vec<(usize, usize)> =
        earlier.iter().enumerate().flat_map(|(i, (_, moves))| (0..moves.len()).map(move |ply| (i, ply))).collect();
    if positions.is_empty() {
        return Ok(start);
    }
    Ok(Arc::new(move |rng| {
        if rng.random::<f32>() >= share {
            return start(rng);
        }
        let (i, plies) = positions[rng.random_range(0..positions.len())];
        let (first, moves) = &earlier[i];
        let mut game = first.clone();
        for &mv in &moves[..plies] {
            game.play(mv);
        }
        game
    }))
}

/// The games of the PGN files in `games` whose names start with `prefix`.
fn read_games<G: TrainableGame>(config: &Config, games: &Path, prefix: &str) -> Result<Vec<(G, Vec<G::Move>)>, String> {
    let files = storage::list(games).map_err(|e| format!("{}: {e}", games.display()))?;
    let mut read = Vec::new();
    for file in files {
        if file.name.starts_with(&format!("{prefix}-")) && file.name.ends_with(".pgn") {
            let path = games.join(&file.name);
            let bytes = storage::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let text = String::from_utf8(bytes).map_err(|_| format!("{}: not UTF-8 text", path.display()))?;
            read.extend(G::read_records(config, &text).map_err(|why| format!("{}: {why}", path.display()))?);
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
        // start again), a second game, and a third begun at a later position.
        let knights = ["h0g2", "h9g7", "g2h0", "g7h9", "h2e2"];
        let cannons = ["b2e2", "b9c7", "b0c2"];
        let later = played("startpos", &["h2e2", "h9g7"]).0.to_text();
        let from_later = ["h0g2", "i9h9"];
        let file = record("startpos", &knights) + &record("startpos", &cannons);
        std::fs::write(dir.join("gen0001-1-a.pgn"), file).unwrap();
        std::fs::write(dir.join("gen0001-2-b.pgn"), record(&later, &from_later)).unwrap();
        // Generation 2's games are not generation 3's starts' source here.
        std::fs::write(dir.join("gen0002-1-a.pgn"), record("startpos", &["c3c4"])).unwrap();

        // xiangqi-tiny's rules: whoever repeats a position loses.
        let mut config = config("xiangqi-tiny.toml");
        config.selfplay.earlier_starts = 0.5;
        let sources = [
            ("startpos".to_string(), played("startpos", &knights).1),
            ("startpos".to_string(), played("startpos", &cannons).1),
            (later.clone(), played(&later, &from_later).1),
        ];
        let positions = knights.len() + cannons.len() + from_later.len();
        let begin = new_game::<Xiangqi>(&config, &dir, 2).unwrap();
        let mut rng = StdRng::seed_from_u64(1);
        let (draws, mut begun_later, mut repeated) = (4000, 0, 0);
        for _ in 0..draws {
            let game = begin(&mut rng);
            let moves: Vec<Move> = game.moves().collect();
            // Each is the start, or a position a move of generation 1 was played from,
            // reached by that game's own moves.
            let source = sources.iter().find(|(start, all)| {
                game.start_fen() == Xiangqi::from_text(start).unwrap().to_text()
                    && moves.len() < all.len()
                    && all.starts_with(&moves)
            });
            assert!(
                source.is_some() || (moves.is_empty() && game.start_fen() == Xiangqi::start().to_text()),
                "{}",
                game.to_text()
            );
            begun_later += (!moves.is_empty() || game.start_fen() != Xiangqi::start().to_text()) as u32;
            // The knights' return: the start position again, its first time in the history.
            if moves.len() == 4 {
                assert_eq!(game.repetitions(), 1);
                repeated += 1;
            }
        }
        // Half the games, and of those all but the two start positions among the nine.
        let expected = 0.5 * (positions - 2) as f64 / positions as f64;
        let share = f64::from(begun_later) / f64::from(draws);
        assert!((share - expected).abs() < 0.03, "{share} against {expected}");
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

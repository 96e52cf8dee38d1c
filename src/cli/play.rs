//! `play`: a game at the terminal — human against engine, human against human on one
//! keyboard, or engine against engine to watch.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use anyhow::{anyhow, bail, Context};
use clap::Args as ClapArgs;

use super::GameKind;
use xiangqi_zero::atomic_write::write_atomically;
use xiangqi_zero::game::banqi::Banqi;
use xiangqi_zero::game::xiangqi::{ImportedRecord, Notation, Xiangqi};
use xiangqi_zero::game::Game;
use xiangqi_zero::play::{play, Setup, Style, View};
use xiangqi_zero::players::PlayerSpec;
use xiangqi_zero::records::GameRecord;

/// Arguments of `play`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// The game.
    #[arg(long, value_enum, default_value_t = GameKind::Xiangqi)]
    game: GameKind,
    /// Who plays Red (in Banqi: who moves first, whatever colour the first flip gives):
    /// `human` or an engine (`alphabeta:depth=4`, `mcts:sims=400`, `net:FILE`, `net` — the
    /// net shipped in the binary —, `random`, …).
    #[arg(long, visible_alias = "first", default_value = "human")]
    red: String,
    /// Who plays Black (in Banqi: who moves second): `human` or an engine.
    #[arg(long, visible_alias = "second", default_value = "human")]
    black: String,
    /// The start position: a FEN for Xiangqi, the state text for Banqi; `startpos` is
    /// the usual start.
    #[arg(long, default_value = "startpos")]
    fen: String,
    /// Seed of the engines' random choices and of Banqi's flips (default: a new one each
    /// game, so that every Banqi deal is new).
    #[arg(long)]
    seed: Option<u64>,
    /// Adjudicate a draw after this many plies.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    max_plies: Option<u64>,
    /// Plain text even on a terminal: FEN letters, no colours.
    #[arg(long)]
    plain: bool,
    /// How engines' moves and hints, and the moves of a saved record, are written: wxf,
    /// chinese or iccs. Moves are typed in any of the three.
    #[arg(long, default_value = "wxf", value_parser = |s: &str| s.parse::<Notation>())]
    notation: Notation,
    /// Continue the Xiangqi game a record holds (PGN or a plain move list, in any of the
    /// three notations), from the position after its last move.
    #[arg(long, conflicts_with = "fen")]
    from_record: Option<PathBuf>,
    /// Save the game, finished or not, to FILE as PGN with `[Format]` naming the notation
    /// (Xiangqi; a Banqi game's moves are written as they are).
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
}

/// Runs `play`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let live = std::io::stdout().is_terminal();
    let setup = Setup {
        seats: [seat(&args.red)?, seat(&args.black)?],
        style: if args.plain || !live { Style::Plain } else { Style::Terminal },
        live,
        echo: !std::io::stdin().is_terminal(),
        seed: args.seed.unwrap_or_else(rand::random),
        max_plies: args.max_plies.map(|n| n as usize),
        notation: args.notation,
        record_so_far: args.save.as_ref().map(|path| save_on_interrupt(path.clone(), args.notation)),
    };
    let record = match (args.game, &args.from_record) {
        (GameKind::Xiangqi, Some(path)) => session(recorded_game(path)?, &setup),
        (GameKind::Banqi, Some(_)) => bail!("--from-record reads Xiangqi records only"),
        (GameKind::Xiangqi, None) => session(Xiangqi::from_text(&args.fen)?, &setup),
        (GameKind::Banqi, None) => session(Banqi::from_text(&args.fen)?, &setup),
    }?;
    if let Some(path) = &args.save {
        save(path, &record, args.notation)?;
    }
    Ok(())
}

/// Writes `record` to `path` as PGN with its moves in `notation`.
fn save(path: &Path, record: &GameRecord, notation: Notation) -> anyhow::Result<()> {
    write_atomically(path, &record.to_pgn("xiangqi-zero play", notation))
        .with_context(|| format!("cannot write {}", path.display()))
}

/// The record a session keeps up to date, saved to `path` when Ctrl-C (or SIGTERM)
/// interrupts the game; the process then exits with 130.
fn save_on_interrupt(path: PathBuf, notation: Notation) -> Arc<Mutex<Option<GameRecord>>> {
    let shared = Arc::new(Mutex::new(None));
    let record = shared.clone();
    let installed = ctrlc::set_handler(move || {
        let record = record.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).clone();
        // Before the game has started there is nothing to save.
        match record.map(|record| save(&path, &record, notation)) {
            Some(Ok(())) => eprintln!("\ninterrupted: the game so far is saved to {}", path.display()),
            Some(Err(error)) => eprintln!("\ninterrupted: {error:#}"),
            None => eprintln!("\ninterrupted before the game started: nothing saved"),
        }
        std::process::exit(130);
    });
    if let Err(error) = installed {
        eprintln!("warning: Ctrl-C will not save the game ({error})");
    }
    shared
}

/// The game a record holds, played to its last move.
fn recorded_game(path: &Path) -> anyhow::Result<Xiangqi> {
    let text = xiangqi_zero::text_file::read_text(path).with_context(|| format!("cannot read {}", path.display()))?;
    let record = ImportedRecord::read(&text).map_err(|why| anyhow!("{}: {why}", path.display()))?;
    record.replay().map_err(|why| anyhow!("{}: {why}", path.display()))
}

/// `None` for a human, else the engine's spec.
fn seat(text: &str) -> anyhow::Result<Option<PlayerSpec>> {
    if text.trim() == "human" {
        return Ok(None);
    }
    text.parse().map(Some).map_err(|e: String| anyhow!(e))
}

/// Plays the game at the terminal and returns its record.
fn session<G: View>(start: G, setup: &Setup) -> anyhow::Result<GameRecord> {
    Ok(play(start, setup, &mut std::io::stdin().lock(), &mut std::io::stdout().lock())?)
}

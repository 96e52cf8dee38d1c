//! `notation`: moves played in turn from a position, each printed in another notation;
//! the moves come from the command line or from a record (PGN or a plain move list).

use std::io::Write;

use anyhow::Context;
use clap::Args as ClapArgs;

use xiangqi_zero::game::xiangqi::{ImportedRecord, Notation, Xiangqi};
use xiangqi_zero::game::Game;

/// Arguments of `notation`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// The position the moves start from: a FEN, or `startpos`.
    #[arg(long, default_value = "startpos")]
    fen: String,
    /// The notation the moves are written in (iccs, wxf or chinese); any of the three
    /// when left out.
    #[arg(long, value_parser = |s: &str| s.parse::<Notation>())]
    from: Option<Notation>,
    /// The notation to print them in: iccs, wxf or chinese.
    #[arg(long, value_parser = |s: &str| s.parse::<Notation>())]
    to: Notation,
    /// A record to convert in place of moves on the command line: PGN (its `[FEN]` tag
    /// is the start) or a plain move list.
    #[arg(long, conflicts_with_all = ["fen", "moves"])]
    record: Option<std::path::PathBuf>,
    /// The moves, played in turn (`h2e2`, `C2.5`, `炮二平五`); put `--` before them when
    /// the first starts with `-`, as `--.4` does.
    #[arg(required_unless_present = "record", allow_hyphen_values = true)]
    moves: Vec<String>,
}

/// Runs `notation`: prints the moves up to the first that names no legal move, which
/// is named on one line with its number, and the exit code is 1.
pub fn run(args: Args) -> anyhow::Result<()> {
    let (fen, texts) = match &args.record {
        Some(path) => {
            let text =
                xiangqi_zero::text_file::read_text(path).with_context(|| format!("cannot read {}", path.display()))?;
            let record = ImportedRecord::read(&text).map_err(|why| anyhow::anyhow!("{}: {why}", path.display()))?;
            (record.start().to_string(), record.moves)
        }
        None => (args.fen, args.moves),
    };
    let mut game = Xiangqi::from_text(&fen)?;
    let played = game.play_texts(&texts, args.from);
    let mut out = std::io::stdout().lock();
    for text in game.move_texts(args.to) {
        writeln!(out, "{text}")?;
    }
    out.flush()?;
    if let Err(bad) = played {
        eprintln!("error: {bad}");
        std::process::exit(1);
    }
    Ok(())
}

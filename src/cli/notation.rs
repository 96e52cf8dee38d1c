//! `notation`: moves played in turn from a position, each printed in another notation.

use std::io::Write;

use clap::Args as ClapArgs;

use xiangqi_zero::game::xiangqi::{Notation, Xiangqi};
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
    /// The moves, played in turn (`h2e2`, `C2.5`, `炮二平五`); put `--` before them when
    /// the first starts with `-`, as `--.4` does.
    #[arg(required = true, allow_hyphen_values = true)]
    moves: Vec<String>,
}

/// Runs `notation`: prints the moves up to the first that names no legal move, which
/// is named on one line with its number, and the exit code is 1.
pub fn run(args: Args) -> anyhow::Result<()> {
    let mut game = Xiangqi::from_text(&args.fen)?;
    let played = game.play_texts(&args.moves, args.from);
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

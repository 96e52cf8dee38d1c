//! `perft`: leaf counts from a position, optionally divided by first move.

use clap::Args as ClapArgs;

use super::GameKind;
use xiangqi_zero::game::banqi::Banqi;
use xiangqi_zero::game::xiangqi::Xiangqi;
use xiangqi_zero::game::{perft, Game};

/// Arguments of `perft`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// The game.
    #[arg(long, value_enum, default_value_t = GameKind::Xiangqi)]
    game: GameKind,
    /// The position (FEN or state text), or `startpos`.
    #[arg(long, default_value = "startpos")]
    fen: String,
    /// Plies to search.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=20))]
    depth: u32,
    /// Print each legal move's count, sorted by move text.
    #[arg(long)]
    divide: bool,
}

/// Runs `perft`.
pub fn run(args: Args) -> anyhow::Result<()> {
    match args.game {
        GameKind::Xiangqi => count(&Xiangqi::from_text(&args.fen)?, args.depth, args.divide),
        GameKind::Banqi => count(&Banqi::from_text(&args.fen)?, args.depth, args.divide),
    }
    Ok(())
}

fn count<G: Game>(game: &G, depth: u32, divide: bool) {
    let total = if divide {
        let counts = perft::divide(game, depth);
        for (mv, count) in &counts {
            println!("{mv}: {count}");
        }
        counts.iter().map(|(_, count)| count).sum()
    } else {
        game.perft(depth)
    };
    println!("Nodes searched: {total}");
}

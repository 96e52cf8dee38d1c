//! `status`: play moves from a position and print how the game stands, one line —
//! the adjudicator a GUI or a script can call.

use anyhow::bail;
use clap::Args as ClapArgs;

use xiangqi_zero::game::xiangqi::{RepetitionRule, Rules, Xiangqi};
use xiangqi_zero::game::{Game, GameError, Player, Status};

/// Arguments of `status`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// The position (FEN), or `startpos`.
    #[arg(long, default_value = "startpos")]
    fen: String,
    /// Moves to play from it, in ICCS (`h2e2`).
    #[arg(long, num_args = 0..)]
    moves: Vec<String>,
    /// What a threefold repetition means.
    #[arg(long, default_value = "asian", value_parser = |s: &str| s.parse::<RepetitionRule>())]
    repetition: RepetitionRule,
    /// Plies without a capture before the game is drawn.
    #[arg(long, default_value_t = 120)]
    no_capture_plies: u32,
}

/// Runs `status`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let rules = Rules { repetition: args.repetition, no_capture_plies: args.no_capture_plies };
    let mut game = Xiangqi::from_fen(&args.fen, rules)?;
    for text in &args.moves {
        if let Status::Over { reason, .. } = game.status() {
            bail!(GameError::GameOver(format!("{reason} at ply {}", game.plies_played())));
        }
        let mv = game.parse_move(text)?;
        game.play(mv);
    }
    println!("{}", describe(game.status(), game.plies_played()));
    Ok(())
}

/// `ongoing`, or the result, the reason and the ply: `0-1 perpetual-check 8`.
fn describe(status: Status, ply: usize) -> String {
    match status {
        Status::Ongoing => "ongoing".to_string(),
        Status::Over { winner, reason } => {
            let score = match winner {
                Some(Player::First) => "1-0",
                Some(Player::Second) => "0-1",
                None => "1/2-1/2",
            };
            format!("{score} {reason} {ply}")
        }
    }
}

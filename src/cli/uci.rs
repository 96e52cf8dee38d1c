//! `uci`: one of our players as a UCI/UCCI engine on standard input and output.

use std::sync::{Arc, Mutex};

use anyhow::{anyhow, Context};
use clap::Args as ClapArgs;

use xiangqi_zero::engine;
use xiangqi_zero::game::xiangqi::Xiangqi;
use xiangqi_zero::players::{Playable, PlayerSpec};

/// Arguments of `uci`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// The player to serve (`alphabeta:depth=6`, `net` — the net shipped in the binary —,
    /// `net:FILE`, `random`, …).
    #[arg(long, default_value = "alphabeta:ms=1000")]
    player: String,
}

/// Runs `uci`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let spec: PlayerSpec = args.player.parse().map_err(|e: String| anyhow!(e))?;
    let player = Xiangqi::player(&spec, 0).map_err(|e| anyhow!(e))?;
    let stdin = std::io::stdin();
    engine::serve(player, stdin.lock(), Arc::new(Mutex::new(std::io::stdout())))
        .context("cannot write the engine's answers to standard output")
}

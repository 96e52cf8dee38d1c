//! One module per subcommand; each is a thin layer over the library.

mod bench;
mod bench_mcts;
mod bench_movegen;
mod bench_nn;
mod bench_peer;
mod bench_search;
mod bench_selfplay;
mod bench_stats;
mod bench_train;
mod bench_web;
mod eval;
mod export;
mod notation;
mod onnxruntime;
mod perft;
mod play;
mod plot;
mod policy_check;
mod records;
mod serve;
mod status;
mod train;
mod uci;
mod value_check;

use clap::{Parser, Subcommand, ValueEnum};

/// Self-play reinforcement learning for Xiangqi and Banqi.
#[derive(Parser, Debug)]
#[command(name = "xiangqi-zero", version, about)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count the move sequences of a given length (move generator check).
    Perft(perft::Args),
    /// Measure the speed of a component.
    Bench(bench::Args),
    /// Play moves from a position and print the game's status in one line.
    Status(status::Args),
    /// Play a match between two players and report the score and Elo difference.
    Eval(eval::Args),
    /// Play a game at the terminal: against an engine, another human, or watch two engines.
    Play(play::Args),
    /// Play in the browser: an HTTP + WebSocket server for games against engines, on one
    /// device, or online with spectators.
    Serve(serve::Args),
    /// Serve a player as a UCI/UCCI engine on standard input and output.
    Uci(uci::Args),
    /// Train a network from scratch (or resume a run): self-play, training, evaluation.
    Train(train::Args),
    /// Self-play alone for a run directory, adding games for its trainer.
    Selfplay(train::SelfPlayArgs),
    /// Redraw a training run's plots (losses, Elo, self-play) from its metrics.
    Plot(plot::Args),
    /// Export a trained net as one self-contained file (or print what such a file records).
    Export(export::Args),
    /// Print Xiangqi moves in another notation (ICCS, WXF or Chinese), playing them in turn.
    Notation(notation::Args),
    /// Measure how well players' scores of the positions of recorded Xiangqi games foretell
    /// how those games ended (a net's value against a material count, without a match).
    ValueCheck(value_check::Args),
    /// Measure how well nets' policies point at a deeper search's move in the positions of
    /// recorded Xiangqi games, next to the rules' priors (a policy head screened without a match).
    PolicyCheck(policy_check::Args),
}

/// Which game a command works on.
#[derive(ValueEnum, Clone, Copy, Debug, Default)]
pub enum GameKind {
    /// Chinese chess on the 9×10 board.
    #[default]
    Xiangqi,
    /// Dark chess: 32 face-down pieces on half the board (4×8), revealed by flipping.
    Banqi,
}

/// Runs the parsed command.
pub fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Perft(args) => perft::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Status(args) => status::run(args),
        Command::Eval(args) => eval::run(args),
        Command::Play(args) => play::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Uci(args) => uci::run(args),
        Command::Train(args) => train::run_train(args),
        Command::Selfplay(args) => train::run_selfplay(args),
        Command::Plot(args) => plot::run(args),
        Command::Export(args) => export::run(args),
        Command::Notation(args) => notation::run(args),
        Command::ValueCheck(args) => value_check::run(args),
        Command::PolicyCheck(args) => policy_check::run(args),
    }
}

//! `serve`: Xiangqi and Banqi in the browser — against an engine, two on one device, or
//! online with spectators; games kept in SQLite.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use anyhow::anyhow;
use clap::Args as ClapArgs;

use xiangqi_zero::train::{trained_nets, CHECKPOINTS};
use xiangqi_zero::web::{
    default_db, shipped_engine, shipped_nnue_engines, start, trained_engine, Engine, Options, DEFAULT_ENGINES,
};

/// Arguments of `serve`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// The address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// The database of games (default: `<data dir>/xiangqi-zero/serve.sqlite3`).
    #[arg(long)]
    db: Option<PathBuf>,
    /// An engine offered to players, `NAME=SPEC` (`hard=alphabeta:ms=1000`,
    /// `net=net:model.safetensors`); repeat for more. Default: easy, medium and hard
    /// alpha-beta, the net shipped in the binary (`net`), and the newest net of each run
    /// under `checkpoints/`.
    #[arg(long = "engine", value_name = "NAME=SPEC")]
    engines: Vec<String>,
}

/// Runs `serve` until it is stopped.
pub fn run(args: Args) -> anyhow::Result<()> {
    let (engines, about) = if args.engines.is_empty() { default_engines() } else { (args.engines, Vec::new()) };
    let db = match args.db {
        Some(db) => db,
        None => default_db().map_err(|e| anyhow!(e))?,
    };
    let server = start(&Options { addr: args.addr, db: db.clone(), engines, about }).map_err(|e| anyhow!(e))?;
    println!("xiangqi-zero serve: http://{}/ (games in {})", server.addr(), db.display());
    server.wait().map_err(|e| anyhow!(e))
}

/// The newest net of each run under `checkpoints/` that loads, the most recent run first
/// (the page's default choice: a user who trained a net came to play it; one that does not
/// load — an older encoding, say — is named in a warning and left out), then the nets
/// shipped in the binary, then the shipped NNUE at its levels of time, then the built-in
/// players; with what the page says of each net.
fn default_engines() -> (Vec<String>, Vec<(String, String)>) {
    let trained = trained_nets(Path::new(CHECKPOINTS)).iter().map(trained_engine).collect::<Vec<_>>();
    let mut engines = Vec::new();
    let mut about = Vec::new();
    for (text, said) in trained.into_iter().chain(shipped_engine()).chain(shipped_nnue_engines()) {
        match Engine::parse(&text) {
            Ok(engine) => {
                println!("offering {}: {said}", engine.name);
                about.push((engine.name, said));
                engines.push(text);
            }
            Err(why) => eprintln!("warning: not offering {text}: {why}"),
        }
    }
    engines.extend(DEFAULT_ENGINES.iter().map(ToString::to_string));
    (engines, about)
}

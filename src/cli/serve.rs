//! `serve`: Xiangqi and Banqi in the browser — against an engine, two on one device, or
//! online with spectators; games kept in SQLite.

use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::anyhow;
use clap::Args as ClapArgs;

use xiangqi_zero::web::{default_db, start, Options, DEFAULT_ENGINES};

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
    /// alpha-beta.
    #[arg(long = "engine", value_name = "NAME=SPEC")]
    engines: Vec<String>,
}

/// Runs `serve` until it is stopped.
pub fn run(args: Args) -> anyhow::Result<()> {
    let engines = if args.engines.is_empty() {
        DEFAULT_ENGINES.iter().map(ToString::to_string).collect()
    } else {
        args.engines
    };
    let db = match args.db {
        Some(db) => db,
        None => default_db().map_err(|e| anyhow!(e))?,
    };
    let server = start(&Options { addr: args.addr, db: db.clone(), engines }).map_err(|e| anyhow!(e))?;
    println!("xiangqi-zero serve: http://{}/ (games in {})", server.addr(), db.display());
    server.wait().map_err(|e| anyhow!(e))
}

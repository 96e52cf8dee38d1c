//! `serve`: Xiangqi and Banqi in the browser. An HTTP + WebSocket server (axum on tokio)
//! that is the only authority on its games — moves checked by the rules core, ends
//! decided, flips drawn, engines run, clocks kept — with every game stored in SQLite
//! before anything is shown. The protocol is docs/web-protocol.md.

mod analysis;
mod assets;
mod clock;
mod ending;
mod engines;
mod frames;
mod http;
mod hub;
mod limits;
pub mod load;
mod offers;
pub mod protocol;
mod role;
mod room;
mod room_state;
mod socket;
mod store;
mod table;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::thread::JoinHandle;

use tokio::sync::oneshot;

pub use engines::{shipped_engine, shipped_nnue_engines, trained_engine, Engine, DEFAULT_ENGINES};

/// How a server is set up.
#[derive(Clone, Debug)]
pub struct Options {
    /// Where to listen (port 0: any free port).
    pub addr: SocketAddr,
    /// The database file.
    pub db: PathBuf,
    /// The engines offered, `NAME=SPEC` each.
    pub engines: Vec<String>,
    /// What the page says of some of them, by name (a trained net's run and strength).
    pub about: Vec<(String, String)>,
}

/// The default database: `<data dir>/xiangqi-zero/serve.sqlite3`.
pub fn default_db() -> Result<PathBuf, String> {
    dirs::data_dir()
        .map(|dir| dir.join("xiangqi-zero").join("serve.sqlite3"))
        .ok_or_else(|| "no data directory on this system: give --db FILE".to_string())
}

/// A running server, on its own thread and runtime.
pub struct Server {
    addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    thread: Option<JoinHandle<Result<(), String>>>,
}

/// Checks the engines, opens the database, rebuilds its games, binds the address and
/// starts serving; errors are one line.
pub fn start(options: &Options) -> Result<Server, String> {
    let mut engines = engines::Engine::parse_all(&options.engines)?;
    for engine in &mut engines {
        engine.about = options.about.iter().find(|(name, _)| *name == engine.name).map(|(_, about)| about.clone());
    }
    let store = store::Store::open(&options.db)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("serve")
        .build()
        .map_err(|e| format!("cannot start the server's runtime: {e}"))?;
    let (listener, hub) = runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(options.addr)
            .await
            .map_err(|e| format!("cannot listen on {}: {e}", options.addr))?;
        let hub = hub::Hub::open(room::Context::new(store, engines))?;
        Ok::<_, String>((listener, hub))
    })?;
    let addr = listener.local_addr().map_err(|e| format!("cannot listen on {}: {e}", options.addr))?;
    let (stop, stopped) = oneshot::channel::<()>();
    let thread = std::thread::spawn(move || {
        let result = runtime.block_on(async {
            tokio::select! {
                served = axum::serve(listener, http::router(Arc::new(hub))) => served.map_err(|e| format!("server failed: {e}")),
                _ = stopped => Ok(()),
            }
        });
        runtime.shutdown_background();
        result
    });
    Ok(Server { addr, stop: Some(stop), thread: Some(thread) })
}

impl Server {
    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Serves until the server fails (or forever).
    pub fn wait(mut self) -> Result<(), String> {
        self.thread.take().map_or(Ok(()), |thread| thread.join().unwrap_or(Err("the server crashed".to_string())))
    }

    /// Stops at once, dropping every connection, as a killed server would.
    pub fn stop(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.shutdown();
    }
}

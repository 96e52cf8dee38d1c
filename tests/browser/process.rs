//! Child processes the browser test starts (the server, chromedriver): on a free local
//! port, ready once the port accepts connections, killed when dropped.

use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const STARTUP: Duration = Duration::from_secs(30);

/// A port on 127.0.0.1 that nothing listens on right now.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free local port").port()
}

/// A program found on PATH, the first of `names` present.
pub fn on_path(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    names.iter().find_map(|name| std::env::split_paths(&path).map(|dir| dir.join(name)).find(|p| p.is_file()))
}

/// A child process listening on a local port, killed on drop.
pub struct Listening {
    child: Child,
}

impl Listening {
    /// Starts `command` (its output discarded unless `XZ_BROWSER_TEST_VERBOSE` is set) and
    /// waits until `port` accepts connections.
    pub fn start(mut command: Command, port: u16) -> Listening {
        if std::env::var_os("XZ_BROWSER_TEST_VERBOSE").is_none() {
            command.stdout(Stdio::null()).stderr(Stdio::null());
        }
        let child = command.spawn().unwrap_or_else(|e| panic!("cannot start {command:?}: {e}"));
        let mut listening = Listening { child };
        let started = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            if let Ok(Some(status)) = listening.child.try_wait() {
                panic!("{command:?} exited with {status} before listening on port {port}");
            }
            assert!(started.elapsed() < STARTUP, "{command:?} did not listen on port {port} within {STARTUP:?}");
            std::thread::sleep(Duration::from_millis(50));
        }
        listening
    }
}

impl Drop for Listening {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

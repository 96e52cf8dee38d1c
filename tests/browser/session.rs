//! One browser test's world: the real `serve` (its engines, a scratch database) and
//! headless Chromium, or the reason the test is skipped where Chromium is missing.

use super::driver::{browser_required, find_browser, Browser, REQUIRE_VARIABLE};
use super::page::Page;
use super::process::{free_port, Listening};
use std::future::Future;
use std::io::Write;
use std::path::PathBuf;
use std::process::Command;

/// The server and the browser of one test; both stop when it is dropped.
pub struct Session {
    /// The server's address, `http://127.0.0.1:<port>`.
    pub base: String,
    browser: Browser,
    /// Chromium and chromedriver, for more browsers than the first.
    programs: (PathBuf, PathBuf),
    runtime: tokio::runtime::Runtime,
    dir: PathBuf,
    port: u16,
    server: std::cell::RefCell<Option<Listening>>,
}

/// `serve` on `port` over the database in `dir`, offering `engines`, run in folder `cwd`.
fn start_server(port: u16, dir: &std::path::Path, engines: &[&str], cwd: &std::path::Path) -> Listening {
    let mut serve = Command::new(env!("CARGO_BIN_EXE_xiangqi-zero"));
    serve.current_dir(cwd).args(["serve", "--addr", &format!("127.0.0.1:{port}")]);
    for engine in engines {
        serve.args(["--engine", engine]);
    }
    serve.arg("--db");
    serve.arg(dir.join("serve.sqlite3"));
    Listening::start(serve, port)
}

impl Session {
    /// Starts the server (an easy alpha-beta engine) and a `width`×`height` browser for
    /// the test `name`; `None` (said on stderr) where Chromium is missing and not required.
    pub fn start(name: &str, width: u32, height: u32) -> Option<Session> {
        Session::start_with(name, width, height, &["easy=alphabeta:depth=1"])
    }

    /// [`Session::start`] with the server offering `engines` (`NAME=SPEC` each).
    pub fn start_with(name: &str, width: u32, height: u32, engines: &[&str]) -> Option<Session> {
        let (chromium, chromedriver) = match find_browser() {
            Ok(found) => found,
            Err(reason) if browser_required() => panic!("{reason} (required: CI=true or {REQUIRE_VARIABLE}=1)"),
            Err(reason) => {
                // Straight to stderr, past the test harness's capture, so the skip is seen.
                let _ = writeln!(std::io::stderr(), "skipped: {reason}");
                return None;
            }
        };
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a scratch directory");
        let port = free_port();
        let server = std::cell::RefCell::new(Some(start_server(port, &dir, engines, &dir)));
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a tokio runtime");
        let browser = runtime.block_on(Browser::start(&chromium, &chromedriver, width, height));
        let programs = (chromium, chromedriver);
        let base = format!("http://127.0.0.1:{port}");
        Some(Session { base, browser, programs, runtime, dir, port, server })
    }

    /// The page in this session's browser.
    pub fn page(&self) -> Page<'_> {
        Page { client: &self.browser.client }
    }

    /// This session's scratch folder (the database's, and the first server's working folder).
    pub fn dir(&self) -> &std::path::Path {
        &self.dir
    }

    /// Stops the server and starts it again on the same port and database, offering
    /// `engines`, run in folder `cwd`.
    pub fn restart_server(&self, engines: &[&str], cwd: &std::path::Path) {
        let mut server = self.server.borrow_mut();
        drop(server.take());
        *server = Some(start_server(self.port, &self.dir, engines, cwd));
    }

    /// Another browser of `width`×`height`, with a profile of its own (nothing remembered
    /// by the page in the first): another player's machine.
    pub async fn another_browser(&self, width: u32, height: u32) -> Browser {
        Browser::start(&self.programs.0, &self.programs.1, width, height).await
    }

    /// Runs `test` to its end, then closes the browser.
    pub fn run(&self, test: impl Future<Output = ()>) {
        self.runtime.block_on(async {
            test.await;
            self.browser.client.clone().close().await.expect("the browser closes");
        });
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

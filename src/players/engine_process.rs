//! An engine program run as a child process and spoken to line by line over its standard
//! input and output: its lines arrive on a channel from a reader thread, so that every
//! wait has a deadline; told `quit` and killed when dropped. The `uci:` players and
//! `bench`'s peer engines both run on it.

use std::io::{self, BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError};

/// How long an engine told `stop` has to answer.
const GRACE: Duration = Duration::from_secs(2);
/// How often a wait looks at the caller's stop flag.
const STOP_POLL: Duration = Duration::from_millis(10);

/// Why a wait for the engine's answer ended without it.
#[derive(Debug)]
pub enum WaitError {
    /// No answer within the limit.
    Timeout,
    /// The engine closed its output; how it ended, if it has.
    Closed(Option<ExitStatus>),
    /// Telling it `stop` failed.
    Write(io::Error),
}

/// A running engine process.
pub struct EngineProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl EngineProcess {
    /// Starts `program` with `args`, its standard error discarded.
    pub fn spawn(program: &str, args: &[String]) -> io::Result<EngineProcess> {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(io::Error::other("no standard input or output"));
        };
        let (sender, lines) = crossbeam_channel::unbounded();
        std::thread::spawn(move || {
            // Bytes, not UTF-8: an engine's `info string` in GBK is a line like any other.
            for line in BufReader::new(stdout).split(b'\n') {
                let Ok(bytes) = line else { break };
                let line = String::from_utf8_lossy(&bytes);
                if sender.send(line.trim_end_matches('\r').to_string()).is_err() {
                    break;
                }
            }
        });
        Ok(EngineProcess { child, stdin, lines })
    }

    /// Writes one line and flushes it.
    pub fn send(&mut self, line: &str) -> io::Result<()> {
        writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush())
    }

    /// Reads lines until one satisfies `done`, within `limit`; returns all lines read (the
    /// last is the one). When `stop` is set meanwhile, the engine is told `stop` (once) and
    /// gets [`GRACE`] more.
    pub fn wait_for(
        &mut self,
        done: impl Fn(&str) -> bool,
        limit: Duration,
        stop: Option<&AtomicBool>,
    ) -> Result<Vec<String>, WaitError> {
        let mut deadline = Instant::now() + limit;
        let mut stopped = false;
        let mut seen = Vec::new();
        loop {
            if !stopped && stop.is_some_and(|flag| flag.load(Ordering::SeqCst)) {
                stopped = true;
                self.send("stop").map_err(WaitError::Write)?;
                deadline = deadline.min(Instant::now() + GRACE);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            let slice = if stop.is_some() { left.min(STOP_POLL) } else { left };
            match self.lines.recv_timeout(slice) {
                Ok(line) => {
                    let finished = done(&line);
                    seen.push(line);
                    if finished {
                        return Ok(seen);
                    }
                }
                Err(RecvTimeoutError::Timeout) if Instant::now() < deadline => continue,
                Err(RecvTimeoutError::Timeout) => return Err(WaitError::Timeout),
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(WaitError::Closed(self.child.try_wait().ok().flatten()))
                }
            }
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

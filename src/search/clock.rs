//! The search's limits as it runs: counts nodes, watches the time and the stop flag, and
//! says when to stop.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::{Limits, MAX_DEPTH};

/// How many nodes pass between two looks at the clock and the stop flag.
const CHECK_EVERY: u64 = 1024;

/// Limits in force during one search, and the node count.
pub(crate) struct Clock {
    started: Instant,
    deadline: Option<Instant>,
    movetime: Option<Duration>,
    max_nodes: u64,
    max_depth: u32,
    stop: Option<Arc<AtomicBool>>,
    /// Nodes visited so far, quiescence included.
    pub nodes: u64,
    /// Set once a limit is reached: every node then returns at once.
    pub aborted: bool,
    /// Set once the first iteration is complete. Before it, neither the stop flag nor the
    /// time limit cuts the search: every search answers with a move it has looked at
    /// (`stop` right after `go infinite` must not get the first legal move unsearched).
    pub first_iteration_done: bool,
}

impl Clock {
    /// Starts the clock for `limits`.
    pub fn start(limits: &Limits) -> Clock {
        let started = Instant::now();
        Clock {
            started,
            deadline: limits.movetime.map(|t| started + t),
            movetime: limits.movetime,
            max_nodes: limits.nodes.unwrap_or(u64::MAX),
            max_depth: limits.depth.map_or(MAX_DEPTH, |d| d.clamp(1, MAX_DEPTH)),
            stop: limits.stop.clone(),
            nodes: 0,
            aborted: false,
            first_iteration_done: false,
        }
    }

    /// Time since the start.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// Counts a node about to be searched; false (and `aborted` set) if a limit forbids it.
    #[inline]
    pub fn visit(&mut self) -> bool {
        if self.aborted {
            return false;
        }
        if self.nodes >= self.max_nodes {
            self.aborted = true;
            return false;
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_EVERY) && self.out_of_time() {
            self.aborted = true;
            return false;
        }
        true
    }

    /// Whether the stop flag is set or the time is up (never before the first iteration
    /// is complete).
    fn out_of_time(&self) -> bool {
        self.first_iteration_done
            && (self.stop.as_ref().is_some_and(|flag| flag.load(Ordering::Relaxed))
                || self.deadline.is_some_and(|deadline| Instant::now() >= deadline))
    }

    /// Whether another iteration should start: no limit reached, and, under a time
    /// limit, enough time left that it is likely to finish (an iteration takes several
    /// times longer than the one before).
    pub fn another_iteration(&self, next_depth: u32) -> bool {
        if self.aborted || next_depth > self.max_depth || self.nodes >= self.max_nodes || self.out_of_time() {
            return false;
        }
        self.movetime.is_none_or(|t| self.elapsed() < t.mul_f64(0.5))
    }
}

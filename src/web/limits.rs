//! What one connection may send: frames of at most [`MAX_FRAME`] bytes, at most
//! [`RATE`] frames a second in bursts of [`BURST`].

use std::time::Instant;

/// The largest client frame, in bytes.
pub const MAX_FRAME: usize = 4096;
/// Frames a second a client may send on average.
const RATE: f64 = 20.0;
/// Frames a client may send at once.
const BURST: f64 = 40.0;

/// A token bucket for one connection.
#[derive(Debug)]
pub struct RateLimit {
    tokens: f64,
    last: Instant,
    /// Whether the client was told it is over the limit (it is told once per excess).
    warned: bool,
}

/// What to do with a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Handle it.
    Accept,
    /// Drop it and tell the client, once.
    Warn,
    /// Drop it silently.
    Drop,
}

impl Default for RateLimit {
    fn default() -> Self {
        RateLimit { tokens: BURST, last: Instant::now(), warned: false }
    }
}

impl RateLimit {
    /// Counts a frame arriving now.
    pub fn check(&mut self) -> Verdict {
        let now = Instant::now();
        self.tokens = (self.tokens + now.duration_since(self.last).as_secs_f64() * RATE).min(BURST);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            self.warned = false;
            Verdict::Accept
        } else if self.warned {
            Verdict::Drop
        } else {
            self.warned = true;
            Verdict::Warn
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_passes_then_one_warning_then_silence() {
        let mut limit = RateLimit::default();
        let verdicts: Vec<Verdict> = (0..45).map(|_| limit.check()).collect();
        assert!(verdicts[..40].iter().all(|&v| v == Verdict::Accept));
        assert_eq!(verdicts[40], Verdict::Warn);
        assert!(verdicts[41..].iter().all(|&v| v == Verdict::Drop));
    }
}

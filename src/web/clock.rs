//! A game's clocks: base time plus increment, the side to move's time running from the
//! moment the previous move was made.

use std::time::{Duration, Instant};

use crate::game::Player as Seat;

/// Both sides' clocks.
#[derive(Clone, Debug)]
pub struct Clock {
    /// Time left per seat (first, second) when its time last stopped.
    left_ms: [u64; 2],
    /// Added to a side's time after each of its moves.
    increment_ms: u64,
    /// The seat whose time runs, and since when.
    running: Option<(Seat, Instant)>,
}

impl Clock {
    /// Clocks with `left_ms` per seat, stopped.
    pub fn new(left_ms: [u64; 2], increment_ms: u64) -> Clock {
        Clock { left_ms, increment_ms, running: None }
    }

    /// The increment, in milliseconds.
    pub fn increment_ms(&self) -> u64 {
        self.increment_ms
    }

    /// Starts `seat`'s time now (stopping the other's without increment).
    pub fn start(&mut self, seat: Seat) {
        self.stop();
        self.running = Some((seat, Instant::now()));
    }

    /// Stops the running time, charging it.
    pub fn stop(&mut self) {
        if let Some((seat, _)) = self.running {
            self.left_ms[seat.index()] = self.left(seat);
            self.running = None;
        }
    }

    /// `seat` has moved: its time stops, gains the increment, and `next` runs.
    pub fn moved(&mut self, seat: Seat, next: Seat) {
        self.stop();
        self.left_ms[seat.index()] += self.increment_ms;
        self.start(next);
    }

    /// Time left to `seat` now, in milliseconds.
    pub fn left(&self, seat: Seat) -> u64 {
        let spent = match self.running {
            Some((running, since)) if running == seat => since.elapsed().as_millis() as u64,
            _ => 0,
        };
        self.left_ms[seat.index()].saturating_sub(spent)
    }

    /// The seat whose time runs.
    pub fn running(&self) -> Option<Seat> {
        self.running.map(|(seat, _)| seat)
    }

    /// The seat whose time has run out, if any.
    pub fn flagged(&self) -> Option<Seat> {
        self.running().filter(|&seat| self.left(seat) == 0)
    }

    /// How long until the running side's time runs out.
    pub fn until_flag(&self) -> Option<Duration> {
        self.running().map(|seat| Duration::from_millis(self.left(seat)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mover_gains_the_increment_and_the_other_side_runs() {
        let mut clock = Clock::new([1000, 1000], 500);
        clock.start(Seat::First);
        clock.moved(Seat::First, Seat::Second);
        assert!(clock.left(Seat::First) > 1400 && clock.left(Seat::First) <= 1500);
        assert_eq!(clock.running(), Some(Seat::Second));
        assert_eq!(clock.flagged(), None);
    }

    #[test]
    fn an_empty_clock_has_flagged() {
        let mut clock = Clock::new([0, 1000], 0);
        clock.start(Seat::First);
        assert_eq!(clock.flagged(), Some(Seat::First));
        clock.stop();
        assert_eq!(clock.flagged(), None);
    }
}

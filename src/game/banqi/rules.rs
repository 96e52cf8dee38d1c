//! The rule options a Banqi game is played under.

/// The rules of one game: how long it may go without progress, whether a capturing piece
/// may go on capturing in the same turn, and what a threefold repetition means.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Rules {
    /// A draw once this many plies in a row pass without a flip or a capture (180).
    pub no_progress_plies: u32,
    /// The chain-capture variant: after a capture, the same piece may capture again in
    /// the same turn, or stop (off by default).
    pub chain_captures: bool,
    /// The player whose move makes a position occur the third time loses, instead of the
    /// game being drawn (off by default; training can use it so that shuffling never pays).
    pub repeater_loses: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Rules { no_progress_plies: 180, chain_captures: false, repeater_loses: false }
    }
}

//! The rule options a Banqi game is played under.

/// The rules of one game: how long it may go without progress, and whether a capturing
/// piece may go on capturing in the same turn.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Rules {
    /// A draw once this many plies in a row pass without a flip or a capture (180).
    pub no_progress_plies: u32,
    /// The chain-capture variant: after a capture, the same piece may capture again in
    /// the same turn, or stop (off by default).
    pub chain_captures: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Rules { no_progress_plies: 180, chain_captures: false }
    }
}

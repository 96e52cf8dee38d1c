//! The rule options a Xiangqi game is played under.

use std::fmt;
use std::str::FromStr;

/// How a position repeated for the third time ends the game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum RepetitionRule {
    /// Asian rules: a side that checked with every move of the cycle while the other did
    /// not loses; otherwise a side that chased an unprotected piece with every move while
    /// the other did not loses; otherwise a draw.
    #[default]
    Asian,
    /// The player whose move makes the position occur the third time loses.
    RepeaterLoses,
    /// Any threefold repetition is a draw.
    Draw,
}

impl RepetitionRule {
    /// The rule's name on the command line and in configs.
    pub const fn as_str(self) -> &'static str {
        match self {
            RepetitionRule::Asian => "asian",
            RepetitionRule::RepeaterLoses => "repeater-loses",
            RepetitionRule::Draw => "draw",
        }
    }
}

impl FromStr for RepetitionRule {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "asian" => Ok(RepetitionRule::Asian),
            "repeater-loses" => Ok(RepetitionRule::RepeaterLoses),
            "draw" => Ok(RepetitionRule::Draw),
            other => Err(format!("unknown repetition rule `{other}` (asian, repeater-loses, draw)")),
        }
    }
}

impl fmt::Display for RepetitionRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The rules of one game: how repetitions end it and how long it may go without a capture.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Rules {
    /// What a threefold repetition means.
    pub repetition: RepetitionRule,
    /// A draw once this many plies in a row pass without a capture.
    pub no_capture_plies: u32,
}

impl Default for Rules {
    fn default() -> Self {
        Rules { repetition: RepetitionRule::Asian, no_capture_plies: 120 }
    }
}

//! The `Game` trait that every other layer — MCTS, the alpha-beta baseline, self-play,
//! training and the arena — is written against, and the games that implement it.
//!
//! A game state moves through two kinds of points:
//! - a **decision point**, where [`Game::to_move`] chooses one of [`Game::legal_moves`]
//!   and [`Game::play`]s it;
//! - a **chance point** ([`Game::is_chance`]), reached when a move's result is drawn at
//!   random (a Banqi flip reveals a piece from the hidden pool). It lists its outcomes
//!   with their probabilities ([`Game::chance_outcomes`]) and one is applied explicitly
//!   ([`Game::apply_outcome`]), chosen by a search that averages over all of them or
//!   sampled by self-play. Xiangqi has no chance points.

pub mod banqi;
mod chance;
mod color;
mod move_list;
pub mod perft;
mod repetition_warning;
pub(crate) mod splitmix;
pub mod square;
pub mod xiangqi;

pub use chance::sample_outcome;
pub use color::Color;
pub use repetition_warning::RepetitionWarning;

use std::fmt::{Debug, Display};
use std::hash::Hash;

/// One of the two players. `First` is Red in Xiangqi; in Banqi it is the player who made
/// the first move (colours are only decided by the first flip).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Player {
    /// Red in Xiangqi; the player who moved first in Banqi.
    First,
    /// Black in Xiangqi; the player who moved second in Banqi.
    Second,
}

impl Player {
    /// The other player.
    pub const fn opponent(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }

    /// 0 for `First`, 1 for `Second`: an index into per-player arrays.
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// Why a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum EndReason {
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move is not in check and has no legal move (a loss in Xiangqi and Banqi).
    Stalemate,
    /// A repetition in which one side checked with every move.
    PerpetualCheck,
    /// A repetition in which one side chased an unprotected piece with every move.
    PerpetualChase,
    /// A repetition decided by the repetition rule in force (a draw, or the repeater loses).
    Repetition,
    /// Too many plies without a capture (or flip, in Banqi).
    NoCapture,
    /// A side has no pieces left (Banqi).
    NoPieces,
}

impl EndReason {
    /// The reason as printed by `status`: `checkmate`, `perpetual-check`, …
    pub const fn as_str(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::PerpetualCheck => "perpetual-check",
            EndReason::PerpetualChase => "perpetual-chase",
            EndReason::Repetition => "repetition",
            EndReason::NoCapture => "no-capture",
            EndReason::NoPieces => "no-pieces",
        }
    }
}

impl Display for EndReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Whether a game goes on, and if not who won and why.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Status {
    /// The game goes on.
    Ongoing,
    /// The game is over: `winner` is `None` for a draw.
    Over {
        /// The winner, or `None` for a draw.
        winner: Option<Player>,
        /// Why the game ended.
        reason: EndReason,
    },
}

impl Status {
    /// The game's value for `player`: 1 for a win, 0 for a draw, −1 for a loss; `None`
    /// while the game goes on.
    pub fn value_for(self, player: Player) -> Option<f32> {
        match self {
            Status::Ongoing => None,
            Status::Over { winner: None, .. } => Some(0.0),
            Status::Over { winner: Some(w), .. } => Some(if w == player { 1.0 } else { -1.0 }),
        }
    }

    /// True once the game is over.
    pub fn is_over(self) -> bool {
        self != Status::Ongoing
    }
}

/// Why a text could not be read as a state or a move. The message is one line.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum GameError {
    /// The state text (FEN) is malformed or describes an impossible position.
    #[error("invalid position `{text}`: {why}")]
    InvalidPosition {
        /// The offending text.
        text: String,
        /// What is wrong with it.
        why: String,
    },
    /// The move text is not a move at all.
    #[error("malformed move `{0}`: expected from and to squares such as `h2e2`")]
    MalformedMove(String),
    /// The move is well formed but not legal in the position.
    #[error("illegal move `{mv}` in {position}")]
    IllegalMove {
        /// The move as written.
        mv: String,
        /// The position's text.
        position: String,
    },
    /// A move was given after the game had ended.
    #[error("the game is already over ({0}); no further moves")]
    GameOver(String),
}

/// A two-player board game, possibly with chance events, as the search and learning
/// layers see it.
pub trait Game: Clone + Debug + Send + Sync + 'static {
    /// A move: what a player chooses at a decision point.
    type Move: Copy + Eq + Hash + Debug + Display + Send + Sync + 'static;
    /// What a chance point resolves to (Banqi: the piece a flip reveals).
    type Outcome: Copy + Eq + Hash + Debug + Display + Send + Sync + 'static;

    /// The game's name as used on the command line (`xiangqi`, `banqi`).
    const NAME: &'static str;

    /// The usual starting position, with default rules.
    fn start() -> Self;

    /// Reads a state from its text (FEN for Xiangqi); `startpos` gives the start.
    fn from_text(text: &str) -> Result<Self, GameError>;

    /// The state as text, in the form `from_text` reads.
    fn to_text(&self) -> String;

    /// Reads a move's text and checks that it is legal here.
    fn parse_move(&self, text: &str) -> Result<Self::Move, GameError>;

    /// The player to choose at this decision point.
    fn to_move(&self) -> Player;

    /// The player who plays Red (upper-case letters), once known: in Xiangqi the first
    /// player; in Banqi whoever the first flip made Red.
    fn red_player(&self) -> Option<Player> {
        Some(Player::First)
    }

    /// Clears `out` and fills it with the moves the rules of movement allow (empty at a
    /// chance point). Draws by repetition or move limits are not applied here: callers
    /// ask [`Game::status`] whether the game goes on.
    fn legal_moves(&self, out: &mut Vec<Self::Move>);

    /// Plays a legal move. Afterwards the state may be a chance point.
    fn play(&mut self, mv: Self::Move);

    /// True when the last move's result is still to be drawn by chance.
    fn is_chance(&self) -> bool {
        false
    }

    /// Clears `out` and lists the outcomes of this chance point with their probabilities
    /// (summing to 1); empty at a decision point.
    fn chance_outcomes(&self, out: &mut Vec<(Self::Outcome, f32)>) {
        out.clear();
    }

    /// Resolves this chance point with `outcome`, one of `chance_outcomes`. (A game
    /// without chance points takes `Outcome = std::convert::Infallible`.)
    fn apply_outcome(&mut self, outcome: Self::Outcome);

    /// Whether the game goes on, and if not who won and why.
    fn status(&self) -> Status;

    /// The index in `moves` (this position's legal moves) of one that ends the game at
    /// once with the mover winning, where the rules core can tell it cheaply (Xiangqi: a
    /// move that leaves the opponent no legal move, checkmate or stalemate); `None` where
    /// there is none, or by default, where the game does not say.
    fn winning_move(&self, moves: &[Self::Move]) -> Option<usize> {
        let _ = moves;
        None
    }

    /// A 64-bit hash of the position (pieces and side to move).
    fn hash(&self) -> u64;

    /// Plies played since this state was created from its start or text.
    fn plies_played(&self) -> usize;

    /// The number of leaves `depth` plies below (see [`perft::perft`]); a game may
    /// override it with a faster count.
    fn perft(&self, depth: u32) -> u64 {
        perft::perft(self, depth)
    }
}

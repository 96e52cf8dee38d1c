//! How a session's game ended, and the result line that says so.

use super::View;
use crate::game::{EndReason, Player as Seat};

/// Why the game stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The rules ended it: `winner` (`None` for a draw) and why.
    Rules {
        /// The winner, or `None` for a draw.
        winner: Option<Seat>,
        /// The rule that ended the game.
        reason: EndReason,
    },
    /// This seat resigned.
    Resigned(Seat),
    /// The engine of this seat failed to move (the text says why); it loses.
    Forfeit(Seat, String),
    /// The game reached the ply limit of the session: a draw.
    PlyLimit(usize),
}

impl Ending {
    /// The result line: `result: 1-0, Red wins (checkmate)`. The score is Red's first
    /// (in Banqi before any flip, the first seat's).
    pub fn line<G: View>(&self, game: &G) -> String {
        let outcome = match self.winner() {
            Some(seat) => format!("{} wins", game.seat_name(seat)),
            None => "draw".to_string(),
        };
        format!("result: {}, {outcome} ({})", self.score(game), self.reason(game))
    }

    /// The score, Red's first (in Banqi before any flip, the first seat's): `1-0`, `0-1`
    /// or `1/2-1/2`.
    pub fn score<G: View>(&self, game: &G) -> &'static str {
        let red = game.red_player().unwrap_or(Seat::First);
        match self.winner() {
            Some(seat) if seat == red => "1-0",
            Some(_) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// Why the game stopped, in words: `checkmate`, `Black resigns`.
    pub fn reason<G: View>(&self, game: &G) -> String {
        match self {
            Ending::Rules { reason, .. } => phrase(*reason).to_string(),
            Ending::Resigned(seat) => format!("{} resigns", game.seat_name(*seat)),
            Ending::Forfeit(seat, why) => format!("{}'s engine failed: {why}", game.seat_name(*seat)),
            Ending::PlyLimit(plies) => format!("ply limit of {plies} reached"),
        }
    }

    /// The seat that won, `None` for a draw.
    fn winner(&self) -> Option<Seat> {
        match self {
            Ending::Rules { winner, .. } => *winner,
            Ending::Resigned(seat) | Ending::Forfeit(seat, _) => Some(seat.opponent()),
            Ending::PlyLimit(_) => None,
        }
    }
}

/// A rule's reason in words.
fn phrase(reason: EndReason) -> &'static str {
    match reason {
        EndReason::Checkmate => "checkmate",
        EndReason::Stalemate => "stalemate: no legal move",
        EndReason::PerpetualCheck => "perpetual check",
        EndReason::PerpetualChase => "perpetual chase",
        EndReason::Repetition => "repetition",
        EndReason::NoCapture => "too long without a capture",
        EndReason::NoPieces => "no pieces left",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::banqi::Banqi;
    use crate::game::xiangqi::Xiangqi;
    use crate::game::Game;

    #[test]
    fn result_lines_give_score_winner_and_reason() {
        let game = Xiangqi::start();
        let mate = Ending::Rules { winner: Some(Seat::Second), reason: EndReason::Checkmate };
        assert_eq!(mate.line(&game), "result: 0-1, Black wins (checkmate)");
        assert_eq!(Ending::Resigned(Seat::Second).line(&game), "result: 1-0, Red wins (Black resigns)");
        assert_eq!(Ending::PlyLimit(40).line(&game), "result: 1/2-1/2, draw (ply limit of 40 reached)");
        let draw = Ending::Rules { winner: None, reason: EndReason::PerpetualCheck };
        assert_eq!(draw.line(&game), "result: 1/2-1/2, draw (perpetual check)");
    }

    #[test]
    fn banqi_scores_from_red_once_colours_are_known() {
        let mut game = Banqi::start();
        assert_eq!(Ending::Resigned(Seat::Second).line(&game), "result: 1-0, First wins (Second resigns)");
        game.play(game.parse_move("a1a1").unwrap());
        game.apply_outcome(crate::game::banqi::Piece::from_letter('k').unwrap());
        assert_eq!(
            Ending::Resigned(Seat::Second).line(&game),
            "result: 0-1, First (black) wins (Second (red) resigns)"
        );
    }
}

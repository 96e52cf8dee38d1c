//! A warning before a move that lets the game end by repetition against its own player:
//! the move repeats a position for the third time in a draw or a loss for its player (a
//! perpetual check or chase by them, or the repeater losing), or it lets the opponent's
//! reply repeat one for the third time as a perpetual check or chase by the player. The
//! page and the terminal ask before playing such a move.

use super::{EndReason, Game, Player, Status};

/// How a move would let the game end by repeating a position, for the player making it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct RepetitionWarning {
    /// The ruling: perpetual check, perpetual chase, or the repetition rule in force.
    pub reason: EndReason,
    /// Whether the player loses (else the game is drawn).
    pub loses: bool,
    /// Whether the opponent's reply would end it (else the move itself).
    pub by_reply: bool,
}

impl RepetitionWarning {
    /// The warning for playing `mv` in `game`, if any.
    pub fn before<G: Game>(game: &G, mv: G::Move) -> Option<RepetitionWarning> {
        let player = game.to_move();
        let mut next = game.clone();
        next.play(mv);
        if let Some((winner, reason)) = repetition_end(&next) {
            return (winner != Some(player)).then_some(RepetitionWarning {
                reason,
                loses: winner.is_some(),
                by_reply: false,
            });
        }
        if next.is_chance() || next.status().is_over() {
            return None;
        }
        let mut replies = Vec::new();
        next.legal_moves(&mut replies);
        replies.into_iter().find_map(|reply| {
            let mut after = next.clone();
            after.play(reply);
            match repetition_end(&after) {
                Some((Some(winner), reason)) if winner != player && reason != EndReason::Repetition => {
                    Some(RepetitionWarning { reason, loses: true, by_reply: true })
                }
                _ => None,
            }
        })
    }

    /// What the move means, in one line for its player.
    pub fn text(&self) -> String {
        let ruling = match (self.reason, self.loses) {
            (EndReason::PerpetualCheck, true) => "a perpetual check by you, which loses",
            (EndReason::PerpetualChase, true) => "a perpetual chase by you, which loses",
            (_, true) => "the player completing the repetition loses",
            (_, false) => "the game is drawn",
        };
        if self.by_reply {
            format!("after this move your opponent can repeat the position for the third time: {ruling}")
        } else {
            format!("this move repeats the position for the third time: {ruling}")
        }
    }
}

/// The winner and the reason when `game` has just ended by a repetition rule.
fn repetition_end<G: Game>(game: &G) -> Option<(Option<Player>, EndReason)> {
    match game.status() {
        Status::Over { winner, reason }
            if matches!(reason, EndReason::PerpetualCheck | EndReason::PerpetualChase | EndReason::Repetition) =>
        {
            Some((winner, reason))
        }
        _ => None,
    }
}

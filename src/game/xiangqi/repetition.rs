//! The end of a game by repetition: which position repeats, and who is to blame.
//!
//! A game ends when a position occurs for the third time (positions count only since the
//! last capture, as nothing before it can recur). Under the Asian rule the whole span
//! from the first occurrence to the third is judged: a side that checked with every one
//! of its moves while the other did not loses (perpetual check); failing that, a side that
//! chased the same piece with every move while the other did not loses (perpetual chase);
//! otherwise the game is drawn.

use super::position::Ply;
use super::{attacks, Bitboard, Board, Color, Kind, Move, RepetitionRule};
use crate::game::{EndReason, Status};

/// The ruling if `board` occurs for the third time among the positions of `window`
/// (the plies since the last capture, each with the board before it) and itself.
pub(crate) fn verdict(window: &[Ply], board: &Board, rule: RepetitionRule) -> Option<Status> {
    let hash = board.hash();
    let mut earlier = (0..window.len().saturating_sub(1)).rev().step_by(2).filter(|&i| window[i].before.hash() == hash);
    let (_second, first) = (earlier.next()?, earlier.next()?);
    let mover = window[window.len() - 1].before.side_to_move();
    Some(match rule {
        RepetitionRule::Draw => draw(EndReason::Repetition),
        RepetitionRule::RepeaterLoses => win(mover.opponent(), EndReason::Repetition),
        RepetitionRule::Asian => asian(&window[first..], board),
    })
}

fn draw(reason: EndReason) -> Status {
    Status::Over { winner: None, reason }
}

fn win(color: Color, reason: EndReason) -> Status {
    Status::Over { winner: Some(color.player()), reason }
}

/// Judges a cycle by the Asian rule: perpetual check, then perpetual chase.
fn asian(cycle: &[Ply], end: &Board) -> Status {
    let checks_always = |color: Color| cycle.iter().filter(|p| p.before.side_to_move() == color).all(|p| p.gives_check);
    match (checks_always(Color::Red), checks_always(Color::Black)) {
        (true, false) => return win(Color::Black, EndReason::PerpetualCheck),
        (false, true) => return win(Color::Red, EndReason::PerpetualCheck),
        (true, true) => return draw(EndReason::Repetition),
        (false, false) => {}
    }
    match (chases_always(cycle, end, Color::Red), chases_always(cycle, end, Color::Black)) {
        (true, false) => win(Color::Black, EndReason::PerpetualChase),
        (false, true) => win(Color::Red, EndReason::PerpetualChase),
        _ => draw(EndReason::Repetition),
    }
}

/// Whether `chaser` chased one and the same enemy piece with every one of its moves in
/// the cycle (the piece followed as it moves).
fn chases_always(cycle: &[Ply], end: &Board, chaser: Color) -> bool {
    let mut victims: Option<Bitboard> = None;
    for (i, ply) in cycle.iter().enumerate() {
        let after = cycle.get(i + 1).map_or(end, |next| &next.before);
        if ply.before.side_to_move() == chaser {
            let chased = chased(&ply.before, ply.mv, after);
            victims = Some(victims.map_or(chased, |v| Bitboard(v.0 & chased.0)));
        } else if let Some(v) = victims.as_mut() {
            if v.contains(ply.mv.from) {
                v.toggle(ply.mv.from);
                v.toggle(ply.mv.to);
            }
        }
        if victims.is_some_and(Bitboard::is_empty) {
            return false;
        }
    }
    victims.is_some_and(|v| !v.is_empty())
}

/// The enemy pieces (by square, after the move) that `mv` chases: pieces the moved piece
/// newly attacks with a capture that would be legal, that are not generals nor soldiers
/// still on their own half, and that are unprotected — or worth more than the attacker
/// (a horse or cannon attacking a chariot chases it even if it is protected).
pub(crate) fn chased(before: &Board, mv: Move, after: &Board) -> Bitboard {
    let Some(attacker) = after.piece_at(mv.to) else { return Bitboard::EMPTY };
    let us = attacker.color();
    let mut found = Bitboard::EMPTY;
    for target in after.occupied_by(us.opponent()) {
        let Some(victim) = after.piece_at(target) else { continue };
        let exempt = match victim.kind() {
            Kind::King => true,
            Kind::Pawn => super::tables::on_own_half(target, victim.color()),
            _ => false,
        };
        if exempt || !attacks::reaches(after, mv.to, target) || !capture_is_legal(after, Move::new(mv.to, target)) {
            continue;
        }
        // Attacked before the move by the same piece from where it stood: not new.
        if before.piece_at(target) == Some(victim) && attacks::reaches(before, mv.from, target) {
            continue;
        }
        if value(victim.kind()) > value(attacker.kind()) || !protected(after, Move::new(mv.to, target)) {
            found.toggle(target);
        }
    }
    found
}

/// Whether the capture `mv` on `board` would leave the capturer's general unattacked.
fn capture_is_legal(board: &Board, mv: Move) -> bool {
    let mut after = *board;
    let us = after.side_to_move().opponent();
    // The capturer is not the side to move; play the capture as if it were.
    after.play(mv);
    !after.in_check(us)
}

/// Whether, after the capture `mv`, the captured piece's side could legally take back.
fn protected(board: &Board, mv: Move) -> bool {
    let mut after = *board;
    after.play(mv);
    let defender = after.side_to_move();
    attacks::attackers(&after, mv.to, defender).any(|from| {
        let mut recapture = after;
        recapture.play(Move::new(from, mv.to));
        !recapture.in_check(defender)
    })
}

/// Rough piece values for the chase rule's "worth more than the attacker".
const fn value(kind: Kind) -> u8 {
    match kind {
        Kind::King => 100,
        Kind::Rook => 9,
        Kind::Horse | Kind::Cannon => 4,
        Kind::Advisor | Kind::Elephant => 2,
        Kind::Pawn => 1,
    }
}

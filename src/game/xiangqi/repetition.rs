//! The end of a game by repetition: which position repeats, and who is to blame.
//!
//! A game ends when a position occurs for the third time (positions count only since the
//! last capture, as nothing before it can recur). Under the Asian rule the whole span
//! from the first occurrence to the third is judged: a side that checked with every one
//! of its moves while the other did not loses (perpetual check); failing that, a side that
//! chased the same piece with every move while the other did not loses (perpetual chase);
//! otherwise the game is drawn.

use super::ply::Ply;
use super::tables::on_own_half;
use super::{attacks, Bitboard, Board, Color, Kind, Move, RepetitionRule, Square};
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

/// The enemy pieces (by square) that `mv`, played from `before` to reach `after`, chases:
/// those it newly threatens to win. A threat is an attack by a chariot, horse, cannon,
/// advisor or elephant (generals and soldiers may chase freely) that could legally
/// capture, on a piece that is not the general nor a soldier still on its own half, when
/// the attacker is worth less than its target, or the target cannot be legally retaken
/// and cannot take the attacker back in kind. "Newly": the same attacker (followed
/// across the move) did not threaten the same piece before the move — so a threat
/// discovered by opening a line, or made by pinning the target's only defender, counts.
pub(crate) fn chased(before: &Board, mv: Move, after: &Board) -> Bitboard {
    let Some(mover) = after.piece_at(mv.to) else { return Bitboard::EMPTY };
    let old = threats(before, mover.color());
    let mut found = Bitboard::EMPTY;
    for (attacker, target) in threats(after, mover.color()) {
        let was = if attacker == mv.to { mv.from } else { attacker };
        if !old.contains(&(was, target)) && !found.contains(target) {
            found.toggle(target);
        }
    }
    found
}

/// Every (attacker, target) pair of `chaser`'s threats on `board` (see [`chased`]).
fn threats(board: &Board, chaser: Color) -> Vec<(Square, Square)> {
    let victim = chaser.opponent();
    let mut found = Vec::new();
    for attacker in board.occupied_by(chaser) {
        let Some(piece) = board.piece_at(attacker) else { continue };
        if matches!(piece.kind(), Kind::King | Kind::Pawn) {
            continue;
        }
        for target in board.occupied_by(victim) {
            let Some(prey) = board.piece_at(target) else { continue };
            let exempt = match prey.kind() {
                Kind::King => true,
                Kind::Pawn => on_own_half(target, victim),
                _ => false,
            };
            let capture = Move::new(attacker, target);
            if exempt || !attacks::reaches(board, attacker, target) || !leaves_king_safe(board, capture) {
                continue;
            }
            let threatened = if value(piece.kind()) < value(prey.kind()) {
                true
            } else {
                let answers_in_kind = prey.kind() == piece.kind()
                    && attacks::reaches(board, target, attacker)
                    && leaves_king_safe(board, Move::new(target, attacker));
                !answers_in_kind && !can_retake(board, capture)
            };
            if threatened {
                found.push((attacker, target));
            }
        }
    }
    found
}

/// Whether the piece making `mv` leaves its own general unattacked (whoever is to move).
fn leaves_king_safe(board: &Board, mv: Move) -> bool {
    let mut after = *board;
    let Some(piece) = after.piece_at(mv.from) else { return false };
    after.play(mv);
    !after.in_check(piece.color())
}

/// Whether, after the capture `mv`, the captured piece's side could legally take back.
fn can_retake(board: &Board, capture: Move) -> bool {
    let mut after = *board;
    after.play(capture);
    let defender = after.side_to_move();
    attacks::attackers(&after, capture.to, defender).any(|from| leaves_king_safe(&after, Move::new(from, capture.to)))
}

/// Piece values for the chase rule's "worth more than the attacker": a horse or cannon
/// threatening a chariot, or an advisor or elephant threatening a chariot, horse or
/// cannon, chases it even when it is protected.
const fn value(kind: Kind) -> u8 {
    match kind {
        Kind::King => 100,
        Kind::Rook => 9,
        Kind::Horse | Kind::Cannon => 4,
        Kind::Advisor | Kind::Elephant => 2,
        Kind::Pawn => 1,
    }
}

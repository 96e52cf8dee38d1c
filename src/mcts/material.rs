//! `material`: priors that favour captures (and checks), a value from the material
//! balance through a tanh — the balance as it stands, or (`quiescence`) as it stands once
//! the captures on the board settle. Generic over the games through the small
//! [`Material`] trait.

use super::evaluator::{Batch, Evaluator, Wdl};
use crate::game::banqi::{self, Banqi};
use crate::game::xiangqi::{self, Xiangqi};
use crate::game::Game;

/// What the material evaluator needs to know of a game.
pub trait Material: Game {
    /// The material balance from the side to move's view, in soldiers.
    fn material(&self) -> f32;

    /// The material balance once the captures settle: the best either side can make of
    /// the exchanges on the board (each free to stop capturing), in soldiers from the side
    /// to move's view. Games without such a search (Banqi, whose hidden pieces make every
    /// exchange a gamble) give [`Material::material`].
    fn settled_material(&self) -> f32 {
        self.material()
    }

    /// A prior weight for each of `moves` (the legal moves, in order) into `out`: 1 for a
    /// quiet move, more for captures of valuable pieces and for checks.
    fn move_weights(&self, moves: &[Self::Move], out: &mut [f32]);

    /// What each of `moves` newly threatens to win, in soldiers, into `out`: the material
    /// the mover would gain by the settling captures if the opponent passed, beyond what it
    /// could gain before the move (at most a chariot). 0 for captures and checks (the
    /// weights already favour them), and for every move of a game without a settling
    /// search (Banqi), the default.
    fn threats(&self, moves: &[Self::Move], out: &mut [f32]) {
        debug_assert_eq!(moves.len(), out.len());
        out.fill(0.0);
    }

    /// [`Material::settled_material`], with the captures along its search's principal line
    /// into `line` (cleared first), stopping where standing pat is best or the side to move
    /// is in check: the way to the quiet position whose balance it counts. The line is empty
    /// for a quiet position, and by default.
    fn settled_line(&self, line: &mut Vec<Self::Move>) -> f32 {
        line.clear();
        self.settled_material()
    }
}

/// Values from the material balance, priors from captures and checks.
///
/// The value is `cap · tanh(balance / scale)`: never as sure as a result the rules
/// decide, so that a mate (±1) stands out however large the material advantage.
#[derive(Clone, Copy, Debug)]
pub struct MaterialEvaluator {
    /// The balance (in soldiers) whose value is `cap · tanh(1)`.
    pub scale: f32,
    /// The largest value a balance can give.
    pub cap: f32,
    /// Whether the balance is the settled one ([`Material::settled_material`]), so that
    /// a piece left hanging counts as lost.
    pub settled: bool,
}

impl Default for MaterialEvaluator {
    fn default() -> Self {
        MaterialEvaluator { scale: 8.0, cap: 0.8, settled: false }
    }
}

impl MaterialEvaluator {
    /// The evaluator of settled balances (`eval=settled`).
    pub fn settled() -> Self {
        MaterialEvaluator { settled: true, ..MaterialEvaluator::default() }
    }

    /// The value of a balance (in soldiers, from the side to move's view).
    pub fn value_of(&self, balance: f32) -> f32 {
        self.cap * (balance / self.scale).tanh()
    }
}

impl<G: Material> Evaluator<G> for MaterialEvaluator {
    fn evaluate(&mut self, batch: &mut Batch<G>) {
        for i in 0..batch.len() {
            let (game, moves, priors) = batch.entry_mut(i);
            game.move_weights(moves, priors);
            let balance = if self.settled { game.settled_material() } else { game.material() };
            batch.set_value(i, Wdl::from_value(self.value_of(balance)));
        }
    }
}

/// A Xiangqi piece's worth in soldiers (a soldier across the river counts double).
fn xiangqi_value(piece: xiangqi::Piece, square: xiangqi::Square) -> f32 {
    use xiangqi::{Color, Kind};
    match piece.kind() {
        Kind::King => 0.0,
        Kind::Advisor | Kind::Elephant => 2.0,
        Kind::Horse => 4.0,
        Kind::Cannon => 4.5,
        Kind::Rook => 9.0,
        Kind::Pawn => {
            let crossed = match piece.color() {
                Color::Red => square.rank() >= 5,
                Color::Black => square.rank() <= 4,
            };
            if crossed {
                2.0
            } else {
                1.0
            }
        }
    }
}

/// Extra prior weight of a move that gives check.
const CHECK_WEIGHT: f32 = 4.0;
/// Extra prior weight per soldier of material captured.
const CAPTURE_WEIGHT: f32 = 1.0;

impl Material for Xiangqi {
    fn material(&self) -> f32 {
        xiangqi_balance(self.board())
    }

    fn move_weights(&self, moves: &[xiangqi::Move], out: &mut [f32]) {
        let board = self.board();
        let them = board.side_to_move().opponent();
        for (mv, weight) in moves.iter().zip(out.iter_mut()) {
            let captured = board.piece_at(mv.to).map_or(0.0, |victim| xiangqi_value(victim, mv.to));
            let mut after = *board;
            after.play(*mv);
            let check = if after.in_check(them) { CHECK_WEIGHT } else { 0.0 };
            *weight = 1.0 + CAPTURE_WEIGHT * captured + check;
        }
    }

    fn threats(&self, moves: &[xiangqi::Move], out: &mut [f32]) {
        let board = self.board();
        let them = board.side_to_move().opponent();
        let before = if board.in_check(board.side_to_move()) { 0.0 } else { capture_gain(board) };
        for (mv, threat) in moves.iter().zip(out.iter_mut()) {
            *threat = 0.0;
            if board.piece_at(mv.to).is_some() {
                continue;
            }
            let mut after = *board;
            after.play(*mv);
            if !after.in_check(them) {
                *threat = threat_gain(&after.passed(), before);
            }
        }
    }

    fn settled_material(&self) -> f32 {
        settle(self.board(), xiangqi_balance(self.board()), -MATED, MATED, 0).0
    }

    fn settled_line(&self, line: &mut Vec<xiangqi::Move>) -> f32 {
        line.clear();
        let mut board = *self.board();
        let (settled, mut next) = settle(&board, xiangqi_balance(&board), -MATED, MATED, 0);
        while let Some(mv) = next {
            if line.len() >= SETTLE_PLIES || board.in_check(board.side_to_move()) {
                break;
            }
            line.push(mv);
            board.play(mv);
            next = settle(&board, xiangqi_balance(&board), -MATED, MATED, 0).1;
        }
        settled
    }
}

/// A balance beyond any material: the side to move is mated.
const MATED: f32 = 1000.0;
/// How deep a chain of exchanges (and check evasions) is followed.
const SETTLE_PLIES: usize = 16;

/// The largest threat counted, in soldiers: a chariot (a mate by captures counts no more).
const MAX_THREAT: f32 = 9.0;

/// What the side to move of `board` gains by the settling captures, in soldiers.
fn capture_gain(board: &xiangqi::Board) -> f32 {
    let balance = xiangqi_balance(board);
    settle(board, balance, -MATED, MATED, 0).0 - balance
}

/// What the side to move of `board` gains by the settling captures beyond `floor`, in
/// soldiers, clamped to `0..=MAX_THREAT`: [`capture_gain`] searched only within the window
/// that the clamp keeps, so that lines sure to be clamped are cut short.
fn threat_gain(board: &xiangqi::Board, floor: f32) -> f32 {
    let balance = xiangqi_balance(board);
    let window = (balance + floor, balance + floor + MAX_THREAT);
    (settle(board, balance, window.0, window.1, 0).0 - balance - floor).clamp(0.0, MAX_THREAT)
}

/// The material balance of `board` from the side to move's view, in soldiers.
fn xiangqi_balance(board: &xiangqi::Board) -> f32 {
    let us = board.side_to_move();
    board.pieces().map(|(sq, piece)| if piece.color() == us { 1.0 } else { -1.0 } * xiangqi_value(piece, sq)).sum()
}

/// Quiescence over material from `board`, whose balance is `balance`: the side to move
/// stands pat on the balance or captures, best victim first, within the window
/// `alpha..beta`; in check it must answer with any legal move (and is mated without one).
/// Returns the value and the move that reached it (`None` where standing pat did).
fn settle(board: &xiangqi::Board, balance: f32, mut alpha: f32, beta: f32, ply: usize) -> (f32, Option<xiangqi::Move>) {
    let in_check = board.in_check(board.side_to_move());
    let mut moves = xiangqi::MoveList::new();
    let mut best = -MATED;
    let mut best_move = None;
    if in_check {
        board.legal_moves(&mut moves);
        if moves.is_empty() {
            return (-MATED, None);
        }
        if ply >= SETTLE_PLIES {
            return (balance, None);
        }
    } else {
        if balance >= beta || ply >= SETTLE_PLIES {
            return (balance, None);
        }
        alpha = alpha.max(balance);
        best = balance;
        board.legal_captures(&mut moves);
    }
    let victim = |mv: &xiangqi::Move| board.piece_at(mv.to).map_or(0.0, |p| xiangqi_value(p, mv.to));
    moves.sort_by(|a, b| victim(b).total_cmp(&victim(a)));
    for &mv in moves.iter() {
        let piece = board.piece_at(mv.from).expect("a legal move moves a piece");
        // What the mover gains: the victim, and its own piece's change of worth (a soldier
        // crossing the river).
        let gain = victim(&mv) + xiangqi_value(piece, mv.to) - xiangqi_value(piece, mv.from);
        let mut child = *board;
        child.play(mv);
        let value = -settle(&child, -(balance + gain), -beta, -alpha, ply + 1).0;
        if value > best {
            best = value;
            best_move = Some(mv);
            if value > alpha {
                alpha = value;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    (best, best_move)
}

/// A Banqi piece's worth in soldiers.
fn banqi_value(kind: banqi::Kind) -> f32 {
    use banqi::Kind;
    match kind {
        Kind::General => 6.0,
        Kind::Advisor => 5.0,
        Kind::Elephant => 4.0,
        Kind::Chariot => 3.0,
        Kind::Horse => 2.0,
        Kind::Cannon => 4.5,
        Kind::Soldier => 1.0,
    }
}

impl Material for Banqi {
    fn material(&self) -> f32 {
        let board = self.board();
        let Some(us) = board.side_to_move() else { return 0.0 };
        let side_total = |color: banqi::Color| -> f32 {
            let face_up: f32 =
                board.face_up(color).filter_map(|sq| board.piece_at(sq)).map(|p| banqi_value(p.kind())).sum();
            let hidden: f32 = board
                .pool()
                .counts_of(color)
                .iter()
                .zip(banqi::Kind::ALL)
                .map(|(&n, kind)| n as f32 * banqi_value(kind))
                .sum();
            face_up + hidden
        };
        side_total(us) - side_total(us.opponent())
    }

    fn move_weights(&self, moves: &[banqi::Move], out: &mut [f32]) {
        let board = self.board();
        for (mv, weight) in moves.iter().zip(out.iter_mut()) {
            let captured = if mv.is_in_place() { None } else { board.piece_at(mv.to) };
            *weight = 1.0 + captured.map_or(0.0, |victim| 2.0 * CAPTURE_WEIGHT * banqi_value(victim.kind()));
        }
    }
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    use super::*;

    #[test]
    fn the_windowed_threat_search_gives_the_full_search_clamped() {
        // Positions along games of random legal moves from the start, captures and all.
        let mut rng = StdRng::seed_from_u64(7);
        let (mut checked, mut winning) = (0, 0);
        while checked < 3000 {
            let mut board = xiangqi::Board::start();
            let mut moves = xiangqi::MoveList::new();
            for _ in 0..150 {
                moves.clear();
                board.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                board.play(moves[rng.random_range(0..moves.len())]);
                if board.in_check(board.side_to_move()) {
                    continue;
                }
                let full = capture_gain(&board);
                for floor in [0.0, 1.0, 2.5, 4.0] {
                    assert_eq!(threat_gain(&board, floor), (full - floor).clamp(0.0, MAX_THREAT), "{floor}");
                }
                checked += 1;
                winning += usize::from(full > 1.0);
            }
        }
        assert!(winning > 300, "only {winning} positions with more than a soldier to win");
    }
}

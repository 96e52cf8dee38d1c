//! Expectiminimax for Banqi: iterative deepening over a negamax search whose flips are
//! exact chance nodes — each piece the hidden pool could reveal, weighted by its count
//! — pruned Star1-style (a chance node stops once the outcomes still to come cannot
//! bring its average back inside the window, and gives each outcome the narrowest window
//! that could matter). A transposition table serves the decision nodes, whose hash covers
//! the pool; quiescence resolves captures at the horizon. In the chain-capture variant a
//! capture may keep the turn: values are then not negated.

use super::banqi_eval::{victim_value, Evaluator};
use super::deepen::{deepen, Deepening, Progress};
use super::tt::{decode_move, encode_move, Bound, Table};
use super::{value_from_tt, value_to_tt, Limits, Report, INFINITY, MATE, MAX_PLY};
use crate::game::banqi::{Banqi, Board, Cell, Color, Kind, Move, MoveList, Piece, Square, Squares};
use crate::game::{Game, Player};

/// How many plies beyond the usual one a flip's outcomes are searched less deep: the
/// chance nodes multiply the tree by up to 14, and a flip rarely decides a race.
const FLIP_REDUCTION: i32 = 1;
/// How many captures deep quiescence looks.
const QUIESCENCE_PLIES: u32 = 4;
/// Captures whose victim, counted twice, still leaves the value this far below alpha
/// are not tried in quiescence.
const DELTA_MARGIN: i32 = 60;
/// The bounds of any value, for Star1 pruning.
const LOWEST: i64 = -(MATE as i64);
const HIGHEST: i64 = MATE as i64;

/// The Banqi expectimax searcher. Keep one per game (or per engine): its hash table
/// carries over from move to move.
pub struct Expectimax {
    tt: Table,
    evaluator: Evaluator,
    progress: Progress<Move>,
    root_board: Board,
    /// Hashes of the positions from the root to the current node, by ply.
    path: Vec<u64>,
    /// Plies since the last flip or capture at each node on the path.
    since_progress: Vec<u32>,
    no_progress_plies: u32,
    /// Whether a repetition loses for the side that made it (else it draws).
    repeater_loses: bool,
    /// The positions this searcher was asked about earlier in the game, with the plies
    /// played then (the game keeps its own history private): a line back to one of them
    /// since the last flip or capture heads for a repetition.
    roots: Vec<(u64, u32)>,
    /// The hashes of `roots` since the last flip or capture before this search's root.
    earlier: Vec<u64>,
}

/// The filler of unused move slots (never read as a move).
const NO_MOVE: Move = Move::flip(Square::new(0));

impl Expectimax {
    /// A searcher with a hash table of about `hash_mb` MiB.
    pub fn new(hash_mb: usize) -> Self {
        Expectimax {
            tt: Table::new(hash_mb),
            evaluator: Evaluator::new(),
            progress: Progress::new(NO_MOVE),
            root_board: Board::start(),
            path: Vec::new(),
            since_progress: Vec::new(),
            no_progress_plies: u32::MAX,
            repeater_loses: false,
            roots: Vec::new(),
            earlier: Vec::new(),
        }
    }

    /// Forgets everything learned, as for a new game.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.roots.clear();
    }

    /// Searches `game`'s position within `limits`, calling `on_iteration` after each
    /// finished iteration, and returns the last finished one (with a better root move
    /// from an unfinished one, if it found one). `best` is a legal move whenever the side
    /// to move has one (none at a chance point), even when the limits allow no search.
    pub fn search(
        &mut self,
        game: &Banqi,
        limits: &Limits,
        on_iteration: &mut dyn FnMut(&Report<Move>),
    ) -> Report<Move> {
        self.progress.start(limits);
        self.tt.new_search();
        let board = *game.board();
        self.root_board = board;
        self.path.clear();
        self.path.resize(MAX_PLY + 2, 0);
        self.path[0] = board.hash();
        self.since_progress.clear();
        self.since_progress.resize(MAX_PLY + 2, 0);
        let counters = game.counters();
        self.since_progress[0] = counters.since_progress;
        self.no_progress_plies = game.rules().no_progress_plies;
        self.repeater_loses = game.rules().repeater_loses;
        let window = counters.plies.saturating_sub(counters.since_progress)..counters.plies;
        self.roots.retain(|(_, plies)| window.contains(plies));
        self.earlier.clear();
        self.earlier.extend(self.roots.iter().map(|&(hash, _)| hash));
        self.roots.push((board.hash(), counters.plies));

        let mut root_moves = Vec::new();
        game.legal_moves(&mut root_moves);
        let Some(&fallback) = root_moves.first() else {
            let value = match game.status().value_for(game.to_move()) {
                Some(v) if v > 0.0 => MATE,
                Some(v) if v < 0.0 => -MATE,
                _ => 0,
            };
            return self.progress.report(0, value, None, Vec::new());
        };
        deepen(self, fallback, on_iteration)
    }

    /// The value for the player to move of the decision node `board`, `depth` plies
    /// from the horizon. At the horizon, `focus` narrows quiescence to the exchange on
    /// one square (that of a flip just resolved).
    fn node(&mut self, board: &Board, depth: i32, ply: usize, mut alpha: i32, beta: i32, focus: Option<Square>) -> i32 {
        self.progress.pv.clear(ply);
        let mover = board.to_move();
        if let Some(loser) = board.player_without_pieces() {
            return if loser == mover { -(MATE - ply as i32) } else { MATE - ply as i32 };
        }
        if ply > 0 && self.repeated(ply) {
            // Heading for a repetition: a draw, or under `repeater_loses` a loss for the
            // side that just repeated.
            return if self.repeater_loses { MATE - ply as i32 } else { 0 };
        }
        // The no-progress limit draws (unless the side to move has no move, which loses),
        // before the table or the horizon can give the position another value.
        if ply > 0 && self.since_progress[ply] >= self.no_progress_plies && board.count_legal_moves() > 0 {
            return 0;
        }
        if depth <= 0 {
            return self.quiesce(board, ply, alpha, beta, focus, 0);
        }
        if !self.progress.clock.visit() {
            return 0;
        }
        self.progress.reach(ply);
        if ply >= MAX_PLY - 1 {
            return self.evaluator.evaluate(board);
        }
        let key = board.hash();
        let entry = self.tt.probe(key);
        if let Some(entry) = entry {
            let value = value_from_tt(entry.value(), ply);
            if ply > 0 && beta - alpha == 1 && entry.cuts(value, depth, alpha, beta) {
                return value;
            }
        }
        let mut list = MoveList::new();
        board.legal_moves(&mut list);
        if list.is_empty() {
            return -(MATE - ply as i32);
        }
        let hash_move = if ply == 0 {
            self.progress.previous_best
        } else {
            entry.and_then(|e| decode_move(e.mv).map(|(from, to)| Move::new(from, to)))
        };
        // Below the root, flips far from every face-up piece are alike: one stands for all.
        let worth_flipping = if ply == 0 { u32::MAX } else { flips_worth_searching(board) };
        let mut moves: Vec<(Move, i32)> = list
            .iter()
            .filter(|mv| {
                !mv.is_in_place() || board.cell(mv.from) != Cell::Hidden || worth_flipping & mv.from.bit() != 0
            })
            .map(|&mv| (mv, order(board, mv, hash_move)))
            .collect();
        moves.sort_unstable_by_key(|&(_, score)| -score);

        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        for (i, &(mv, _)) in moves.iter().enumerate() {
            let flip = mv.is_in_place() && board.cell(mv.from) == Cell::Hidden;
            let value = if flip {
                let value = self.chance(board, mv.from, depth - 1 - FLIP_REDUCTION, ply, alpha, beta);
                // No line goes on past a flip: which piece turns up is not known.
                self.progress.pv.clear(ply + 1);
                value
            } else {
                let mut child = *board;
                let progress = play_counts_progress(&mut child, mv);
                self.enter(ply, &child, progress);
                if i == 0 {
                    self.child(&child, mover, depth - 1, ply + 1, alpha, beta, None)
                } else {
                    let value = self.child(&child, mover, depth - 1, ply + 1, alpha, alpha + 1, None);
                    if value > alpha && value < beta {
                        self.child(&child, mover, depth - 1, ply + 1, alpha, beta, None)
                    } else {
                        value
                    }
                }
            };
            if self.progress.clock.aborted {
                return 0;
            }
            let (better, cutoff) = self.progress.take(ply, mv, value, &mut best, &mut alpha, beta);
            if better {
                best_move = Some(mv);
            }
            if cutoff {
                break;
            }
        }
        let bound = Bound::of(best, original_alpha, beta);
        self.tt.store(key, best_move.map_or(0, |mv| encode_move(mv.from, mv.to)), value_to_tt(best, ply), depth, bound);
        best
    }

    /// The value for `mover` of the position `child` reached by its move, with the window
    /// (`alpha`, `beta`) from `mover`'s view. A capture in a chain keeps the turn.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn child(
        &mut self,
        child: &Board,
        mover: Player,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        focus: Option<Square>,
    ) -> i32 {
        if child.to_move() == mover {
            self.node(child, depth, ply, alpha, beta, focus)
        } else {
            -self.node(child, depth, ply, -beta, -alpha, focus)
        }
    }

    /// Records the position reached at `ply + 1` on the path.
    #[inline]
    fn enter(&mut self, ply: usize, child: &Board, progress: bool) {
        let at = ply + 1;
        self.path[at] = child.hash();
        self.since_progress[at] = if progress { 0 } else { self.since_progress[at - 1] + 1 };
    }

    /// Whether the node at `ply` repeats a position since the last flip or capture: one
    /// on the path, or one searched earlier in the game.
    fn repeated(&self, ply: usize) -> bool {
        let since = self.since_progress[ply] as usize;
        let earliest = ply.saturating_sub(since);
        (earliest..ply).rev().any(|k| self.path[k] == self.path[ply])
            || (since >= ply && self.earlier.contains(&self.path[ply]))
    }

    /// The value for the player flipping of the flip of `sq` on `board`: the average
    /// over the pieces the pool may reveal, with Star1 pruning against (`alpha`, `beta`).
    fn chance(&mut self, board: &Board, sq: Square, depth: i32, ply: usize, alpha: i32, beta: i32) -> i32 {
        let mover = board.to_move();
        let pool = board.pool();
        let total = pool.total() as i64;
        let mut outcomes: Vec<_> = pool.outcomes().collect();
        // Likely outcomes first: they decide the most.
        outcomes.sort_by_key(|&(_, count)| std::cmp::Reverse(count));
        let mut average = Average::new(total, alpha, beta);
        for (piece, count) in outcomes {
            let (low, high) = match average.window(count as i64) {
                Ok(window) => window,
                Err(bound) => return bound,
            };
            let mut child = *board;
            child.flip(sq, piece);
            self.enter(ply, &child, true);
            // At the horizon only the exchange on the flipped square is looked at.
            let value = self.child(&child, mover, depth, ply + 1, low, high, Some(sq));
            if self.progress.clock.aborted {
                return 0;
            }
            if let Err(bound) = average.add(count as i64, value, (low, high)) {
                return bound;
            }
        }
        average.value()
    }

    /// Captures only, after standing pat: every capture, or with `focus` only those onto
    /// or from that square and then the recaptures, up to [`QUIESCENCE_PLIES`] deep.
    fn quiesce(
        &mut self,
        board: &Board,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        focus: Option<Square>,
        depth: u32,
    ) -> i32 {
        self.progress.pv.clear(ply);
        if !self.progress.clock.visit() {
            return 0;
        }
        self.progress.reach(ply);
        let stand_pat = self.evaluator.evaluate(board);
        if stand_pat >= beta || ply >= MAX_PLY - 1 || depth >= QUIESCENCE_PLIES {
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);
        let mut best = stand_pat;
        let mut captures = [(NO_MOVE, 0); 64];
        let mut count = 0;
        let Some(side) = board.side_to_move() else { return best };
        let own = board.face_up(side).0;
        let attackers = match (board.chain_square(), focus) {
            (Some(sq), _) => sq.bit(),
            // Onto the focus square: its neighbours and the Cannons; or from it.
            (None, Some(sq)) => own & (neighbours(sq) | sq.bit() | cannons(board, side)),
            (None, None) => own,
        };
        for from in Squares(attackers) {
            for to in Squares(board.captures_from(from)) {
                let mv = Move::new(from, to);
                if focus.is_some_and(|sq| to != sq && from != sq) {
                    continue;
                }
                // Delta pruning: even winning the piece for nothing would not reach alpha.
                let victim = board.piece_at(to).map_or(0, |p| victim_value(p.kind()));
                if stand_pat + 2 * victim + DELTA_MARGIN <= alpha {
                    continue;
                }
                if count < captures.len() {
                    captures[count] = (mv, order(board, mv, None));
                    count += 1;
                }
            }
        }
        let captures = &mut captures[..count];
        captures.sort_unstable_by_key(|&(_, score)| -score);
        let mover = board.to_move();
        for &(mv, _) in captures.iter() {
            let mut child = *board;
            child.play(mv);
            let focus = focus.map(|_| mv.to);
            let value = if child.player_without_pieces().is_some() {
                // The capture took the last piece: search the end properly.
                self.child(&child, mover, 0, ply + 1, alpha, beta, None)
            } else if child.to_move() == mover {
                self.quiesce(&child, ply + 1, alpha, beta, focus, depth + 1)
            } else {
                -self.quiesce(&child, ply + 1, -beta, -alpha, focus, depth + 1)
            };
            if self.progress.clock.aborted {
                return 0;
            }
            if self.progress.take(ply, mv, value, &mut best, &mut alpha, beta).1 {
                break;
            }
        }
        best
    }
}

impl Deepening for Expectimax {
    type Move = Move;

    fn progress(&mut self) -> &mut Progress<Move> {
        &mut self.progress
    }

    fn iterate(&mut self, depth: u32) -> i32 {
        let board = self.root_board;
        self.node(&board, depth as i32, 0, -INFINITY, INFINITY, None)
    }
}

/// A chance node's average under Star1 pruning: the outcomes are added one by one, each
/// searched within the window where its value can still matter; once the outcomes to
/// come cannot bring the average back inside (`alpha`, `beta`) whatever their values
/// (all lie within ±[`MATE`]), the node is cut off with that bound.
struct Average {
    total: i64,
    /// The sum of count × value over the outcomes added.
    sum: i64,
    /// The count of the outcomes not added yet.
    left: i64,
    alpha: i64,
    beta: i64,
}

impl Average {
    fn new(total: i64, alpha: i32, beta: i32) -> Average {
        Average { total, sum: 0, left: total, alpha: alpha as i64, beta: beta as i64 }
    }

    /// The window for an outcome of weight `count` (child values at or outside it settle
    /// the average outside the node's window), or the node's bound if it is settled.
    fn window(&self, count: i64) -> Result<(i32, i32), i32> {
        let rest = self.left - count;
        let low = (self.alpha * self.total - self.sum - rest * HIGHEST).div_euclid(count);
        let high = -(-(self.beta * self.total - self.sum - rest * LOWEST)).div_euclid(count);
        if low >= HIGHEST {
            return Err(self.alpha as i32);
        }
        if high <= LOWEST {
            return Err(self.beta as i32);
        }
        Ok((low.max(LOWEST - 1) as i32, high.min(HIGHEST + 1) as i32))
    }

    /// Adds the `value` of an outcome of weight `count` searched in `window`; the node's
    /// bound if that settles it.
    fn add(&mut self, count: i64, value: i32, (low, high): (i32, i32)) -> Result<(), i32> {
        if value <= low {
            return Err(self.alpha as i32);
        }
        if value >= high {
            return Err(self.beta as i32);
        }
        self.sum += count * value as i64;
        self.left -= count;
        Ok(())
    }

    /// The average, once every outcome is added.
    fn value(&self) -> i32 {
        (self.sum as f64 / self.total as f64).round() as i32
    }
}

/// Plays the step, capture or end of a chain capture `mv` on `board`: whether it makes
/// progress as the game counts it — a capture, or the end of a chain (`from == to`),
/// which ends a turn that captured.
#[inline]
fn play_counts_progress(board: &mut Board, mv: Move) -> bool {
    board.play(mv).is_some() || mv.is_in_place()
}

/// The face-down squares worth flipping below the root: those next to a face-up piece
/// or on a line with a face-up Cannon (whatever turns up there may capture or be
/// captured at once), and one more that stands for all the quiet ones.
fn flips_worth_searching(board: &Board) -> u32 {
    let hidden: u32 = board.hidden().fold(0, |mask, sq| mask | sq.bit());
    let mut near = 0u32;
    for color in Color::ALL {
        for sq in board.face_up(color) {
            let cannon = board.piece_at(sq).is_some_and(|p| p.kind() == Kind::Cannon);
            for (df, dr) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
                let mut next = sq.offset(df, dr);
                while let Some(other) = next {
                    near |= other.bit();
                    next = if cannon { other.offset(df, dr) } else { None };
                }
            }
        }
    }
    let active = hidden & near;
    let quiet = hidden & !near;
    // The lowest quiet square: `quiet & quiet.wrapping_neg()`.
    active | (quiet & quiet.wrapping_neg())
}

/// The squares next to `sq`.
#[inline]
fn neighbours(sq: Square) -> u32 {
    [(0, 1), (1, 0), (0, -1), (-1, 0)]
        .into_iter()
        .filter_map(|(df, dr)| sq.offset(df, dr))
        .fold(0, |mask, n| mask | n.bit())
}

/// The squares of `color`'s face-up Cannons.
#[inline]
fn cannons(board: &Board, color: Color) -> u32 {
    board.squares_of(Piece::new(color, Kind::Cannon))
}

/// Ordering: the hash move, captures (best victim first), steps, then flips.
fn order(board: &Board, mv: Move, hash_move: Option<Move>) -> i32 {
    if hash_move == Some(mv) {
        return 1 << 20;
    }
    if mv.is_in_place() {
        return 0;
    }
    match (board.piece_at(mv.to), board.piece_at(mv.from)) {
        (Some(victim), Some(attacker)) => 1000 + victim_value(victim.kind()) * 8 - victim_value(attacker.kind()) / 8,
        _ => 100,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// The search counts the plies without progress as the game does, chain captures
    /// included: a capture and the end of a chain make progress, a step does not.
    #[test]
    fn progress_is_counted_as_the_game_counts_it() {
        let mut rng = StdRng::seed_from_u64(3);
        let rules = crate::game::banqi::Rules { chain_captures: true, ..Default::default() };
        let mut moves = Vec::new();
        let mut chain_ends = 0;
        for _ in 0..100 {
            let mut game = Banqi::with_rules(rules);
            while game.counters().plies < 300 && !game.status().is_over() {
                if game.resolve_chance(&mut rng).is_some() {
                    continue;
                }
                game.legal_moves(&mut moves);
                let before = game.counters().since_progress;
                for &mv in moves.iter().filter(|mv| !mv.is_in_place() || game.board().cell(mv.from) != Cell::Hidden) {
                    let mut board = *game.board();
                    let progress = play_counts_progress(&mut board, mv);
                    let mut after = game.clone();
                    after.play(mv);
                    let expected = if progress { 0 } else { before + 1 };
                    assert_eq!(after.counters().since_progress, expected, "{} then {mv}", game.to_text());
                    chain_ends += mv.is_in_place() as u32;
                }
                // Mostly captures, so that chains are frequent.
                let capture = moves.iter().find(|mv| game.board().piece_at(mv.to).is_some() && !mv.is_in_place());
                let mv = match capture {
                    Some(&mv) if rng.random_bool(0.8) => mv,
                    _ => moves[rng.random_range(0..moves.len())],
                };
                game.play(mv);
            }
        }
        assert!(chain_ends > 0, "no chain capture ended");
    }

    /// Star1 never cuts off wrongly: with children that answer as a search does (the
    /// exact value inside their window, a bound beyond it), a cut-off bound is on the
    /// right side of the exact average, and an uncut result is the average.
    #[test]
    fn star1_cuts_only_settled_averages() {
        let mut rng = StdRng::seed_from_u64(1);
        for _ in 0..20_000 {
            let counts: Vec<i64> = (0..rng.random_range(1..6)).map(|_| rng.random_range(1..6)).collect();
            let total: i64 = counts.iter().sum();
            let spread = [100, 2000, MATE][rng.random_range(0..3)];
            let values: Vec<i32> = counts.iter().map(|_| rng.random_range(-spread..=spread)).collect();
            let exact = counts.iter().zip(&values).map(|(&c, &v)| c * v as i64).sum::<i64>() as f64 / total as f64;
            let alpha = rng.random_range(-spread..spread);
            let beta = alpha + rng.random_range(1..=spread);
            let mut average = Average::new(total, alpha, beta);
            let mut result = None;
            for (&count, &value) in counts.iter().zip(&values) {
                let (low, high) = match average.window(count) {
                    Ok(window) => window,
                    Err(bound) => {
                        result = Some(bound);
                        break;
                    }
                };
                let answer = value.clamp(low, high);
                if let Err(bound) = average.add(count, answer, (low, high)) {
                    result = Some(bound);
                    break;
                }
            }
            match result {
                Some(bound) if bound == alpha => assert!(exact <= alpha as f64, "{exact} > alpha {alpha}"),
                Some(bound) => assert!(bound == beta && exact >= beta as f64, "{exact} < beta {beta}"),
                None => assert!((average.value() as f64 - exact).abs() <= 0.5),
            }
        }
    }
}

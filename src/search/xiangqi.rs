//! Alpha-beta for Xiangqi: iterative deepening with aspiration windows over a principal
//! variation search with a transposition table, quiescence over captures (all moves when
//! in check), check extension, null move, late move reductions, and move ordering by hash
//! move, MVV-LVA, killers and history. A search without a depth limit (limited by time,
//! nodes, or nothing) is selective as well: reverse futility, futility and late move
//! pruning, and deeper, logarithmic reductions. A search with a depth limit is not, whatever
//! else limits it: `depth=N` is the same fixed opponent it has always been (the ladders'
//! baselines, exact mates within depth).
//! The inner search copy-makes [`Board`]s and keeps its own path of hashes; a position
//! repeated along the path (or since the last capture of the game) is judged
//! by the rules in force — under the Asian rules a side that checked with every move of
//! the cycle loses, and a cycle without checks is replayed through [`Xiangqi`] to apply
//! the chase rule (each cycle once, then remembered).

use super::deepen::{deepen, Deepening, Progress};
use super::evaluation::{Evaluation, PieceSquares};
use super::ordering::{Memory, Picker, CAPTURE, HASH_MOVE, KILLER, NO_MOVE};
use super::pruning::{self, Reductions};
use super::tt::{decode_move, encode_move, Bound, Table};
use super::xiangqi_eval::material;
use super::{is_mate_value, value_from_tt, value_to_tt, Limits, Line, Report, Score, INFINITY, MATE, MAX_PLY};
use crate::game::xiangqi::{fen, Board, Color, Kind, Move, RepetitionRule, Rules, Xiangqi};
use crate::game::{Game, Status};

/// How many judged repetition cycles are remembered.
const VERDICT_SLOTS: usize = 4096;
/// The first aspiration window's half-width around the last iteration's value.
const ASPIRATION: i32 = 40;
/// Most quiet moves a node remembers having searched, to lower their history on a cutoff.
const QUIETS_REMEMBERED: usize = 32;

/// A position on the path from the last capture to the current node.
#[derive(Clone, Copy, Default)]
struct Frame {
    hash: u64,
    /// Whether the side to move is in check (the move into it gave check).
    in_check: bool,
    /// Plies since the last capture (or null move: no repetition spans one).
    since_capture: u32,
    /// Whether the move into it was a null move.
    null: bool,
}

/// The Xiangqi alpha-beta searcher, valuing positions by `E` (the hand-written tables
/// unless told otherwise). Keep one per game (or per engine): its hash table and
/// move-ordering memory carry over from move to move.
pub struct AlphaBeta<E: Evaluation = PieceSquares> {
    evaluation: E,
    tt: Table,
    memory: Memory,
    reductions: Reductions,
    /// Whether this search prunes selectively (limited by time or nodes, not depth).
    selective: bool,
    /// The static evaluation of the node at each ply of the current line (`NO_EVAL` in check).
    evals: Vec<i32>,
    /// The value of the last finished iteration, the centre of the next one's window.
    last_value: Option<i32>,
    /// Judged repetition cycles: (cycle key, 0 draw / 1 Red wins / 2 Black wins).
    verdicts: Vec<(u64, u8)>,
    progress: Progress<Move>,
    /// The game searched (for judging repetitions by its rules).
    root: Option<Xiangqi>,
    /// The positions since the last capture before the root, the root, then the
    /// current line: the node at `ply` is `path[base + ply]`.
    path: Vec<Frame>,
    base: usize,
    /// The moves between the frames: `moves[i]` leads from `path[i]` to `path[i + 1]`.
    moves: Vec<Move>,
    /// The root position.
    root_board: Board,
    /// The rules of the game searched.
    rules: Rules,
    /// Root moves reported with their lines (MultiPV), and the root moves a further
    /// line's search leaves out (those of the lines before it).
    multi_pv: usize,
    excluded: Vec<Move>,
    /// What `judge_cycle` replayed, for the tests: moves that were not legal where they
    /// were played, and cycles judged below a null move.
    #[cfg(test)]
    replay_check: ReplayCheck,
}

/// The tests' record of `judge_cycle`'s replays.
#[cfg(test)]
#[derive(Clone, Copy, Default, Debug)]
struct ReplayCheck {
    illegal: u32,
    after_null: u32,
    moves: u32,
}

/// The static evaluation of a node in check (which has none).
const NO_EVAL: i32 = -INFINITY;

impl AlphaBeta {
    /// A searcher with the hand-written evaluation and a hash table of about `hash_mb` MiB.
    pub fn new(hash_mb: usize) -> Self {
        AlphaBeta::with_evaluation(PieceSquares, hash_mb)
    }
}

impl<E: Evaluation> AlphaBeta<E> {
    /// A searcher valuing positions by `evaluation`, with a hash table of about `hash_mb` MiB.
    pub fn with_evaluation(evaluation: E, hash_mb: usize) -> Self {
        AlphaBeta {
            evaluation,
            tt: Table::new(hash_mb),
            memory: Memory::new(),
            reductions: Reductions::new(),
            selective: false,
            evals: vec![NO_EVAL; MAX_PLY + 2],
            last_value: None,
            verdicts: vec![(0, 0); VERDICT_SLOTS],
            progress: Progress::new(NO_MOVE),
            root: None,
            path: Vec::new(),
            base: 0,
            moves: Vec::new(),
            root_board: Board::start(),
            rules: Rules::default(),
            multi_pv: 1,
            excluded: Vec::new(),
            #[cfg(test)]
            replay_check: ReplayCheck::default(),
        }
    }

    /// Reports the best `lines` root moves with their lines (UCI's MultiPV; 1: the best
    /// only). Each further line costs a search of its own at every depth.
    pub fn set_multi_pv(&mut self, lines: usize) {
        self.multi_pv = lines.max(1);
    }

    /// The evaluation it searches with.
    pub fn evaluation(&self) -> &E {
        &self.evaluation
    }

    /// Forgets everything learned (hash table, ordering memory), as for a new game.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.memory.clear();
        self.verdicts.fill((0, 0));
    }

    /// Searches `game`'s position within `limits`, calling `on_iteration` after each
    /// finished iteration, and returns the last finished one (with a better root move
    /// from an unfinished one, if it found one). `best` is a legal move whenever the side
    /// to move has one, even when the limits allow no search at all.
    pub fn search(
        &mut self,
        game: &Xiangqi,
        limits: &Limits,
        on_iteration: &mut dyn FnMut(&Report<Move>),
    ) -> Report<Move> {
        self.progress.start(limits);
        self.tt.new_search();
        self.memory.new_search();
        self.last_value = None;
        self.selective = limits.depth.is_none();
        self.prepare_path(game);
        self.root_board = *game.board();
        let root_moves = Picker::legal(&self.root_board);
        match root_moves.moves().first() {
            Some(&fallback) => deepen(self, fallback, on_iteration),
            None => self.progress.report(0, -MATE, None, Vec::new()),
        }
    }

    /// Fills the path with the game's positions since its last capture.
    fn prepare_path(&mut self, game: &Xiangqi) {
        let since_capture = game.plies_since_capture();
        let mut past = game.clone();
        let mut frames = Vec::new();
        let mut moves = Vec::new();
        loop {
            frames.push((past.board().hash(), past.in_check()));
            let Some(mv) = past.undo() else { break };
            if past.board().piece_at(mv.to).is_some() {
                break;
            }
            moves.push(mv);
        }
        frames.reverse();
        moves.reverse();
        let count = frames.len();
        self.path.clear();
        self.path.extend(frames.into_iter().enumerate().map(|(i, (hash, in_check))| Frame {
            hash,
            in_check,
            since_capture: since_capture.saturating_sub((count - 1 - i) as u32),
            null: false,
        }));
        self.base = count - 1;
        self.path.resize(self.base + MAX_PLY + 2, Frame::default());
        self.moves = moves;
        self.moves.resize(self.base + MAX_PLY + 2, NO_MOVE);
        // The verdicts were judged by the rules in force then.
        if game.rules() != self.rules {
            self.verdicts.fill((0, 0));
        }
        self.rules = game.rules();
        self.root = Some(game.clone());
    }

    /// The principal variation search of a node `depth` plies from the horizon.
    fn search_node(
        &mut self,
        board: &Board,
        state: &E::State,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        self.progress.pv.clear(ply);
        let frame = self.path[self.base + ply];
        if ply > 0 {
            if let Some(value) = self.repetition(ply) {
                return value;
            }
            // The no-capture limit draws (unless the side to move is mated), before the
            // table, the horizon or any pruning can give the position another value.
            if frame.since_capture >= self.rules.no_capture_plies && board.has_legal_move() {
                return 0;
            }
            // No line from here beats a win already found nearer the root.
            alpha = alpha.max(-(MATE - ply as i32));
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        if depth <= 0 {
            return self.quiesce(board, state, ply, alpha, beta, frame.in_check);
        }
        if !self.progress.clock.visit() {
            return 0;
        }
        self.progress.reach(ply);
        let side = board.side_to_move();
        if ply >= MAX_PLY - 1 {
            return self.evaluation.value(state, board);
        }
        let pv_node = beta - alpha > 1;
        let key = board.hash();
        let entry = self.tt.probe(key);
        if let Some(entry) = entry {
            let value = value_from_tt(entry.value(), ply);
            if ply > 0 && !pv_node && entry.cuts(value, depth, alpha, beta) {
                return value;
            }
        }
        let in_check = frame.in_check;
        let null_move = !pv_node && ply > 0 && depth >= 3 && !in_check && !frame.null;
        // The static evaluation, read only where pruning or the null move needs it.
        let eval =
            if in_check || !(self.selective || null_move) { NO_EVAL } else { self.evaluation.value(state, board) };
        self.evals[ply] = eval;
        // The side to move stands better than two plies ago: pruning may trust it more.
        let improving = !in_check && ply >= 2 && eval > self.evals[ply - 2];
        let not_mated = |value: i32| !is_mate_value(value);
        // Reverse futility: far enough above beta, near the horizon, a search would
        // confirm the cutoff.
        if self.selective
            && !pv_node
            && ply > 0
            && !in_check
            && depth <= pruning::REVERSE_FUTILITY_DEPTH
            && not_mated(beta)
            && eval - pruning::reverse_futility_margin(depth, improving) >= beta
        {
            return eval;
        }
        // Null move: if passing still leaves the side to move above beta, a real move
        // will too. Not in check, not twice in a row, and not with only advisors,
        // elephants and soldiers left, where passing may be the only good move.
        if null_move && eval >= beta && has_attackers(board, side) {
            let child = board.passed();
            self.path[self.base + ply + 1] =
                Frame { hash: child.hash(), in_check: false, since_capture: 0, null: true };
            // No move leads there: `judge_cycle` never replays this slot.
            self.moves[self.base + ply] = NO_MOVE;
            let reduction = 3 + (depth >= 7) as i32;
            let value = -self.search_node(&child, state, depth - reduction, ply + 1, -beta, -beta + 1);
            if self.progress.clock.aborted {
                return 0;
            }
            if value >= beta {
                // A win proved by passing is not a win in moves.
                return if value >= MATE - MAX_PLY as i32 { beta } else { value };
            }
        }
        let mut picker = Picker::legal(board);
        if picker.moves().is_empty() {
            // Checkmate and stalemate alike lose.
            return -(MATE - ply as i32);
        }
        let hash_move = match (ply, self.progress.previous_best, entry) {
            (0, Some(mv), _) => Some(mv),
            (_, _, Some(entry)) => decode_move(entry.mv).map(|(from, to)| Move::new(from, to)),
            _ => None,
        };
        let memory = &self.memory;
        picker.score(|mv| order(board, mv, hash_move, memory, ply));

        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut searched = 0;
        let mut quiets = [(0usize, NO_MOVE); QUIETS_REMEMBERED];
        let mut quiets_searched = 0;
        while let Some((mv, score)) = picker.next() {
            if ply == 0 && self.excluded.contains(&mv) {
                continue;
            }
            let mut child = *board;
            let piece = board.piece_at(mv.from).expect("a legal move moves a piece");
            let captured = child.play(mv);
            let gives_check = child.in_check(child.side_to_move());
            let quiet = captured.is_none() && !gives_check && score < KILLER;
            let reduction = match (quiet && depth >= 3, self.selective) {
                (true, true) if searched >= 1 => {
                    let r = self.reductions.of(depth, searched) - pv_node as i32 + !improving as i32;
                    r.clamp(0, depth - 2)
                }
                (true, false) if searched >= 3 && !in_check => 1 + (depth >= 6 && searched >= 10) as i32,
                _ => 0,
            };
            // Near the horizon, once a move has saved the node from mate, quiet moves late
            // in the order or too far below alpha to matter are not searched.
            if self.selective && ply > 0 && !in_check && quiet && not_mated(best) && not_mated(alpha) {
                let late = depth <= pruning::LATE_MOVE_DEPTH && searched >= pruning::late_move_count(depth, improving);
                let reduced = depth - 1 - reduction;
                let futile =
                    reduced <= pruning::FUTILITY_DEPTH && eval + pruning::futility_margin(reduced.max(0)) <= alpha;
                if late || futile {
                    continue;
                }
            }
            if depth >= 2 {
                self.tt.prefetch(child.hash());
            }
            let child_state = self.evaluation.after(state, board, mv, &child);
            self.path[self.base + ply + 1] = Frame {
                hash: child.hash(),
                in_check: gives_check,
                since_capture: if captured.is_some() { 0 } else { frame.since_capture + 1 },
                null: false,
            };
            self.moves[self.base + ply] = mv;
            let new_depth = depth - 1 + gives_check as i32;

            let value = if searched == 0 {
                -self.search_node(&child, &child_state, new_depth, ply + 1, -beta, -alpha)
            } else {
                let mut value =
                    -self.search_node(&child, &child_state, new_depth - reduction, ply + 1, -alpha - 1, -alpha);
                if value > alpha && reduction > 0 {
                    value = -self.search_node(&child, &child_state, new_depth, ply + 1, -alpha - 1, -alpha);
                }
                if value > alpha && value < beta {
                    value = -self.search_node(&child, &child_state, new_depth, ply + 1, -beta, -alpha);
                }
                value
            };
            if self.progress.clock.aborted {
                return 0;
            }
            searched += 1;
            let (better, cutoff) = self.progress.take(ply, mv, value, &mut best, &mut alpha, beta);
            if better {
                best_move = Some(mv);
            }
            if cutoff {
                if captured.is_none() {
                    self.memory.cutoff(piece.index(), mv, ply, depth, &quiets[..quiets_searched]);
                }
                break;
            }
            if captured.is_none() && quiets_searched < QUIETS_REMEMBERED {
                quiets[quiets_searched] = (piece.index(), mv);
                quiets_searched += 1;
            }
        }
        let bound = Bound::of(best, original_alpha, beta);
        // A root searched without some of its moves has no value of its own to store.
        if ply > 0 || self.excluded.is_empty() {
            self.tt.store(
                key,
                best_move.map_or(0, |mv| encode_move(mv.from, mv.to)),
                value_to_tt(best, ply),
                depth,
                bound,
            );
        }
        best
    }

    /// Quiescence: captures only (after standing pat), or every move when in check.
    fn quiesce(
        &mut self,
        board: &Board,
        state: &E::State,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        in_check: bool,
    ) -> i32 {
        self.progress.pv.clear(ply);
        if !self.progress.clock.visit() {
            return 0;
        }
        self.progress.reach(ply);
        if ply >= MAX_PLY - 1 {
            return self.evaluation.value(state, board);
        }
        // In check there is no standing pat (and no value read): every evasion is searched.
        let (mut best, mut stand_pat) = (-INFINITY, -INFINITY);
        if !in_check {
            stand_pat = self.evaluation.value(state, board);
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
        }
        let mut picker = if in_check { Picker::legal(board) } else { Picker::captures(board) };
        if in_check {
            if picker.moves().is_empty() {
                return -(MATE - ply as i32);
            }
            let memory = &self.memory;
            picker.score(|mv| order(board, mv, None, memory, ply));
        } else {
            picker.score(|mv| capture_score(board, mv));
        }
        while let Some((mv, _)) = picker.next() {
            let captured = board.piece_at(mv.to);
            // Delta pruning: even winning the piece for nothing would not reach alpha.
            if !in_check && stand_pat + captured.map_or(0, |p| material(p.kind())) + 200 <= alpha {
                continue;
            }
            let mut child = *board;
            child.play(mv);
            let child_state = self.evaluation.after(state, board, mv, &child);
            let gives_check = child.in_check(child.side_to_move());
            let value = -self.quiesce(&child, &child_state, ply + 1, -beta, -alpha, gives_check);
            if self.progress.clock.aborted {
                return 0;
            }
            if self.progress.take(ply, mv, value, &mut best, &mut alpha, beta).1 {
                break;
            }
        }
        best
    }

    /// The value of the node at `ply` if its position occurred before with the same side
    /// to move since the last capture: the result the rules give when the cycle goes on.
    fn repetition(&mut self, ply: usize) -> Option<i32> {
        let n = self.base + ply;
        let frame = self.path[n];
        let earliest = n.saturating_sub(frame.since_capture as usize);
        let k = (earliest..n.saturating_sub(3)).rev().step_by(2).find(|&k| self.path[k].hash == frame.hash)?;
        // Only the same side to move can repeat; the search looks at every other ply.
        debug_assert_eq!((n - k) % 2, 0);
        let root_side = self.root.as_ref()?.board().side_to_move();
        // The side to move now; the opponent made the last move of the cycle.
        let us = if ply.is_multiple_of(2) { root_side } else { root_side.opponent() };
        let winner = match self.rules.repetition {
            RepetitionRule::Draw => None,
            RepetitionRule::RepeaterLoses => Some(us),
            RepetitionRule::Asian => {
                let checked = |by_them: bool| {
                    (k + 1..=n).filter(|j| (n - j) % 2 == (!by_them) as usize).all(|j| self.path[j].in_check)
                };
                match (checked(false), checked(true)) {
                    (true, false) => Some(us.opponent()),
                    (false, true) => Some(us),
                    (true, true) => None,
                    (false, false) => self.judge_cycle(k, n),
                }
            }
        };
        Some(match winner {
            None => 0,
            Some(color) if color == us => MATE - ply as i32,
            Some(_) => -(MATE - ply as i32),
        })
    }

    /// The rules' ruling on the cycle from `path[k]` to `path[n]` (the same position)
    /// played on until the position occurs a third time; remembered per cycle.
    fn judge_cycle(&mut self, k: usize, n: usize) -> Option<Color> {
        let key = (k..=n).fold(0x9E37_79B9_7F4A_7C15u64, |h, j| {
            (h.rotate_left(17) ^ self.path[j].hash).wrapping_mul(0xBF58_476D_1CE4_E5B9)
        }) | 1;
        let slot = (key % VERDICT_SLOTS as u64) as usize;
        let decode_winner = |code: u8| match code {
            1 => Some(Color::Red),
            2 => Some(Color::Black),
            _ => None,
        };
        if self.verdicts[slot].0 == key {
            return decode_winner(self.verdicts[slot].1);
        }
        let mut game = self.game_at(k, n)?;
        let mut status = game.status();
        'replay: for _ in 0..2 {
            for j in k..n {
                if status.is_over() {
                    break 'replay;
                }
                #[cfg(test)]
                self.check_replay(game.board(), self.moves[j]);
                game.play(self.moves[j]);
                status = game.status();
            }
        }
        let winner = match status {
            Status::Over { winner: Some(player), .. } => Some(Color::of_player(player)),
            _ => None,
        };
        self.verdicts[slot] = (key, winner.map_or(0, |c| 1 + c.index() as u8));
        winner
    }

    /// The game at `path[n]` with the cycle from `path[k]` in its history, to judge it:
    /// the root's game played on by the moves since. A null move cannot be played in a
    /// game, so below one (which resets the plies since a capture: the cycle lies after
    /// it) the game starts at `path[k]` instead, rebuilt from the board there.
    fn game_at(&mut self, k: usize, n: usize) -> Option<Xiangqi> {
        let (mut game, from) = if (self.base + 1..=n).any(|j| self.path[j].null) {
            debug_assert!(k > self.base, "a cycle lies after every null move on its line");
            #[cfg(test)]
            {
                self.replay_check.after_null += 1;
            }
            let mut board = self.root_board;
            for j in self.base..k {
                if self.path[j + 1].null {
                    board = board.passed();
                } else {
                    #[cfg(test)]
                    self.check_replay(&board, self.moves[j]);
                    board.play(self.moves[j]);
                }
            }
            debug_assert_eq!(board.hash(), self.path[k].hash);
            let counters = fen::Counters { since_capture: self.path[k].since_capture, move_number: 1 };
            (Xiangqi::from_fen(&fen::write(&board, counters), self.rules).ok()?, k)
        } else {
            (self.root.clone()?, self.base)
        };
        for j in from..n {
            #[cfg(test)]
            self.check_replay(game.board(), self.moves[j]);
            game.play(self.moves[j]);
        }
        // The line replayed is the line searched (no stale move slipped in).
        debug_assert_eq!(game.board().hash(), self.path[n].hash);
        (game.board().hash() == self.path[n].hash).then_some(game)
    }

    /// Counts a move replayed to judge a cycle, and whether it is legal on `board`.
    #[cfg(test)]
    fn check_replay(&mut self, board: &Board, mv: Move) {
        self.replay_check.moves += 1;
        self.replay_check.illegal += !board.is_legal(mv) as u32;
    }
}

impl<E: Evaluation> Deepening for AlphaBeta<E> {
    type Move = Move;

    fn progress(&mut self) -> &mut Progress<Move> {
        &mut self.progress
    }

    /// From depth 5, searches a window around the last iteration's value first, widening
    /// it on the side the value fell outside (at last to no window) until the value lies
    /// within.
    fn iterate(&mut self, depth: u32) -> i32 {
        let board = self.root_board;
        let state = self.evaluation.state(&board);
        // The further lines of MultiPV search without the best move: no window of its value.
        let whole_root = self.excluded.is_empty();
        let centre = self.last_value.filter(|&value| whole_root && depth >= 5 && !is_mate_value(value));
        let mut delta = ASPIRATION;
        let (mut alpha, mut beta) = centre.map_or((-INFINITY, INFINITY), |centre| (centre - delta, centre + delta));
        let value = loop {
            let value = self.search_node(&board, &state, depth as i32, 0, alpha, beta);
            let whole_window = alpha == -INFINITY && beta == INFINITY;
            if self.progress.clock.aborted || whole_window || (value > alpha && value < beta) {
                break value;
            }
            delta *= 2;
            if delta > 8 * ASPIRATION {
                (alpha, beta) = (-INFINITY, INFINITY);
            } else if value <= alpha {
                alpha = value - delta;
            } else {
                beta = value + delta;
            }
        };
        if whole_root && !self.progress.clock.aborted {
            self.last_value = Some(value);
        }
        value
    }

    fn more_lines(&mut self, depth: u32, best: Move) -> Vec<Line<Move>> {
        let mut lines = Vec::new();
        self.excluded = vec![best];
        while lines.len() + 1 < self.multi_pv {
            let value = self.iterate(depth);
            let pv = self.progress.pv.root_line();
            match pv.first() {
                Some(&first) if !self.progress.clock.aborted && value > -INFINITY => self.excluded.push(first),
                _ => break,
            }
            lines.push(Line { score: Score::from_value(value), pv });
        }
        self.excluded.clear();
        lines
    }
}

/// Whether `side` has a chariot, horse or cannon: a piece that can make threats, so that
/// passing is rarely its best move.
fn has_attackers(board: &Board, side: Color) -> bool {
    board
        .occupied_by(side)
        .any(|sq| board.piece_at(sq).is_some_and(|p| matches!(p.kind(), Kind::Rook | Kind::Horse | Kind::Cannon)))
}

/// The ordering score of `mv` on `board`.
#[inline]
fn order(board: &Board, mv: Move, hash_move: Option<Move>, memory: &Memory, ply: usize) -> i32 {
    if hash_move == Some(mv) {
        return HASH_MOVE;
    }
    match board.piece_at(mv.to) {
        Some(_) => capture_score(board, mv),
        None => {
            let piece = board.piece_at(mv.from).expect("a legal move moves a piece");
            memory.quiet_score(piece.index(), mv, ply)
        }
    }
}

/// The ordering score of the capture `mv`: most valuable victim, then least valuable
/// attacker.
#[inline]
fn capture_score(board: &Board, mv: Move) -> i32 {
    let victim = board.piece_at(mv.to).map_or(0, |p| material(p.kind()));
    let attacker = board.piece_at(mv.from).map_or(0, |p| attacker_rank(p.kind()));
    CAPTURE + victim * 8 - attacker
}

/// Cheaper attackers capture first among captures of the same victim.
const fn attacker_rank(kind: Kind) -> i32 {
    match kind {
        Kind::Pawn => 0,
        Kind::Advisor | Kind::Elephant => 1,
        Kind::Horse | Kind::Cannon => 2,
        Kind::Rook => 3,
        Kind::King => 4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    /// Every move `judge_cycle` replays is legal where it is played, in deep searches of
    /// endgames full of repetitions, null moves included.
    #[test]
    fn cycles_are_judged_on_positions_reached_by_legal_moves() {
        let cases = [
            ("2bak4/4a4/4b4/9/9/9/9/4B4/4A4/2RAK1B2 w - - 0 1", 15),
            ("4kab2/4a4/9/9/9/9/9/9/3C5/4K4 w - - 0 1", 15),
            ("3ak4/4a4/4n4/9/9/9/9/9/9/3RK4 w - - 0 1", 13),
            ("3akab2/9/4b4/9/9/9/9/4B4/4A4/2HAK1B2 w - - 0 1", 15),
            ("3k5/4a4/4ba3/9/9/9/9/9/4p4/4K1R2 w - - 0 1", 15),
        ];
        let mut total = ReplayCheck::default();
        for (fen, depth) in cases {
            let game = Xiangqi::from_fen(fen, Rules::default()).unwrap();
            let mut searcher = AlphaBeta::new(16);
            let start = Instant::now();
            searcher.search(&game, &Limits::depth(depth), &mut |_| {});
            let check = searcher.replay_check;
            eprintln!("{fen} depth {depth}: {check:?} in {:?}", start.elapsed());
            assert_eq!(check.illegal, 0, "{fen}: illegal moves replayed: {check:?}");
            total.moves += check.moves;
            total.after_null += check.after_null;
        }
        // The searches did judge cycles, some of them below a null move.
        assert!(total.moves > 0 && total.after_null > 0, "{total:?}");
    }
}

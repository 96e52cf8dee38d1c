//! Alpha-beta for Xiangqi: iterative deepening over a principal variation search with a
//! transposition table, quiescence over captures (all moves when in check), check
//! extension, late move reductions, and move ordering by hash move, MVV-LVA, killers and
//! history. The inner search copy-makes [`Board`]s and keeps its own path of hashes;
//! a position repeated along the path (or since the last capture of the game) is judged
//! by the rules in force — under the Asian rules a side that checked with every move of
//! the cycle loses, and a cycle without checks is replayed through [`Xiangqi`] to apply
//! the chase rule (each cycle once, then remembered).

use super::clock::Clock;
use super::ordering::{Memory, Picker, CAPTURE, HASH_MOVE};
use super::tt::{Bound, Table};
use super::xiangqi_eval::{delta, evaluate, for_side, material};
use super::{value_from_tt, value_to_tt, Limits, Report, Score, MATE, MAX_PLY};
use crate::game::xiangqi::{Board, Color, Kind, Move, RepetitionRule, Rules, Square, Xiangqi};
use crate::game::{Game, Status};

/// Above any value a search can return.
const INFINITY: i32 = MATE + 1;
/// How many judged repetition cycles are remembered.
const VERDICT_SLOTS: usize = 4096;

/// A position on the path from the last capture to the current node.
#[derive(Clone, Copy, Default)]
struct Frame {
    hash: u64,
    /// Whether the side to move is in check (the move into it gave check).
    in_check: bool,
    /// Plies since the last capture.
    since_capture: u32,
}

/// The Xiangqi alpha-beta searcher. Keep one per game (or per engine): its hash table
/// and move-ordering memory carry over from move to move.
pub struct AlphaBeta {
    tt: Table,
    memory: Memory,
    /// Judged repetition cycles: (cycle key, 0 draw / 1 Red wins / 2 Black wins).
    verdicts: Vec<(u64, u8)>,
    clock: Clock,
    seldepth: usize,
    /// The game searched (for judging repetitions by its rules).
    root: Option<Xiangqi>,
    /// The positions since the last capture before the root, the root, then the
    /// current line: the node at `ply` is `path[base + ply]`.
    path: Vec<Frame>,
    base: usize,
    /// The moves between the frames: `moves[i]` leads from `path[i]` to `path[i + 1]`.
    moves: Vec<Move>,
    pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    /// The best root move of the iteration under way, once one is fully searched.
    root_best: Option<(Move, i32)>,
    /// The best root move of the last finished iteration, searched first.
    previous_best: Option<Move>,
    /// The rules of the game searched.
    rules: Rules,
}

/// An unused move slot.
const NULL: Move = Move::new(Square::new(0), Square::new(0));

impl AlphaBeta {
    /// A searcher with a hash table of about `hash_mb` MiB.
    pub fn new(hash_mb: usize) -> Self {
        AlphaBeta {
            tt: Table::new(hash_mb),
            memory: Memory::new(),
            verdicts: vec![(0, 0); VERDICT_SLOTS],
            clock: Clock::start(&Limits::default()),
            seldepth: 0,
            root: None,
            path: Vec::new(),
            base: 0,
            moves: Vec::new(),
            pv: Box::new([[NULL; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            root_best: None,
            previous_best: None,
            rules: Rules::default(),
        }
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
        self.clock = Clock::start(limits);
        self.tt.new_search();
        self.memory.new_search();
        self.prepare_path(game);
        let board = *game.board();
        let red_eval = evaluate(&board);
        let root_moves = Picker::legal(&board);
        let Some(&fallback) = root_moves.moves().first() else {
            let value = -MATE;
            return self.report(0, value, None, Vec::new());
        };

        let mut last: Option<Report<Move>> = None;
        self.previous_best = None;
        self.root_best = None;
        let mut depth = 1;
        while self.clock.another_iteration(depth) {
            self.root_best = None;
            self.seldepth = 0;
            let value = self.search_node(&board, red_eval, depth as i32, 0, -INFINITY, INFINITY);
            if self.clock.aborted {
                break;
            }
            let pv = self.pv[0][..self.pv_len[0]].to_vec();
            let report = self.report(depth, value, pv.first().copied().or(Some(fallback)), pv);
            self.previous_best = report.best;
            on_iteration(&report);
            last = Some(report);
            // A forced result found well within this depth will not change.
            if value.abs() >= MATE - MAX_PLY as i32 && (MATE - value.abs()) + 2 <= depth as i32 {
                break;
            }
            depth += 1;
        }

        match (last, self.root_best) {
            (Some(mut report), Some((mv, value))) if report.best != Some(mv) => {
                // The unfinished iteration found a better move than the last finished one.
                report.best = Some(mv);
                report.pv = vec![mv];
                report.score = Score::from_value(value);
                report.nodes = self.clock.nodes;
                report.elapsed = self.clock.elapsed();
                report
            }
            (Some(mut report), _) => {
                report.nodes = self.clock.nodes;
                report.elapsed = self.clock.elapsed();
                report
            }
            (None, Some((mv, value))) => self.report(0, value, Some(mv), vec![mv]),
            (None, None) => self.report(0, 0, Some(fallback), vec![fallback]),
        }
    }

    fn report(&self, depth: u32, value: i32, best: Option<Move>, pv: Vec<Move>) -> Report<Move> {
        Report {
            depth,
            seldepth: self.seldepth as u32,
            score: Score::from_value(value),
            nodes: self.clock.nodes,
            elapsed: self.clock.elapsed(),
            best,
            pv,
        }
    }

    /// Fills the path with the game's positions since its last capture.
    fn prepare_path(&mut self, game: &Xiangqi) {
        let since_capture: u32 = game.to_text().split_whitespace().nth(4).and_then(|f| f.parse().ok()).unwrap_or(0);
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
        }));
        self.base = count - 1;
        self.path.resize(self.base + MAX_PLY + 2, Frame::default());
        self.moves = moves;
        self.moves.resize(self.base + MAX_PLY + 2, NULL);
        self.rules = game.rules();
        self.root = Some(game.clone());
    }

    /// The principal variation search of a node `depth` plies from the horizon.
    fn search_node(&mut self, board: &Board, red_eval: i32, depth: i32, ply: usize, mut alpha: i32, mut beta: i32) -> i32 {
        self.pv_len[ply] = ply;
        let frame = self.path[self.base + ply];
        if ply > 0 {
            if let Some(value) = self.repetition(ply) {
                return value;
            }
            // No line from here beats a win already found nearer the root.
            alpha = alpha.max(-(MATE - ply as i32));
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        if depth <= 0 {
            return self.quiesce(board, red_eval, ply, alpha, beta, frame.in_check);
        }
        if !self.clock.visit() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let side = board.side_to_move();
        if ply >= MAX_PLY - 1 {
            return for_side(red_eval, side);
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
        let mut picker = Picker::legal(board);
        if picker.moves().is_empty() {
            // Checkmate and stalemate alike lose.
            return -(MATE - ply as i32);
        }
        if ply > 0 && frame.since_capture >= self.rules.no_capture_plies {
            return 0;
        }
        let hash_move = match (ply, self.previous_best, entry) {
            (0, Some(mv), _) => Some(mv),
            (_, _, Some(entry)) => decode(entry.mv),
            _ => None,
        };
        let memory = &self.memory;
        picker.score(|mv| order(board, mv, hash_move, memory, ply));

        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut searched = 0;
        while let Some((mv, score)) = picker.next() {
            let mut child = *board;
            let piece = board.piece_at(mv.from).expect("a legal move moves a piece");
            let captured = child.play(mv);
            let child_eval = red_eval + delta(piece, mv, captured);
            let gives_check = child.in_check(child.side_to_move());
            self.path[self.base + ply + 1] = Frame {
                hash: child.hash(),
                in_check: gives_check,
                since_capture: if captured.is_some() { 0 } else { frame.since_capture + 1 },
            };
            self.moves[self.base + ply] = mv;
            let new_depth = depth - 1 + gives_check as i32;

            let value = if searched == 0 {
                -self.search_node(&child, child_eval, new_depth, ply + 1, -beta, -alpha)
            } else {
                let quiet = captured.is_none() && !gives_check && !frame.in_check && score < super::ordering::KILLER;
                let reduction = if quiet && depth >= 3 && searched >= 3 { 1 + (depth >= 6 && searched >= 10) as i32 } else { 0 };
                let mut value = -self.search_node(&child, child_eval, new_depth - reduction, ply + 1, -alpha - 1, -alpha);
                if value > alpha && reduction > 0 {
                    value = -self.search_node(&child, child_eval, new_depth, ply + 1, -alpha - 1, -alpha);
                }
                if value > alpha && value < beta {
                    value = -self.search_node(&child, child_eval, new_depth, ply + 1, -beta, -alpha);
                }
                value
            };
            if self.clock.aborted {
                return 0;
            }
            searched += 1;
            if value > best {
                best = value;
                best_move = Some(mv);
                if value > alpha {
                    alpha = value;
                    self.update_pv(ply, mv);
                    if ply == 0 {
                        self.root_best = Some((mv, value));
                    }
                    if value >= beta {
                        if captured.is_none() {
                            self.memory.cutoff(piece.index(), mv, ply, depth);
                        }
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(key, best_move.map_or(0, encode), value_to_tt(best, ply), depth, bound);
        best
    }

    /// Quiescence: captures only (after standing pat), or every move when in check.
    fn quiesce(&mut self, board: &Board, red_eval: i32, ply: usize, mut alpha: i32, beta: i32, in_check: bool) -> i32 {
        self.pv_len[ply] = ply;
        if !self.clock.visit() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let side = board.side_to_move();
        let stand_pat = for_side(red_eval, side);
        if ply >= MAX_PLY - 1 {
            return stand_pat;
        }
        let mut best = -INFINITY;
        if !in_check {
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
            let piece = board.piece_at(mv.from).expect("a legal move moves a piece");
            child.play(mv);
            let child_eval = red_eval + delta(piece, mv, captured);
            let gives_check = child.in_check(child.side_to_move());
            let value = -self.quiesce(&child, child_eval, ply + 1, -beta, -alpha, gives_check);
            if self.clock.aborted {
                return 0;
            }
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    self.update_pv(ply, mv);
                    if value >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][ply] = mv;
        head[ply][ply + 1..child_len].copy_from_slice(&tail[0][ply + 1..child_len]);
        self.pv_len[ply] = child_len;
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
        let us = if ply % 2 == 0 { root_side } else { root_side.opponent() };
        let winner = match self.rules.repetition {
            RepetitionRule::Draw => None,
            RepetitionRule::RepeaterLoses => Some(us),
            RepetitionRule::Asian => {
                let checked = |by_them: bool| (k + 1..=n).filter(|j| (n - j) % 2 == (!by_them) as usize).all(|j| self.path[j].in_check);
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
        let key = (k..=n).fold(0x9E37_79B9_7F4A_7C15u64, |h, j| (h.rotate_left(17) ^ self.path[j].hash).wrapping_mul(0xBF58_476D_1CE4_E5B9)) | 1;
        let slot = (key % VERDICT_SLOTS as u64) as usize;
        let decode_winner = |code: u8| match code {
            1 => Some(Color::Red),
            2 => Some(Color::Black),
            _ => None,
        };
        if self.verdicts[slot].0 == key {
            return decode_winner(self.verdicts[slot].1);
        }
        let mut game = self.root.clone()?;
        for &mv in &self.moves[self.base..n] {
            game.play(mv);
        }
        let mut status = game.status();
        'replay: for _ in 0..2 {
            for j in k..n {
                if status.is_over() {
                    break 'replay;
                }
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

/// A move as the transposition table keeps it (never 0).
#[inline]
fn encode(mv: Move) -> u16 {
    0x8000 | (mv.from.index() as u16) << 7 | mv.to.index() as u16
}

#[inline]
fn decode(code: u16) -> Option<Move> {
    if code & 0x8000 == 0 {
        return None;
    }
    let from = Square::from_index((code >> 7 & 0x7F) as usize)?;
    let to = Square::from_index((code & 0x7F) as usize)?;
    Some(Move::new(from, to))
}

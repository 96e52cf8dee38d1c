//! Iterative deepening, shared by both searches: runs iterations of growing depth while
//! the limits allow, reports each finished one, and picks the move to play — from the
//! last finished iteration, or a better one the unfinished iteration already proved, or
//! failing both (no time for even depth 1) the first legal move.

use super::clock::Clock;
use super::{is_mate_value, Limits, Line, Report, Score, MATE, MAX_PLY};

/// The triangular table of principal variations: row `ply` holds the best line found
/// from the node at `ply`.
pub(crate) struct Pv<M> {
    lines: Box<[[M; MAX_PLY + 1]; MAX_PLY + 1]>,
    len: [usize; MAX_PLY + 1],
}

impl<M: Copy> Pv<M> {
    /// An empty table; `filler` fills the unused slots.
    pub fn new(filler: M) -> Pv<M> {
        Pv { lines: Box::new([[filler; MAX_PLY + 1]; MAX_PLY + 1]), len: [0; MAX_PLY + 1] }
    }

    /// Empties the line of the node at `ply` (on entering it).
    #[inline]
    pub fn clear(&mut self, ply: usize) {
        self.len[ply] = ply;
    }

    /// The node at `ply` found `mv` best: its line is `mv` then the child's line.
    #[inline]
    pub fn update(&mut self, ply: usize, mv: M) {
        let child_len = self.len[ply + 1].max(ply + 1);
        let (head, tail) = self.lines.split_at_mut(ply + 1);
        head[ply][ply] = mv;
        head[ply][ply + 1..child_len].copy_from_slice(&tail[0][ply + 1..child_len]);
        self.len[ply] = child_len;
    }

    /// The root's line.
    pub fn root_line(&self) -> Vec<M> {
        self.lines[0][..self.len[0]].to_vec()
    }
}

/// What one search keeps beside its tree: the limits, the deepest ply, the lines, and
/// the best root moves.
pub(crate) struct Progress<M> {
    /// The limits and the node count.
    pub clock: Clock,
    /// The deepest ply reached in this iteration.
    pub seldepth: usize,
    /// The principal variations.
    pub pv: Pv<M>,
    /// The best root move of the iteration under way, once one is fully searched.
    pub root_best: Option<(M, i32)>,
    /// The best root move of the last finished iteration, searched first.
    pub previous_best: Option<M>,
}

impl<M: Copy + PartialEq> Progress<M> {
    /// Nothing searched yet; `filler` fills unused move slots.
    pub fn new(filler: M) -> Progress<M> {
        Progress {
            clock: Clock::start(&Limits::default()),
            seldepth: 0,
            pv: Pv::new(filler),
            root_best: None,
            previous_best: None,
        }
    }

    /// Starts a search under `limits`.
    pub fn start(&mut self, limits: &Limits) {
        self.clock = Clock::start(limits);
        self.seldepth = 0;
        self.root_best = None;
        self.previous_best = None;
    }

    /// Notes that the search reached `ply`.
    #[inline]
    pub fn reach(&mut self, ply: usize) {
        self.seldepth = self.seldepth.max(ply);
    }

    /// The node at `ply` found `mv` best with `value` (raising alpha).
    #[inline]
    pub fn improve(&mut self, ply: usize, mv: M, value: i32) {
        self.pv.update(ply, mv);
        if ply == 0 {
            self.root_best = Some((mv, value));
        }
    }

    /// Takes in the `value` of `mv` at the node at `ply`, whose best value so far is
    /// `best` and window (`alpha`, `beta`): raises them and records the line where the
    /// move does better. Returns whether the move is the new best, and whether it cuts
    /// the node off.
    #[inline]
    pub fn take(&mut self, ply: usize, mv: M, value: i32, best: &mut i32, alpha: &mut i32, beta: i32) -> (bool, bool) {
        if value <= *best {
            return (false, false);
        }
        *best = value;
        if value > *alpha {
            *alpha = value;
            self.improve(ply, mv, value);
        }
        (true, value >= beta)
    }

    /// A report of what is known now.
    pub fn report(&self, depth: u32, value: i32, best: Option<M>, pv: Vec<M>) -> Report<M> {
        let mut report = Report {
            depth,
            seldepth: self.seldepth as u32,
            score: Score::from_value(value),
            nodes: 0,
            searched: 0,
            elapsed: self.clock.elapsed(),
            best,
            pv,
            more: Vec::new(),
        };
        self.stamp(&mut report);
        report
    }

    /// Sets `report`'s node counts and time to the clock's now.
    pub fn stamp(&self, report: &mut Report<M>) {
        (report.nodes, report.searched, report.elapsed) = (self.clock.nodes, self.clock.nodes, self.clock.elapsed());
    }
}

/// A search that iterative deepening can drive.
pub(crate) trait Deepening {
    /// The game's move.
    type Move: Copy + PartialEq;

    /// The search's progress.
    fn progress(&mut self) -> &mut Progress<Self::Move>;

    /// Searches the root `depth` plies deep and returns its value (meaningless if the
    /// clock aborted the iteration).
    fn iterate(&mut self, depth: u32) -> i32;

    /// After an iteration that found `best`: the lines of the next best root moves at
    /// the same depth, as many as MultiPV asks beyond the first (none by default), as far
    /// as the clock allows.
    fn more_lines(&mut self, depth: u32, best: Self::Move) -> Vec<Line<Self::Move>> {
        let _ = (depth, best);
        Vec::new()
    }
}

/// Runs `search` by iterative deepening (its progress already started), calling
/// `on_iteration` after each finished iteration; `fallback` is a legal move, played if
/// no iteration gets far enough to choose one.
pub(crate) fn deepen<S: Deepening>(
    search: &mut S,
    fallback: S::Move,
    on_iteration: &mut dyn FnMut(&Report<S::Move>),
) -> Report<S::Move> {
    let mut last: Option<Report<S::Move>> = None;
    let mut depth = 1;
    while search.progress().clock.another_iteration(depth) {
        search.progress().root_best = None;
        search.progress().seldepth = 0;
        let value = search.iterate(depth);
        let progress = search.progress();
        if progress.clock.aborted {
            break;
        }
        progress.clock.first_iteration_done = true;
        let pv = progress.pv.root_line();
        let mut report = progress.report(depth, value, pv.first().copied().or(Some(fallback)), pv);
        if let Some(best) = report.best {
            let more = search.more_lines(depth, best);
            if search.progress().clock.aborted && last.is_some() {
                // The clock cut this depth's further lines short: the last depth's full set
                // of lines stands (a MultiPV report never has fewer lines than asked for
                // while an earlier depth had them all).
                break;
            }
            if !more.is_empty() {
                // Each line's search has a score of its own: rank them all by it.
                let first = Line { score: report.score, pv: std::mem::take(&mut report.pv) };
                report.rank_lines(std::iter::once(first).chain(more).collect());
            }
        }
        let progress = search.progress();
        progress.stamp(&mut report);
        // The iteration finished: what the further lines searched is no unfinished better move.
        progress.root_best = None;
        progress.previous_best = report.best;
        on_iteration(&report);
        last = Some(report);
        // A forced result found well within this depth will not change.
        if is_mate_value(value) && (MATE - value.abs()) + 2 <= depth as i32 {
            break;
        }
        depth += 1;
    }

    let progress = search.progress();
    let mut report = match (last, progress.root_best) {
        (Some(mut report), Some((mv, value))) if report.best != Some(mv) && report.more.is_empty() => {
            // The unfinished iteration found a better move than the last finished one.
            // (With MultiPV the lines of the last finished iteration stand together.)
            report.best = Some(mv);
            report.pv = vec![mv];
            report.score = Score::from_value(value);
            report
        }
        (Some(report), _) => report,
        (None, Some((mv, value))) => progress.report(0, value, Some(mv), vec![mv]),
        (None, None) => progress.report(0, 0, Some(fallback), vec![fallback]),
    };
    progress.stamp(&mut report);
    report
}

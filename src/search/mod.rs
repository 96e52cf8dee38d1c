//! The classical baselines: alpha-beta for Xiangqi ([`xiangqi::AlphaBeta`]) and
//! expectiminimax for Banqi ([`banqi::Expectimax`]). Both search a position under
//! [`Limits`] by iterative deepening, report each finished iteration as a [`Report`], and
//! always return a legal move when the position has one, however small the limit.
//!
//! They depend on the rules cores only: the Xiangqi search copy-makes
//! [`crate::game::xiangqi::Board`] in its inner loop and asks the full rules
//! ([`crate::game::xiangqi::Xiangqi`]) only to judge a repetition; the Banqi search
//! averages exactly over the outcomes of every flip.

pub mod banqi;
pub mod evaluation;
pub mod xiangqi;

mod banqi_eval;
mod clock;
mod deepen;
mod ordering;
mod pruning;
mod tt;
mod xiangqi_eval;

use std::cmp::Ordering;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// When to stop. Every limit given applies (the first one reached stops the search); with
/// none at all the search runs until `stop` is set or it reaches its maximum depth.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// The deepest iteration to search (plies, before extensions). 0 counts as 1.
    pub depth: Option<u32>,
    /// The most nodes to visit, quiescence nodes included.
    pub nodes: Option<u64>,
    /// The longest to think.
    pub movetime: Option<Duration>,
    /// Set from another thread to stop the search as soon as possible.
    pub stop: Option<Arc<AtomicBool>>,
    /// Think until `stop` is set (`go infinite`): no limit of the player's own applies.
    pub infinite: bool,
}

impl Limits {
    /// A limit by depth only.
    pub fn depth(depth: u32) -> Limits {
        Limits { depth: Some(depth), ..Limits::default() }
    }

    /// A limit by nodes only.
    pub fn nodes(nodes: u64) -> Limits {
        Limits { nodes: Some(nodes), ..Limits::default() }
    }

    /// A limit by time only.
    pub fn movetime(movetime: Duration) -> Limits {
        Limits { movetime: Some(movetime), ..Limits::default() }
    }

    /// Whether any limit is set (depth, nodes, time or `infinite`; the stop flag is not one).
    pub fn sets_any(&self) -> bool {
        self.depth.is_some() || self.nodes.is_some() || self.movetime.is_some() || self.infinite
    }
}

/// A score from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// An advantage in centipawns (a Xiangqi soldier on its own half is worth about 30, a
    /// chariot about 600; Banqi scores use the same scale).
    Cp(i32),
    /// Moves (not plies) to the end of the game: > 0 the side to move wins, < 0 it loses,
    /// as UCI prints it. Wins by rule (perpetual check or chase, a Banqi side left
    /// without pieces) count as mates.
    Mate(i32),
}

impl Score {
    /// The game won (`plies` > 0) or lost (`plies` < 0) for the side to move, ending
    /// `|plies|` plies from now: a mate in moves, counted as engines count them.
    pub(crate) fn mate_within(plies: i32) -> Score {
        Score::Mate(plies.signum() * ((plies.abs() + 1) / 2))
    }

    /// The score of an internal value: values within [`MAX_PLY`] of [`MATE`] are wins or
    /// losses at that distance in plies.
    pub(crate) fn from_value(value: i32) -> Score {
        if is_mate_value(value) {
            let plies = MATE - value.abs();
            Score::mate_within(if value > 0 { plies } else { -plies })
        } else {
            Score::Cp(value)
        }
    }

    /// The key scores sort by: a mate the side to move gives (the sooner the better),
    /// then centipawns, then a mate it suffers (the later the better).
    fn rank(self) -> (i8, i32) {
        match self {
            Score::Mate(moves) if moves > 0 => (1, -moves),
            Score::Cp(cp) => (0, cp),
            Score::Mate(moves) => (-1, -moves),
        }
    }
}

/// Scores order by how good they are for the side to move: the greater, the better.
impl Ord for Score {
    fn cmp(&self, other: &Score) -> Ordering {
        self.rank().cmp(&other.rank())
    }
}

impl PartialOrd for Score {
    fn partial_cmp(&self, other: &Score) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// One finished iteration (also the final result).
#[derive(Clone, Debug)]
pub struct Report<M> {
    /// The depth of the iteration (plies, before extensions).
    pub depth: u32,
    /// The deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// The value of the position.
    pub score: Score,
    /// Nodes the answer rests on: those searched so far in this search, quiescence nodes
    /// included (MCTS: the visits of the root's moves, those of a kept tree included).
    pub nodes: u64,
    /// Of `nodes`, those this search visited itself (all of them but for a kept MCTS
    /// tree): the search's speed is reckoned from these.
    pub searched: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// The move to play: `None` only when the side to move has no legal move.
    pub best: Option<M>,
    /// The principal variation, starting with `best`.
    pub pv: Vec<M>,
    /// With MultiPV, the lines of the next best root moves, best first (lines 2, 3, …).
    pub more: Vec<Line<M>>,
}

impl<M: Copy> Report<M> {
    /// Makes `lines` (one per root move) the report's MultiPV lines, ranked best first by
    /// score (lines of equal score keep their order): the first becomes the principal
    /// variation, giving the report its score and `best`; the others become `more`.
    pub fn rank_lines(&mut self, mut lines: Vec<Line<M>>) {
        lines.sort_by_key(|line| std::cmp::Reverse(line.score));
        let mut lines = lines.into_iter();
        if let Some(first) = lines.next() {
            self.best = first.pv.first().copied().or(self.best);
            (self.score, self.pv) = (first.score, first.pv);
        }
        self.more = lines.collect();
    }
}

/// One root move's line and its score: a MultiPV line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line<M> {
    /// The line's value from the side to move's view.
    pub score: Score,
    /// The moves, starting with the root move.
    pub pv: Vec<M>,
}

/// The value of a win at the root; a win `n` plies away is worth `MATE - n`.
pub(crate) const MATE: i32 = 30_000;
/// Above any value a search can return.
pub(crate) const INFINITY: i32 = MATE + 1;
/// Plies the search may go below the root, extensions and quiescence included.
pub(crate) const MAX_PLY: usize = 128;
/// The deepest iteration when no depth limit is given.
pub(crate) const MAX_DEPTH: u32 = 100;

/// Whether `value` is a win or a loss in moves (within [`MAX_PLY`] of [`MATE`]), not an
/// evaluation.
#[inline]
pub(crate) fn is_mate_value(value: i32) -> bool {
    value.abs() >= MATE - MAX_PLY as i32
}

/// A value `ply` plies below the root converted for the transposition table, which
/// stores wins and losses as distances from the node, not from the root.
#[inline]
pub(crate) fn value_to_tt(value: i32, ply: usize) -> i32 {
    if value >= MATE - MAX_PLY as i32 {
        value + ply as i32
    } else if value <= -(MATE - MAX_PLY as i32) {
        value - ply as i32
    } else {
        value
    }
}

/// The inverse of [`value_to_tt`].
#[inline]
pub(crate) fn value_from_tt(value: i32, ply: usize) -> i32 {
    if value >= MATE - MAX_PLY as i32 {
        value - ply as i32
    } else if value <= -(MATE - MAX_PLY as i32) {
        value + ply as i32
    } else {
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_count_moves() {
        assert_eq!(Score::from_value(MATE - 1), Score::Mate(1));
        assert_eq!(Score::from_value(MATE - 3), Score::Mate(2));
        assert_eq!(Score::from_value(-(MATE - 2)), Score::Mate(-1));
        assert_eq!(Score::from_value(-(MATE - 4)), Score::Mate(-2));
        assert_eq!(Score::from_value(123), Score::Cp(123));
    }

    #[test]
    fn scores_order_by_what_they_are_worth_to_the_side_to_move() {
        // Worst to best: mated now, mated in 1, mated in 4, a chariot down, level, a
        // soldier up, mate in 3, mate in 1.
        let worst_to_best = [
            Score::Mate(0),
            Score::Mate(-1),
            Score::Mate(-4),
            Score::Cp(-600),
            Score::Cp(0),
            Score::Cp(30),
            Score::Mate(3),
            Score::Mate(1),
        ];
        for pair in worst_to_best.windows(2) {
            assert!(pair[0] < pair[1], "{:?} < {:?}", pair[0], pair[1]);
        }
    }

    #[test]
    fn lines_are_ranked_best_first() {
        let line = |cp: i32, pv: &[u8]| Line { score: Score::Cp(cp), pv: pv.to_vec() };
        let mut report = Report {
            depth: 9,
            seldepth: 12,
            score: Score::Cp(22),
            nodes: 1,
            searched: 1,
            elapsed: std::time::Duration::ZERO,
            best: Some(1),
            pv: vec![1, 10],
            more: Vec::new(),
        };
        // Lines of +22, +8, +11; a fourth that tops them all, and one that ties with the
        // second (it stays after it).
        report.rank_lines(vec![line(22, &[1, 10]), line(8, &[2]), line(11, &[3, 30]), line(40, &[4]), line(8, &[5])]);
        assert_eq!((report.best, report.score, report.pv.clone()), (Some(4), Score::Cp(40), vec![4]));
        assert_eq!(report.more, vec![line(22, &[1, 10]), line(11, &[3, 30]), line(8, &[2]), line(8, &[5])]);
    }

    #[test]
    fn tt_values_round_trip() {
        for value in [0, 500, -700, MATE - 5, -(MATE - 9)] {
            assert_eq!(value_from_tt(value_to_tt(value, 7), 7), value);
        }
        assert_eq!(value_to_tt(MATE - 5, 3), MATE - 2);
    }
}

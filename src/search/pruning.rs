//! How far the Xiangqi search trusts its static evaluation near the horizon, and how much
//! it reduces late moves: the margins of reverse futility and futility pruning, the move
//! count beyond which quiet moves are not searched (late move pruning), and the
//! logarithmic late move reductions — all of it only in a search without a depth limit.
//! Values are in the evaluation's units (a chariot is about 600).

/// The deepest node whose static evaluation may stand in for its search when it beats
/// beta by the margin (reverse futility pruning).
pub(crate) const REVERSE_FUTILITY_DEPTH: i32 = 7;

/// How far above beta the static evaluation of a node `depth` plies from the horizon must
/// be for it to be trusted without a search; less when the side to move is improving.
#[inline]
pub(crate) fn reverse_futility_margin(depth: i32, improving: bool) -> i32 {
    75 * (depth - improving as i32).max(1)
}

/// The deepest (reduced) depth at which a quiet move is skipped when the static
/// evaluation plus [`futility_margin`] stays below alpha.
pub(crate) const FUTILITY_DEPTH: i32 = 6;

/// What a quiet move searched to `depth` could plausibly gain over the static evaluation.
#[inline]
pub(crate) fn futility_margin(depth: i32) -> i32 {
    90 + 80 * depth
}

/// How many moves a node `depth` plies from the horizon searches before it skips the
/// remaining quiet moves (late move pruning), for depths up to [`LATE_MOVE_DEPTH`].
#[inline]
pub(crate) fn late_move_count(depth: i32, improving: bool) -> usize {
    let count = 3 + depth * depth;
    (if improving { count } else { count / 2 }) as usize
}

/// The deepest node where late move pruning applies.
pub(crate) const LATE_MOVE_DEPTH: i32 = 6;

/// Late move reductions, by depth and by the number of moves searched before.
pub(crate) struct Reductions {
    table: Box<[[u8; 64]; 64]>,
}

impl Reductions {
    /// The table `0.75 + ln(depth) × ln(moves) / 2.25`, rounded down.
    pub fn new() -> Reductions {
        let mut table = Box::new([[0u8; 64]; 64]);
        for (depth, row) in table.iter_mut().enumerate().skip(1) {
            for (moves, slot) in row.iter_mut().enumerate().skip(1) {
                *slot = (0.75 + (depth as f64).ln() * (moves as f64).ln() / 2.25) as u8;
            }
        }
        Reductions { table }
    }

    /// The reduction of the quiet move after `searched` others at `depth`.
    #[inline]
    pub fn of(&self, depth: i32, searched: usize) -> i32 {
        self.table[(depth as usize).min(63)][searched.min(63)] as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn late_moves_deep_in_the_tree_are_reduced_more() {
        let r = Reductions::new();
        assert_eq!(r.of(1, 1), 0);
        assert_eq!(r.of(3, 2), 1, "ln 3 × ln 2 / 2.25 = 0.34, + 0.75");
        assert_eq!(r.of(10, 30), 4, "ln 10 × ln 30 / 2.25 = 3.48, + 0.75");
        assert!(r.of(20, 40) > r.of(8, 40) && r.of(8, 40) > r.of(8, 4));
    }
}

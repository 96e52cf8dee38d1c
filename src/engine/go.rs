//! The `go` command and the time manager that turns a clock into a time for this move.

use std::time::Duration;

use crate::search::Limits;

/// The deepest `go depth` taken (a deeper one is cut to it).
const DEEPEST: u32 = 127;
/// Moves assumed left in the game when the clock does not say.
const DEFAULT_MOVES_TO_GO: u64 = 30;
/// Kept back on every move for the protocol and the operating system (a tenth of a
/// shorter `movetime`).
const SAFETY_MS: u64 = 50;

/// The words `go` understands (UCI and UCCI).
const KEYWORDS: [&str; 17] = [
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "time",
    "opptime",
    "increment",
    "oppincrement",
    "movestogo",
    "mate",
    "infinite",
    "ponder",
    "draw",
    "searchmoves",
];

/// A parsed `go` command.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct GoCommand {
    /// Search depth.
    pub depth: Option<u64>,
    /// Node (or simulation) budget.
    pub nodes: Option<u64>,
    /// Fixed time for this move.
    pub movetime: Option<u64>,
    /// Red's and Black's clocks (UCI `wtime`/`btime`; UCCI `time`/`opptime` are ours/theirs).
    pub clock: [Option<u64>; 2],
    /// Increments per move.
    pub increment: [Option<u64>; 2],
    /// Moves until the next time control.
    pub moves_to_go: Option<u64>,
    /// Think until `stop`.
    pub infinite: bool,
}

/// Reads the words after `go`. `red_to_move` maps UCCI's own/opponent clocks to
/// colours; UCCI's clock values are multiplied by `ucci_time_unit_ms` (1, or 1000 while
/// the GUI has not asked for `usemillisec`). Whatever cannot be used is skipped with a
/// warning, never refused: every `go` must end in a `bestmove`.
pub fn parse_go(words: &[&str], red_to_move: bool, ucci_time_unit_ms: u64) -> (GoCommand, Vec<String>) {
    let mut go = GoCommand::default();
    let mut warnings = Vec::new();
    let (us, them) = if red_to_move { (0, 1) } else { (1, 0) };
    let mut i = 0;
    while i < words.len() {
        let word = words[i];
        let value = words.get(i + 1).and_then(|text| text.parse::<u64>().ok());
        let mut set = |slot: &mut Option<u64>, scale: u64| match value {
            Some(number) => {
                *slot = Some(number.saturating_mul(scale));
                i += 1;
            }
            None => match words.get(i + 1).filter(|next| !KEYWORDS.contains(next)) {
                Some(next) => {
                    warnings.push(format!("`{word}` needs a number, not `{next}`"));
                    i += 1;
                }
                None => warnings.push(format!("`{word}` needs a number")),
            },
        };
        match word {
            "depth" => set(&mut go.depth, 1),
            "nodes" => set(&mut go.nodes, 1),
            "movetime" => set(&mut go.movetime, 1),
            "wtime" => set(&mut go.clock[0], 1),
            "btime" => set(&mut go.clock[1], 1),
            "winc" => set(&mut go.increment[0], 1),
            "binc" => set(&mut go.increment[1], 1),
            "time" => set(&mut go.clock[us], ucci_time_unit_ms),
            "opptime" => set(&mut go.clock[them], ucci_time_unit_ms),
            "increment" => set(&mut go.increment[us], ucci_time_unit_ms),
            "oppincrement" => set(&mut go.increment[them], ucci_time_unit_ms),
            "movestogo" => set(&mut go.moves_to_go, 1),
            "mate" => {
                // A mate in N moves lies within 2N − 1 plies.
                let mut moves = None;
                set(&mut moves, 1);
                go.depth = moves.map(|n| n.saturating_mul(2).saturating_sub(1).max(1));
            }
            // Pondering (we offer no Ponder option, but some GUIs ponder anyway): think
            // until `ponderhit` or `stop`.
            "infinite" | "ponder" => go.infinite = true,
            // UCCI's draw offer changes nothing here.
            "draw" => {}
            "searchmoves" => {
                while words.get(i + 1).is_some_and(|w| w.len() >= 4 && w.as_bytes()[1].is_ascii_digit()) {
                    i += 1;
                }
                warnings.push("`searchmoves` is not supported: searching every move".to_string());
            }
            other => warnings.push(format!("unknown `go` parameter `{other}` ignored")),
        }
        i += 1;
    }
    let go = GoCommand { depth: go.depth.map(|d| d.min(DEEPEST as u64)), ..go };
    (go, warnings)
}

impl GoCommand {
    /// The search limits for the side to move (`red` says which clock is ours).
    pub fn limits(&self, red_to_move: bool) -> Limits {
        let us = if red_to_move { 0 } else { 1 };
        let mut limits = Limits { depth: self.depth.map(|d| d as u32), nodes: self.nodes, ..Limits::default() };
        limits.movetime = match (self.movetime, self.clock[us]) {
            (Some(ms), _) => Some(Duration::from_millis(ms.saturating_sub(SAFETY_MS.min(ms / 10)).max(1))),
            (None, Some(left)) => {
                let increment = self.increment[us].unwrap_or(0);
                let moves = self.moves_to_go.unwrap_or(DEFAULT_MOVES_TO_GO).max(1);
                let share = left / moves + increment * 3 / 4;
                Some(Duration::from_millis(share.min(left.saturating_sub(SAFETY_MS) / 2).max(1)))
            }
            (None, None) => None,
        };
        if self.infinite {
            limits = Limits { infinite: true, ..Limits::default() };
        }
        limits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(words: &str) -> Limits {
        let words: Vec<&str> = words.split_whitespace().collect();
        parse_go(&words, true, 1).0.limits(true)
    }

    #[test]
    fn infinite_sets_no_limit_and_a_depth_stays_a_depth() {
        let infinite = limits("infinite");
        assert!(infinite.infinite && infinite.depth.is_none() && infinite.nodes.is_none());
        assert!(infinite.movetime.is_none());
        let deep = limits("depth 500");
        assert!(!deep.infinite);
        assert_eq!(deep.depth, Some(DEEPEST));
    }

    #[test]
    fn movetime_keeps_back_a_tenth_of_a_short_time_and_at_most_the_safety() {
        assert_eq!(limits("movetime 100").movetime, Some(Duration::from_millis(90)));
        assert_eq!(limits("movetime 1000").movetime, Some(Duration::from_millis(950)));
        assert_eq!(limits("movetime 5").movetime, Some(Duration::from_millis(5)));
        assert_eq!(limits("movetime 0").movetime, Some(Duration::from_millis(1)));
    }
}

//! The `go` command and the time manager that turns a clock into a time for this move.

use std::time::Duration;

use crate::search::Limits;

/// Depth given to "think until stopped".
const INFINITE_DEPTH: u32 = 127;
/// Moves assumed left in the game when the clock does not say.
const DEFAULT_MOVES_TO_GO: u64 = 30;
/// Kept back on every move for the protocol and the operating system.
const SAFETY_MS: u64 = 50;

/// A parsed `go` command.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct GoCommand {
    /// Search depth.
    pub depth: Option<u32>,
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

/// Reads the words after `go`. `red_to_move` maps UCCI's own/opponent clocks to colours.
pub fn parse_go(words: &[&str], red_to_move: bool) -> Result<GoCommand, String> {
    let mut go = GoCommand::default();
    let (us, them) = if red_to_move { (0, 1) } else { (1, 0) };
    let mut i = 0;
    while i < words.len() {
        let word = words[i];
        let mut value = || -> Result<u64, String> {
            i += 1;
            let text = words.get(i).ok_or_else(|| format!("`{word}` needs a number"))?;
            text.parse().map_err(|_| format!("`{word}` needs a number, not `{text}`"))
        };
        match word {
            "depth" => go.depth = Some(value()?.min(INFINITE_DEPTH as u64) as u32),
            "nodes" => go.nodes = Some(value()?),
            "movetime" => go.movetime = Some(value()?),
            "wtime" => go.clock[0] = Some(value()?),
            "btime" => go.clock[1] = Some(value()?),
            "winc" => go.increment[0] = Some(value()?),
            "binc" => go.increment[1] = Some(value()?),
            "time" => go.clock[us] = Some(value()?),
            "opptime" => go.clock[them] = Some(value()?),
            "increment" => go.increment[us] = Some(value()?),
            "oppincrement" => go.increment[them] = Some(value()?),
            "movestogo" => go.moves_to_go = Some(value()?),
            "infinite" => go.infinite = true,
            // UCCI's pondering and draw-offer flags change nothing here.
            "ponder" | "draw" => {}
            other => return Err(format!("unknown `go` parameter `{other}`")),
        }
        i += 1;
    }
    Ok(go)
}

impl GoCommand {
    /// The search limits for the side to move (`red` says which clock is ours).
    pub fn limits(&self, red_to_move: bool) -> Limits {
        let us = if red_to_move { 0 } else { 1 };
        let mut limits = Limits { depth: self.depth, nodes: self.nodes, ..Limits::default() };
        limits.movetime = match (self.movetime, self.clock[us]) {
            (Some(ms), _) => Some(Duration::from_millis(ms)),
            (None, Some(left)) => {
                let increment = self.increment[us].unwrap_or(0);
                let moves = self.moves_to_go.unwrap_or(DEFAULT_MOVES_TO_GO).max(1);
                let share = left / moves + increment * 3 / 4;
                Some(Duration::from_millis(share.min(left.saturating_sub(SAFETY_MS) / 2).max(1)))
            }
            (None, None) => None,
        };
        if self.infinite {
            limits = Limits { depth: Some(INFINITE_DEPTH), ..Limits::default() };
        }
        limits
    }
}

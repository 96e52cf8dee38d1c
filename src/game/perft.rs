//! Perft: the number of move sequences of a given length, the standard check of a move
//! generator. A move that leads to a chance point counts once per possible outcome.

use super::Game;

/// The number of leaves `depth` plies below `game`.
pub fn perft<G: Game>(game: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves.iter().map(|&mv| children(game, mv).iter().map(|child| child.perft(depth - 1)).sum::<u64>()).sum()
}

/// Perft split by first move: each legal move's text with its leaf count, sorted by text.
pub fn divide<G: Game>(game: &G, depth: u32) -> Vec<(String, u64)> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut counts: Vec<(String, u64)> = moves
        .iter()
        .map(|&mv| {
            let count = children(game, mv).iter().map(|child| child.perft(depth.saturating_sub(1))).sum();
            (mv.to_string(), count)
        })
        .collect();
    counts.sort();
    counts
}

/// The states `mv` leads to: one, or one per outcome when it reaches a chance point.
fn children<G: Game>(game: &G, mv: G::Move) -> Vec<G> {
    let mut next = game.clone();
    next.play(mv);
    if !next.is_chance() {
        return vec![next];
    }
    let mut outcomes = Vec::new();
    next.chance_outcomes(&mut outcomes);
    outcomes
        .iter()
        .map(|&(outcome, _)| {
            let mut child = next.clone();
            child.apply_outcome(outcome);
            child
        })
        .collect()
}

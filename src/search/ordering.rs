//! Move ordering: scores for each move (hash move, captures by MVV-LVA, killers,
//! history), and a picker that hands out the best remaining move, so that a node cut off
//! after its first move never sorts the rest.

use super::MAX_PLY;
use crate::game::xiangqi::{Board, Move, MoveList, Square};

/// A move no piece makes (from a square to itself): the filler of unused move slots.
pub(crate) const NO_MOVE: Move = Move::new(Square::new(0), Square::new(0));

/// The hash move's score: before everything.
pub(crate) const HASH_MOVE: i32 = 1 << 30;
/// Captures come next, best victim first, then cheapest attacker.
pub(crate) const CAPTURE: i32 = 1 << 24;
/// Then the two killers of the ply.
pub(crate) const KILLER: i32 = 1 << 22;
/// History scores stay within ± this, so killers come first.
const HISTORY_MAX: i32 = 1 << 20;

/// Moves of one node with their ordering scores, handed out best first.
pub(crate) struct Picker {
    moves: [Move; 128],
    scores: [i32; 128],
    len: usize,
    next: usize,
}

impl Picker {
    /// The legal moves of `board`, not yet scored.
    #[inline]
    pub fn legal(board: &Board) -> Picker {
        let mut list = MoveList::new();
        board.legal_moves(&mut list);
        Picker::of(&list)
    }

    /// The legal captures of `board`, not yet scored.
    #[inline]
    pub fn captures(board: &Board) -> Picker {
        let mut list = MoveList::new();
        board.legal_captures(&mut list);
        Picker::of(&list)
    }

    #[inline]
    fn of(list: &MoveList) -> Picker {
        let mut moves = [NO_MOVE; 128];
        moves[..list.len()].copy_from_slice(list);
        Picker { moves, scores: [0; 128], len: list.len(), next: 0 }
    }

    /// The moves, in the order handed out so far then the rest.
    #[inline]
    pub fn moves(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// Gives each move its score.
    #[inline]
    pub fn score(&mut self, mut score: impl FnMut(Move) -> i32) {
        for (slot, &mv) in self.scores.iter_mut().zip(&self.moves[..self.len]) {
            *slot = score(mv);
        }
    }

    /// The best move not handed out yet, with its score.
    #[inline]
    pub fn next(&mut self) -> Option<(Move, i32)> {
        let i = self.next;
        let len = self.len;
        if i >= len {
            return None;
        }
        // The first of the highest scores, found without a branch: each score with its
        // index below it (the lower index the higher key), the largest key taken.
        let key = |j: usize| i64::from(self.scores[j]) << 8 | (255 - j) as i64;
        let best = 255 - ((i..len).map(key).max().expect("a move is left") & 0xFF) as usize;
        self.scores.swap(i, best);
        self.moves.swap(i, best);
        self.next = i + 1;
        Some((self.moves[i], self.scores[i]))
    }
}

/// Quiet moves that caused cutoffs, by moving piece and destination (history heuristic),
/// and per ply (killers).
pub(crate) struct Memory {
    history: Box<[[i32; 90]; 14]>,
    killers: Box<[[Option<Move>; 2]; MAX_PLY + 1]>,
}

impl Memory {
    /// Empty tables.
    pub fn new() -> Memory {
        Memory { history: Box::new([[0; 90]; 14]), killers: Box::new([[None; 2]; MAX_PLY + 1]) }
    }

    /// Forgets the killers and ages the history, for a new search.
    pub fn new_search(&mut self) {
        for row in self.history.iter_mut() {
            for value in row.iter_mut() {
                *value /= 8;
            }
        }
        self.killers.fill([None; 2]);
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.history.iter_mut().for_each(|row| row.fill(0));
        self.killers.fill([None; 2]);
    }

    /// The ordering score of the quiet `mv` of the piece with index `piece` at `ply`.
    #[inline]
    pub fn quiet_score(&self, piece: usize, mv: Move, ply: usize) -> i32 {
        let killers = &self.killers[ply];
        if killers[0] == Some(mv) {
            KILLER + 1
        } else if killers[1] == Some(mv) {
            KILLER
        } else {
            self.history[piece][mv.to.index()]
        }
    }

    /// Records that the quiet `mv` (of the piece with index `piece`) cut off at `ply`
    /// searched to `depth`, after the quiet moves `failed` (piece index, move) did not.
    #[inline]
    pub fn cutoff(&mut self, piece: usize, mv: Move, ply: usize, depth: i32, failed: &[(usize, Move)]) {
        let killers = &mut self.killers[ply];
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
        let bonus = depth * depth;
        for &(piece, mv) in failed {
            let slot = &mut self.history[piece][mv.to.index()];
            *slot = (*slot - bonus).max(-HISTORY_MAX);
        }
        let slot = &mut self.history[piece][mv.to.index()];
        *slot += bonus;
        if *slot >= HISTORY_MAX {
            for row in self.history.iter_mut() {
                for value in row.iter_mut() {
                    *value /= 2;
                }
            }
        }
    }
}

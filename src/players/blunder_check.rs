//! The blunder check (`blunder_check=D` in a `net` spec): the move a tree search chose,
//! put through a short alpha-beta search before it is played.
//!
//! A net searched by MCTS for a few hundred simulations plays the position well and the
//! tactics badly: it leaves a piece where a four-ply search takes it. The check searches
//! the root `D` plies deep with the classical Xiangqi searcher ([`AlphaBeta`]), then
//! scores the search's candidates, its choice first, each `D − 1` plies deep after the
//! move. The first candidate within [`MARGIN`] centipawns of the check's own best (or
//! that mates as the best does) is played; when none of the first [`CANDIDATES`] is,
//! the check's own best move is. The net still picks among the moves that do not lose
//! material; the check only vetoes.

use crate::game::xiangqi::{Move, Xiangqi};
use crate::game::{Game, Status};
use crate::search::xiangqi::AlphaBeta;
use crate::search::{Limits, Score};

/// How far below the check's best a candidate may score, in centipawns (a Xiangqi soldier
/// on its own half is worth about 30, an advisor about 120): enough for the net's own
/// judgement of the position, too little for a piece.
pub const MARGIN: i32 = 100;
/// How many of the search's candidates are scored before the check plays its own move.
pub const CANDIDATES: usize = 4;
/// The check's hash table, in MiB.
const HASH_MB: usize = 16;

/// Something that vets the move a search chose: given the candidates, the search's
/// choice first and the others in the search's order, it returns the move to play.
pub trait MoveCheck<G: Game>: Send {
    /// The move to play in `game` out of `candidates` (not empty), or one of its own.
    fn vet(&mut self, game: &G, candidates: &[G::Move]) -> G::Move;

    /// Forgets what it learned in the game before.
    fn new_game(&mut self);
}

/// The Xiangqi blunder check: an alpha-beta search `depth` plies deep.
pub struct BlunderCheck {
    depth: u32,
    searcher: AlphaBeta,
}

impl BlunderCheck {
    /// A check searching `depth` plies deep (1 or more).
    pub fn new(depth: u32) -> BlunderCheck {
        BlunderCheck { depth: depth.max(1), searcher: AlphaBeta::new(HASH_MB) }
    }

    /// The score of playing `mv` in `game`, from its mover's view, searched `depth − 1`
    /// plies deep after the move.
    fn score_after(&mut self, game: &Xiangqi, mv: Move) -> Score {
        let mut next = game.clone();
        next.play(mv);
        match next.status() {
            Status::Over { winner: None, .. } => Score::Cp(0),
            Status::Over { winner: Some(winner), .. } => Score::Mate(if winner == game.to_move() { 1 } else { -1 }),
            Status::Ongoing => {
                let limits = Limits::depth((self.depth - 1).max(1));
                match self.searcher.search(&next, &limits, &mut |_| {}).score {
                    Score::Cp(cp) => Score::Cp(-cp),
                    Score::Mate(moves) => Score::Mate(-moves),
                }
            }
        }
    }
}

/// Whether a move scoring `score` may be played where the best move scores `best`.
fn acceptable(score: Score, best: Score) -> bool {
    match best {
        Score::Cp(cp) => score >= Score::Cp(cp - MARGIN),
        // A mate on the board is not given away; a mate suffered leaves nothing to vet.
        Score::Mate(moves) if moves > 0 => matches!(score, Score::Mate(m) if m > 0),
        Score::Mate(_) => true,
    }
}

impl MoveCheck<Xiangqi> for BlunderCheck {
    fn vet(&mut self, game: &Xiangqi, candidates: &[Move]) -> Move {
        let root = self.searcher.search(game, &Limits::depth(self.depth), &mut |_| {});
        let Some(own) = root.best else { return candidates[0] };
        for &mv in candidates.iter().take(CANDIDATES) {
            if mv == own || acceptable(self.score_after(game, mv), root.score) {
                return mv;
            }
        }
        own
    }

    fn new_game(&mut self) {
        self.searcher.clear();
    }
}

/// A [`MoveCheck`] for `G`, when the game has one: Xiangqi's is [`BlunderCheck`].
pub trait Checkable: Game {
    /// The check `blunder_check=depth` asks for, or why the game has none.
    fn blunder_check(depth: u32) -> Result<Box<dyn MoveCheck<Self>>, String>;
}

impl Checkable for Xiangqi {
    fn blunder_check(depth: u32) -> Result<Box<dyn MoveCheck<Self>>, String> {
        Ok(Box::new(BlunderCheck::new(depth)))
    }
}

impl Checkable for crate::game::banqi::Banqi {
    fn blunder_check(_: u32) -> Result<Box<dyn MoveCheck<Self>>, String> {
        Err("`blunder_check` is for Xiangqi only".to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::xiangqi::Rules;

    fn position(fen: &str) -> Xiangqi {
        Xiangqi::from_fen(fen, Rules::default()).unwrap()
    }

    #[test]
    fn a_move_that_hangs_a_chariot_is_passed_over_for_the_next_candidate() {
        // Red's chariot on a4, Black's on b9: a4-b4 walks onto the b-file, where b9 takes
        // it for nothing; a4-a5 stays out of reach.
        let game = position("1r1k5/9/9/9/9/R8/9/9/9/5K3 w - - 0 1");
        let (hangs, safe) = (game.parse_move("a4b4").unwrap(), game.parse_move("a4a5").unwrap());
        let mut check = BlunderCheck::new(2);
        assert_eq!(check.vet(&game, &[hangs, safe]), safe);
        // A safe choice is played as the search chose it, whatever the check prefers.
        assert_eq!(check.vet(&game, &[safe, hangs]), safe);
    }

    #[test]
    fn a_mate_on_the_board_is_played_when_no_candidate_gives_it() {
        // The chariot on a8 holds the king on rank 9, and h0-h9 mates.
        let game = position("3k5/R8/9/9/9/9/9/9/9/4K2R1 w - - 0 1");
        let quiet = game.parse_move("a8a7").unwrap();
        let mut check = BlunderCheck::new(2);
        assert_eq!(check.vet(&game, &[quiet]), game.parse_move("h0h9").unwrap());
    }
}

//! A Banqi game: the board, a flip awaiting its outcome, the counters, the positions
//! since the last flip or capture (for repetition), and the rules that end the game.

use rand::Rng;

use super::text::{self, Counters};
use super::{perft, zobrist, Board, Cell, Color, Move, MoveList, Piece, Pool, Rules, Square};
use crate::game::{EndReason, Game, GameError, Player, Status};

/// A Banqi game from a start state, under a set of rules.
///
/// A flip is played in two steps: [`Game::play`] of the flip leaves a chance point
/// ([`Game::is_chance`]), whose outcomes ([`Game::chance_outcomes`]) are the pieces the
/// pool holds, each with probability `count / total`; [`Game::apply_outcome`] reveals
/// one (a search chooses it; play and self-play draw it with [`Banqi::sample_outcome`]).
#[derive(Clone, Debug)]
pub struct Banqi {
    board: Board,
    rules: Rules,
    /// The square of a flip awaiting its outcome.
    pending: Option<Square>,
    counters: Counters,
    start_plies: u32,
    /// Hashes of the positions since the last flip or capture, the current one last.
    seen: Vec<u64>,
    /// Whether the current position has occurred three times.
    repeated: bool,
}

impl Banqi {
    /// A game from state text (or `startpos`) under `rules`. In the chain-capture
    /// variant the text may carry a sixth field, the square of a chain in progress.
    pub fn from_state(text: &str, rules: Rules) -> Result<Banqi, GameError> {
        let (board, counters) = text::parse(text, rules.chain_captures)
            .map_err(|why| GameError::InvalidPosition { text: text.trim().to_string(), why })?;
        Ok(Banqi {
            board,
            rules,
            pending: None,
            counters,
            start_plies: counters.plies,
            seen: vec![board.hash()],
            repeated: false,
        })
    }

    /// A game from the start under `rules`.
    pub fn with_rules(rules: Rules) -> Banqi {
        Banqi::from_state(text::START, rules).expect("the start is valid")
    }

    /// The current board (before the pending flip, at a chance point).
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The rules in force.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The hidden pool: the public counts of the face-down pieces.
    pub fn pool(&self) -> Pool {
        self.board.pool()
    }

    /// The colour `player` plays; `None` before the first flip.
    pub fn color_of(&self, player: Player) -> Option<Color> {
        self.board.color_of(player)
    }

    /// Plies since the last flip or capture, and plies played since the game's start.
    pub fn counters(&self) -> Counters {
        self.counters
    }

    /// How many times the current position occurred earlier since the last flip or
    /// capture: 0, 1, or 2 once a repetition has ended the game.
    pub fn repetitions(&self) -> usize {
        let hash = self.board.hash();
        self.seen.iter().filter(|&&seen| seen == hash).count().saturating_sub(1)
    }

    /// At a chance point, draws the piece the flip reveals: piece `p` with probability
    /// `count(p) / total` of the pool. `None` at a decision point. Pass a seeded RNG for
    /// reproducible self-play; a search should average over `chance_outcomes` instead.
    pub fn sample_outcome<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Piece> {
        self.pending.and_then(|_| self.board.pool().sample(rng))
    }

    /// At a chance point, draws the outcome with `rng` and applies it, returning it.
    pub fn resolve_chance<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Option<Piece> {
        let piece = self.sample_outcome(rng)?;
        self.apply_outcome(piece);
        Some(piece)
    }

    /// Ends a turn: counts the ply and records the position for repetition.
    fn end_ply(&mut self, progress: bool) {
        self.counters.plies = self.counters.plies.saturating_add(1);
        if !progress {
            self.counters.since_progress = self.counters.since_progress.saturating_add(1);
        }
        self.record();
    }

    /// Records the current position and whether it has now occurred three times.
    fn record(&mut self) {
        let hash = self.board.hash();
        self.seen.push(hash);
        self.repeated = self.seen.iter().filter(|&&seen| seen == hash).count() >= 3;
    }

    /// Forgets the positions before a flip or capture: they cannot recur.
    fn progress(&mut self) {
        self.counters.since_progress = 0;
        self.seen.clear();
    }
}

impl Game for Banqi {
    type Move = Move;
    type Outcome = Piece;

    const NAME: &'static str = "banqi";

    fn start() -> Self {
        Banqi::with_rules(Rules::default())
    }

    fn from_text(text: &str) -> Result<Self, GameError> {
        Banqi::from_state(text, Rules::default())
    }

    /// The state text; at a chance point, that of the position before the flip.
    fn to_text(&self) -> String {
        text::write(&self.board, self.counters)
    }

    fn parse_move(&self, text: &str) -> Result<Move, GameError> {
        let mv = Move::parse(text).ok_or_else(|| GameError::MalformedMove(text.to_string()))?;
        if self.pending.is_none() && self.board.is_legal(mv) {
            Ok(mv)
        } else {
            Err(GameError::IllegalMove { mv: text.to_string(), position: self.to_text() })
        }
    }

    fn to_move(&self) -> Player {
        self.board.to_move()
    }

    fn red_player(&self) -> Option<Player> {
        [Player::First, Player::Second].into_iter().find(|&p| self.color_of(p) == Some(Color::Red))
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.pending.is_none() {
            let mut list = MoveList::new();
            self.board.legal_moves(&mut list);
            out.extend_from_slice(&list);
        }
    }

    fn play(&mut self, mv: Move) {
        debug_assert!(self.pending.is_none(), "a flip awaits its outcome");
        if mv.is_in_place() && self.board.cell(mv.from) == Cell::Hidden {
            self.pending = Some(mv.from);
            return;
        }
        let captured = self.board.play(mv).is_some();
        if captured {
            self.progress();
        }
        if self.board.chain_square().is_some() {
            // The capturing piece may go on: the turn is not over.
            self.record();
        } else {
            // Ending a chain (`from == to`) ends a turn that captured.
            self.end_ply(captured || mv.is_in_place());
        }
    }

    fn is_chance(&self) -> bool {
        self.pending.is_some()
    }

    fn chance_outcomes(&self, out: &mut Vec<(Piece, f32)>) {
        out.clear();
        if self.pending.is_some() {
            let pool = self.board.pool();
            let total = pool.total() as f32;
            out.extend(pool.outcomes().map(|(piece, count)| (piece, count as f32 / total)));
        }
    }

    fn apply_outcome(&mut self, piece: Piece) {
        let sq = self.pending.take().expect("apply_outcome needs a chance point");
        assert!(self.board.pool().count(piece) > 0, "`{}` is not in the hidden pool", piece.letter());
        self.board.flip(sq, piece);
        self.progress();
        self.end_ply(true);
    }

    fn status(&self) -> Status {
        if let Some(loser) = self.board.player_without_pieces() {
            return Status::Over { winner: Some(loser.opponent()), reason: EndReason::NoPieces };
        }
        if self.pending.is_some() {
            return Status::Ongoing;
        }
        if self.board.count_legal_moves() == 0 {
            return Status::Over { winner: Some(self.to_move().opponent()), reason: EndReason::Stalemate };
        }
        if self.repeated {
            // The turn has passed: the player to move did not make the repetition.
            let winner = self.rules.repeater_loses.then(|| self.to_move());
            return Status::Over { winner, reason: EndReason::Repetition };
        }
        if self.counters.since_progress >= self.rules.no_progress_plies {
            return Status::Over { winner: None, reason: EndReason::NoCapture };
        }
        Status::Ongoing
    }

    fn hash(&self) -> u64 {
        self.board.hash() ^ self.pending.map_or(0, zobrist::pending_key)
    }

    fn plies_played(&self) -> usize {
        self.counters.plies.saturating_sub(self.start_plies) as usize
    }

    /// Fast perft on the board; at a chance point, the sum over the pending flip's outcomes.
    fn perft(&self, depth: u32) -> u64 {
        match self.pending {
            None => perft::perft(&self.board, depth),
            Some(sq) => self
                .board
                .pool()
                .outcomes()
                .map(|(piece, _)| {
                    let mut child = self.board;
                    child.flip(sq, piece);
                    perft::perft(&child, depth)
                })
                .sum(),
        }
    }
}

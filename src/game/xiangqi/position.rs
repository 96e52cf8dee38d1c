//! A Xiangqi game: the board, the moves that led to it, and the rules that need that
//! history to end the game.

use std::convert::Infallible;

use super::fen::{self, Counters};
use super::ply::Ply;
use super::{perft, repetition, Board, Color, Move, MoveList, Rules};
use crate::game::{EndReason, Game, GameError, Player, Status};

/// A Xiangqi game from a start position, under a set of rules.
#[derive(Clone, Debug)]
pub struct Xiangqi {
    board: Board,
    rules: Rules,
    start_counters: Counters,
    since_capture: u32,
    history: Vec<Ply>,
    /// Index in `history` of the first ply after the last capture.
    window_start: usize,
    /// The ruling of a repetition or of the no-capture limit, once one applies.
    verdict: Option<Status>,
}

impl Xiangqi {
    /// A game from `fen` (or `startpos`) under `rules`.
    pub fn from_fen(text: &str, rules: Rules) -> Result<Xiangqi, GameError> {
        let (board, counters) =
            fen::parse(text).map_err(|why| GameError::InvalidPosition { text: text.trim().to_string(), why })?;
        let mut game = Xiangqi {
            board,
            rules,
            start_counters: counters,
            since_capture: counters.since_capture,
            history: Vec::new(),
            window_start: 0,
            verdict: None,
        };
        game.refresh_verdict();
        Ok(game)
    }

    /// The current board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The rules in force.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The FEN of the position the game started from (before any move played here).
    pub fn start_fen(&self) -> String {
        let start = self.history.first().map_or(&self.board, |ply| &ply.before);
        fen::write(start, self.start_counters)
    }

    /// The moves played so far.
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.history.iter().map(|ply| ply.mv)
    }

    /// Plies played in a row without a capture (the no-capture counter).
    pub fn plies_since_capture(&self) -> u32 {
        self.since_capture
    }

    /// How many times the current position occurred earlier (positions count only since
    /// the last capture): 0, 1, or 2 once a repetition has ended the game.
    pub fn repetitions(&self) -> usize {
        let hash = self.board.hash();
        self.history[self.window_start..].iter().filter(|ply| ply.before.hash() == hash).count()
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.board.in_check(self.board.side_to_move())
    }

    /// Takes back the last move, if any.
    pub fn undo(&mut self) -> Option<Move> {
        let ply = self.history.pop()?;
        self.board = ply.before;
        self.since_capture = ply.since_capture;
        self.window_start = self.history.iter().rposition(|ply| ply.captured).map_or(0, |i| i + 1);
        self.refresh_verdict();
        Some(ply.mv)
    }

    /// Rules on a repetition just completed, or else on the no-capture limit.
    fn refresh_verdict(&mut self) {
        let no_capture = (self.since_capture >= self.rules.no_capture_plies)
            .then_some(Status::Over { winner: None, reason: EndReason::NoCapture });
        self.verdict =
            repetition::verdict(&self.history[self.window_start..], &self.board, self.rules.repetition).or(no_capture);
    }

    /// The counters a FEN of the current position carries.
    fn counters(&self) -> Counters {
        let black_moves = self.history.iter().filter(|ply| ply.before.side_to_move() == Color::Black).count();
        Counters {
            since_capture: self.since_capture,
            move_number: self.start_counters.move_number + black_moves as u32,
        }
    }
}

impl Game for Xiangqi {
    type Move = Move;
    type Outcome = Infallible;

    const NAME: &'static str = "xiangqi";

    fn start() -> Self {
        Xiangqi::from_fen(fen::START, Rules::default()).expect("the start FEN is valid")
    }

    fn from_text(text: &str) -> Result<Self, GameError> {
        Xiangqi::from_fen(text, Rules::default())
    }

    fn to_text(&self) -> String {
        fen::write(&self.board, self.counters())
    }

    fn parse_move(&self, text: &str) -> Result<Move, GameError> {
        let mv = Move::parse(text, false).ok_or_else(|| GameError::MalformedMove(text.to_string()))?;
        if self.board.is_legal(mv) {
            Ok(mv)
        } else {
            Err(GameError::IllegalMove { mv: text.to_string(), position: self.to_text() })
        }
    }

    fn to_move(&self) -> Player {
        self.board.side_to_move().player()
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        let mut list = MoveList::new();
        self.board.legal_moves(&mut list);
        out.clear();
        out.extend_from_slice(&list);
    }

    fn play(&mut self, mv: Move) {
        let before = self.board;
        let captured = self.board.play(mv).is_some();
        let gives_check = self.in_check();
        self.history.push(Ply { before, mv, gives_check, captured, since_capture: self.since_capture });
        if captured {
            self.since_capture = 0;
            self.window_start = self.history.len();
        } else {
            self.since_capture += 1;
        }
        self.refresh_verdict();
    }

    fn apply_outcome(&mut self, outcome: Infallible) {
        match outcome {}
    }

    fn status(&self) -> Status {
        if !self.board.has_legal_move() {
            let reason = if self.in_check() { EndReason::Checkmate } else { EndReason::Stalemate };
            return Status::Over { winner: Some(self.to_move().opponent()), reason };
        }
        self.verdict.unwrap_or(Status::Ongoing)
    }

    fn winning_move(&self, moves: &[Move]) -> Option<usize> {
        moves.iter().position(|&mv| {
            let mut after = self.board;
            after.play(mv);
            !after.has_legal_move()
        })
    }

    fn hash(&self) -> u64 {
        self.board.hash()
    }

    fn plies_played(&self) -> usize {
        self.history.len()
    }

    fn perft(&self, depth: u32) -> u64 {
        perft::perft(&self.board, depth)
    }
}

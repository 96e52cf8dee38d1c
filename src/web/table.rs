//! The game on a room's table, whatever the game: moves checked by the rules core, chance
//! outcomes drawn and recorded, the position as the protocol shows it, and an engine's
//! move. [`Table`] is the object-safe face the rooms use; [`WebGame`] adds to each game what
//! only the web shows (its cells, the general in check).

use std::collections::BTreeMap;
use std::convert::Infallible;

use rand::rngs::StdRng;

use super::protocol::MoveNames;
use crate::game::banqi::{self, Banqi, Piece};
use crate::game::xiangqi::{Notation, Xiangqi};
use crate::game::{sample_outcome, Game, GameError, Player as Seat, RepetitionWarning, Status};
use crate::play::View;
use crate::players::{Playable, PlayerSpec};
use crate::search::Limits;

/// What the web shows of a game beyond the [`Game`] trait.
pub trait WebGame: View {
    /// The cells top rank first, files left to right: `""` empty, a FEN letter, `X` hidden.
    fn cells(&self) -> Vec<String>;
    /// The square of the side to move's general when it is in check.
    fn check(&self) -> Option<String>;
    /// The colour name (`red`, `black`) `seat` plays, once known.
    fn color_of(&self, seat: Seat) -> Option<String>;
    /// Reads a chance outcome as recorded after a move (`R` in `b3b3:R`).
    fn parse_outcome(text: &str) -> Option<Self::Outcome>;
    /// `mv`, a legal move here, as players read it; `None` where the game has only its
    /// move texts.
    fn names(&self, mv: Self::Move) -> Option<MoveNames>;
}

impl WebGame for Xiangqi {
    fn cells(&self) -> Vec<String> {
        let squares = self.board().squares();
        (0..10)
            .rev()
            .flat_map(|rank| (0..9).map(move |file| rank * 9 + file))
            .map(|index| squares[index].map_or(String::new(), |piece| piece.letter().to_string()))
            .collect()
    }

    fn check(&self) -> Option<String> {
        let board = self.board();
        self.in_check().then(|| board.king(board.side_to_move()).to_string())
    }

    fn color_of(&self, seat: Seat) -> Option<String> {
        Some(if seat == Seat::First { "red" } else { "black" }.to_string())
    }

    fn parse_outcome(_: &str) -> Option<Infallible> {
        None
    }

    fn names(&self, mv: Self::Move) -> Option<MoveNames> {
        let board = self.board();
        Some(MoveNames::new(board.move_text(mv, Notation::Wxf), board.move_text(mv, Notation::Chinese)))
    }
}

impl WebGame for Banqi {
    fn cells(&self) -> Vec<String> {
        (0..banqi::Square::RANKS as i32)
            .rev()
            .flat_map(|rank| (0..banqi::Square::FILES as i32).map(move |file| (file, rank)))
            .filter_map(|(file, rank)| banqi::Square::from_coords(file, rank))
            .map(|sq| match self.board().cell(sq) {
                banqi::Cell::Empty => String::new(),
                banqi::Cell::Hidden => "X".to_string(),
                banqi::Cell::Piece(piece) => piece.letter().to_string(),
            })
            .collect()
    }

    fn check(&self) -> Option<String> {
        None
    }

    fn color_of(&self, seat: Seat) -> Option<String> {
        Banqi::color_of(self, seat).map(|color| if color == banqi::Color::Red { "red" } else { "black" }.to_string())
    }

    fn parse_outcome(text: &str) -> Option<Piece> {
        let mut letters = text.chars();
        match (letters.next(), letters.next()) {
            (Some(letter), None) => Piece::from_letter(letter),
            _ => None,
        }
    }

    fn names(&self, _: Self::Move) -> Option<MoveNames> {
        None
    }
}

/// The position as the `state` frame shows it.
#[derive(Clone, Debug)]
pub struct Snapshot {
    /// The position's text.
    pub fen: String,
    /// The cells (see [`WebGame::cells`]).
    pub board: Vec<String>,
    /// The seat to move.
    pub to_move: Seat,
    /// The legal moves (empty when the rules have ended the game).
    pub legal: Vec<String>,
    /// The legal moves as players read them (see [`WebGame::names`]; empty for Banqi).
    pub legal_names: Vec<MoveNames>,
    /// The legal moves that let a repetition end the game against their player, each with
    /// its warning ([`RepetitionWarning`]).
    pub repetition_warnings: BTreeMap<String, String>,
    /// The general in check.
    pub check: Option<String>,
    /// The colour of each seat (first, second), once known.
    pub colors: [Option<String>; 2],
}

/// A game in progress, with its start and moves as recorded, whatever the game.
pub trait Table: Send + Sync {
    /// `xiangqi` or `banqi`.
    fn name(&self) -> &'static str;
    /// The start position's text.
    fn start(&self) -> String;
    /// The moves as recorded: move text, then `:` and each chance outcome (`b3b3:R`).
    fn moves(&self) -> &[String];
    /// The moves as players read them (see [`WebGame::names`]; empty for Banqi).
    fn move_names(&self) -> &[MoveNames];
    /// Checks `text` as the next move and draws its chance outcomes with `rng`: the
    /// move as it is to be recorded, or why it cannot be played. Changes nothing.
    fn prepare(&self, text: &str, rng: &mut StdRng) -> Result<String, String>;
    /// Plays a recorded move (from [`Table::prepare`] or the database).
    fn apply(&mut self, recorded: &str) -> Result<(), String>;
    /// Whether `text` is a legal move now.
    fn is_legal(&self, text: &str) -> bool;
    /// The seat to move.
    fn to_move(&self) -> Seat;
    /// The rules' verdict.
    fn status(&self) -> Status;
    /// The position as the protocol shows it (with every legal move's names and
    /// repetition warning: for the state frame, not for the seat to move alone).
    fn snapshot(&self) -> Snapshot;
    /// The player (Red, or in Banqi whoever the first flip made Red) scored first.
    fn red_seat(&self) -> Seat;
    /// A seat's name in words: `Red`, `First (black)`.
    fn seat_name(&self, seat: Seat) -> String;
    /// A copy, for an engine to think on away from the room.
    fn boxed_clone(&self) -> Box<dyn Table>;
    /// The move the player `spec` describes chooses here, checked to be legal. Blocks.
    fn think(&self, spec: &PlayerSpec, seed: u64) -> Result<String, String>;
}

/// Builds an empty table for `game` from `start` (`None`: the usual start).
pub fn new_table(game: &str, start: Option<&str>) -> Result<Box<dyn Table>, String> {
    let start = start.unwrap_or("startpos");
    match game {
        "xiangqi" => Ok(Box::new(GameTable::new(Xiangqi::from_text(start).map_err(|e| e.to_string())?))),
        "banqi" => Ok(Box::new(GameTable::new(Banqi::from_text(start).map_err(|e| e.to_string())?))),
        other => Err(format!("unknown game `{other}` (xiangqi, banqi)")),
    }
}

/// Whether the player `spec` describes can play `game`: `Err` says why not.
pub fn check_player(game: &str, spec: &PlayerSpec) -> Result<(), String> {
    match game {
        "xiangqi" => Xiangqi::player(spec, 0).map(drop),
        _ => Banqi::player(spec, 0).map(drop),
    }
}

/// A game of `G` from its start.
#[derive(Clone)]
struct GameTable<G: WebGame> {
    start: G,
    game: G,
    moves: Vec<String>,
    names: Vec<MoveNames>,
}

impl<G: WebGame> GameTable<G> {
    fn new(start: G) -> Self {
        GameTable { game: start.clone(), start, moves: Vec::new(), names: Vec::new() }
    }

    /// `text` read as a legal move here.
    fn parse(&self, text: &str) -> Result<G::Move, String> {
        if self.game.status().is_over() {
            return Err("the game is over".to_string());
        }
        self.game.parse_move(text).map_err(|error| match error {
            GameError::IllegalMove { .. } => format!("illegal move `{text}`"),
            other => other.to_string(),
        })
    }
}

impl<G: WebGame> Table for GameTable<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }

    fn start(&self) -> String {
        self.start.to_text()
    }

    fn moves(&self) -> &[String] {
        &self.moves
    }

    fn move_names(&self) -> &[MoveNames] {
        &self.names
    }

    fn prepare(&self, text: &str, rng: &mut StdRng) -> Result<String, String> {
        let mv = self.parse(text)?;
        let mut game = self.game.clone();
        game.play(mv);
        let mut recorded = mv.to_string();
        let mut outcomes = Vec::new();
        while game.is_chance() {
            game.chance_outcomes(&mut outcomes);
            let outcome = sample_outcome(&outcomes, rng);
            game.apply_outcome(outcome);
            recorded.push_str(&format!(":{outcome}"));
        }
        Ok(recorded)
    }

    fn apply(&mut self, recorded: &str) -> Result<(), String> {
        let mut parts = recorded.split(':');
        let mv = self.parse(parts.next().unwrap_or_default())?;
        let mut game = self.game.clone();
        game.play(mv);
        let mut outcomes = Vec::new();
        while game.is_chance() {
            game.chance_outcomes(&mut outcomes);
            let outcome = parts
                .next()
                .and_then(G::parse_outcome)
                .filter(|outcome| outcomes.iter().any(|(o, p)| o == outcome && *p > 0.0))
                .ok_or_else(|| format!("`{recorded}` lacks a possible outcome of its chance event"))?;
            game.apply_outcome(outcome);
        }
        if parts.next().is_some() {
            return Err(format!("`{recorded}` has more outcomes than chance events"));
        }
        self.names.extend(self.game.names(mv));
        self.game = game;
        self.moves.push(recorded.to_string());
        Ok(())
    }

    fn is_legal(&self, text: &str) -> bool {
        self.parse(text).is_ok()
    }

    fn to_move(&self) -> Seat {
        self.game.to_move()
    }

    fn status(&self) -> Status {
        self.game.status()
    }

    fn snapshot(&self) -> Snapshot {
        let mut legal = Vec::new();
        if !self.game.status().is_over() {
            self.game.legal_moves(&mut legal);
        }
        Snapshot {
            fen: self.game.to_text(),
            board: self.game.cells(),
            to_move: self.game.to_move(),
            legal: legal.iter().map(ToString::to_string).collect(),
            legal_names: legal.iter().filter_map(|&mv| self.game.names(mv)).collect(),
            repetition_warnings: legal
                .iter()
                .filter_map(|&mv| RepetitionWarning::before(&self.game, mv).map(|w| (mv.to_string(), w.text())))
                .collect(),
            check: self.game.check(),
            colors: [self.game.color_of(Seat::First), self.game.color_of(Seat::Second)],
        }
    }

    fn red_seat(&self) -> Seat {
        self.game.red_player().unwrap_or(Seat::First)
    }

    fn seat_name(&self, seat: Seat) -> String {
        self.game.seat_name(seat)
    }

    fn boxed_clone(&self) -> Box<dyn Table> {
        Box::new(self.clone())
    }

    fn think(&self, spec: &PlayerSpec, seed: u64) -> Result<String, String> {
        let mut player = G::player(spec, seed)?;
        let report = player.think(&self.game, &Limits::default(), &mut |_| {}).map_err(|e| e.to_string())?;
        match report.best {
            Some(mv) if self.is_legal(&mv.to_string()) => Ok(mv.to_string()),
            Some(mv) => Err(format!("illegal move `{mv}`")),
            None => Err("no move".to_string()),
        }
    }
}

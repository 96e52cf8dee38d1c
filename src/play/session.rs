//! One game at the table: seats taken by humans or engines, moves and commands read
//! line by line, the board redrawn after every move, a result line at the end.

use std::io::{self, BufRead, Write};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rand::rngs::StdRng;
use rand::SeedableRng;

use super::command::{help, Command};
use super::{Ending, Style, View};
use crate::game::xiangqi::Notation;
use crate::game::{sample_outcome, Game, Player as Seat, RepetitionWarning, Status};
use crate::players::{Player as Engine, PlayerSpec};
use crate::records::{move_entry, GameRecord};
use crate::search::Limits;

/// The engine that gives hints when no seat has one.
const HINT_SPEC: &str = "alphabeta:depth=4";
/// The pause before each move when engines play each other on a terminal.
const WATCH_PAUSE: Duration = Duration::from_millis(700);
/// The pause between the frames of a flip's reveal on a terminal.
const REVEAL_FRAME: Duration = Duration::from_millis(150);

/// How a session is set up.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The engine of each seat (first, second), or `None` for a human.
    pub seats: [Option<PlayerSpec>; 2],
    /// How boards and pieces are drawn.
    pub style: Style,
    /// Whether the output is watched live on a terminal: engines pause between moves
    /// when they play each other, and flips are revealed with a short animation.
    pub live: bool,
    /// Whether to echo each input line after the prompt (input not typed at a
    /// terminal), so that the output reads as a dialogue.
    pub echo: bool,
    /// Seed of the engines' random choices and of the chance events (Banqi flips).
    pub seed: u64,
    /// A game still going after this many plies is a draw.
    pub max_plies: Option<usize>,
    /// How engines' moves and hints are written (Xiangqi; other games write their own).
    pub notation: Notation,
    /// Kept up to date with the game's record (unfinished) after every ply and takeback,
    /// for whoever saves the game when the session is interrupted.
    pub record_so_far: Option<Arc<Mutex<Option<GameRecord>>>>,
}

/// Why a session could not go on.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// A seat's engine could not be built.
    #[error("cannot start the {seat} engine: {why}")]
    Engine {
        /// The seat's name.
        seat: String,
        /// What went wrong.
        why: String,
    },
    /// Reading input or writing output failed.
    #[error("cannot read a move or write the game: {0}")]
    Io(#[from] io::Error),
}

/// One ply as played: the move, the chance outcomes that followed it, and who played it.
struct Ply<G: Game> {
    mv: G::Move,
    outcomes: Vec<G::Outcome>,
    by: Seat,
}

/// Plays one game from `start` as `setup` says, reading moves and commands from `input`
/// and writing the board and messages to `out`. Ends with a result line once the game is
/// over; `quit` and the end of input leave it unfinished. Returns the game's record: the
/// moves since the start (and those `start` was reached by, for Xiangqi), and the result,
/// `*` when unfinished.
pub fn play<G: View>(
    start: G,
    setup: &Setup,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<GameRecord, PlayError> {
    let mut engines: [Option<Box<dyn Engine<G>>>; 2] = [None, None];
    for seat in [Seat::First, Seat::Second] {
        if let Some(spec) = &setup.seats[seat.index()] {
            let mut engine = G::player(spec, setup.seed.wrapping_add(seat.index() as u64))
                .map_err(|why| PlayError::Engine { seat: start.seat_name(seat), why })?;
            engine.new_game().map_err(|e| PlayError::Engine { seat: start.seat_name(seat), why: e.to_string() })?;
            engines[seat.index()] = Some(engine);
        }
    }
    let mut session = Session {
        game: start.clone(),
        start,
        plies: Vec::new(),
        engines,
        adviser: None,
        rng: StdRng::seed_from_u64(setup.seed),
        setup,
        out,
    };
    let ending = session.run(input)?;
    Ok(session.record(ending.as_ref()))
}

struct Session<'a, G: View> {
    start: G,
    game: G,
    plies: Vec<Ply<G>>,
    engines: [Option<Box<dyn Engine<G>>>; 2],
    /// The hint engine when no seat has an engine, built on the first `hint`.
    adviser: Option<Box<dyn Engine<G>>>,
    rng: StdRng,
    setup: &'a Setup,
    out: &'a mut dyn Write,
}

impl<G: View> Session<'_, G> {
    /// Plays the game out; how it ended, or `None` when it was left unfinished.
    fn run(&mut self, input: &mut dyn BufRead) -> Result<Option<Ending>, PlayError> {
        self.share_record();
        self.introduce()?;
        loop {
            let seat = self.game.to_move();
            let ending = match self.ending() {
                None if self.engines[seat.index()].is_some() => self.engine_move(seat)?,
                ending => ending,
            };
            if let Some(ending) = ending {
                writeln!(self.out, "{}", ending.line(&self.game))?;
                return Ok(Some(ending));
            }
            if self.engines[seat.index()].is_some() {
                continue;
            }
            write!(self.out, "{}> ", self.game.seat_name(seat))?;
            self.out.flush()?;
            let Some(line) = read_line(input)? else {
                writeln!(self.out)?;
                writeln!(self.out, "end of input: game left unfinished after {}", plies(self.plies.len()))?;
                return Ok(None);
            };
            if self.setup.echo {
                writeln!(self.out, "{}", line.trim())?;
            }
            match Command::parse(&line) {
                Command::Blank => {}
                Command::Help => write!(self.out, "{}", help(G::MOVE_HELP))?,
                Command::Fen => writeln!(self.out, "{}", self.game.to_text())?,
                Command::Hint => self.hint()?,
                Command::Undo => self.undo()?,
                Command::Resign => {
                    let ending = Ending::Resigned(seat);
                    writeln!(self.out, "{}", ending.line(&self.game))?;
                    return Ok(Some(ending));
                }
                Command::Quit => {
                    writeln!(self.out, "game left unfinished after {}", plies(self.plies.len()))?;
                    return Ok(None);
                }
                Command::Move(text) => match self.game.read_move(text) {
                    Ok(mv) if self.confirmed(mv, input)? => self.make(mv)?,
                    Ok(_) => writeln!(self.out, "not played")?,
                    Err(why) => writeln!(self.out, "{why}")?,
                },
            }
        }
    }

    /// Whether to play `mv`: yes, unless it lets a repetition end the game against its
    /// player and, told so, the player does not answer `y`.
    fn confirmed(&mut self, mv: G::Move, input: &mut dyn BufRead) -> io::Result<bool> {
        let Some(warning) = RepetitionWarning::before(&self.game, mv) else { return Ok(true) };
        write!(self.out, "{}. Play it? (y/n) ", warning.text())?;
        self.out.flush()?;
        let answer = read_line(input)?.unwrap_or_default();
        if self.setup.echo {
            writeln!(self.out, "{}", answer.trim())?;
        }
        Ok(answer.trim().eq_ignore_ascii_case("y") || answer.trim().eq_ignore_ascii_case("yes"))
    }

    /// The opening lines: who plays what, and the board.
    fn introduce(&mut self) -> io::Result<()> {
        let seat = |seat: Seat| format!("{}: {}", self.start.seat_name(seat), self.who(seat));
        writeln!(self.out, "{}: {}, {}. Type `help` for commands.", G::NAME, seat(Seat::First), seat(Seat::Second))?;
        self.show()
    }

    /// Who sits in `seat`: `human` or the engine's name.
    fn who(&self, seat: Seat) -> String {
        self.engines[seat.index()].as_ref().map_or("human".to_string(), |engine| engine.name())
    }

    /// The game as played so far, ended by `ending` or unfinished (`*`) without one.
    fn record(&self, ending: Option<&Ending>) -> GameRecord {
        let (start, mut moves) = self.start.record_start();
        moves.extend(self.plies.iter().map(|ply| move_entry::<G>(ply.mv, &ply.outcomes)));
        let red = self.game.red_player().unwrap_or(Seat::First);
        GameRecord {
            game: G::NAME.to_string(),
            red: self.who(red),
            black: self.who(red.opponent()),
            start,
            moves,
            result: ending.map_or("*", |ending| ending.score(&self.game)).to_string(),
            reason: ending.map_or("unfinished".to_string(), |ending| ending.reason(&self.game)),
            round: 1,
            opening: None,
        }
    }

    /// Updates the record shared for saving an interrupted game, if one is.
    fn share_record(&self) {
        if let Some(shared) = &self.setup.record_so_far {
            *shared.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(self.record(None));
        }
    }

    /// The board, and an alert such as check.
    fn show(&mut self) -> io::Result<()> {
        let last = self.plies.last().map(|ply| ply.mv);
        write!(self.out, "{}", self.game.draw(last, self.setup.style))?;
        if let Some(alert) = self.game.alert() {
            writeln!(self.out, "{alert}")?;
        }
        Ok(())
    }

    /// How the game ended, if it has.
    fn ending(&self) -> Option<Ending> {
        match self.game.status() {
            Status::Over { winner, reason } => Some(Ending::Rules { winner, reason }),
            Status::Ongoing => self.setup.max_plies.filter(|&limit| self.plies.len() >= limit).map(Ending::PlyLimit),
        }
    }

    /// Lets the engine of `seat` choose and play a move; a forfeit if it could not.
    fn engine_move(&mut self, seat: Seat) -> io::Result<Option<Ending>> {
        let watching = self.setup.live && self.engines.iter().all(Option::is_some);
        if watching && !self.plies.is_empty() {
            std::thread::sleep(WATCH_PAUSE);
        }
        let Some(engine) = self.engines[seat.index()].as_mut() else {
            return Ok(Some(Ending::Forfeit(seat, "no engine".to_string())));
        };
        let (name, answer) = (engine.name(), suggest(engine.as_mut(), &self.game));
        let mv = match answer {
            Ok(mv) => mv,
            Err(why) => return Ok(Some(Ending::Forfeit(seat, why))),
        };
        let text = self.game.move_text(mv, self.setup.notation);
        writeln!(self.out, "{} ({name}) plays {text}", self.game.seat_name(seat))?;
        self.make(mv)?;
        Ok(None)
    }

    /// Plays `mv`, draws the outcomes of any chance event it leads to, and shows the board
    /// when a human is to move next (or nobody is).
    fn make(&mut self, mv: G::Move) -> io::Result<()> {
        let by = self.game.to_move();
        let colours_known = self.game.red_player().is_some();
        self.game.play(mv);
        let mut outcomes = Vec::new();
        let mut choices = Vec::new();
        while self.game.is_chance() {
            self.game.chance_outcomes(&mut choices);
            let outcome = sample_outcome(&choices, &mut self.rng);
            self.game.apply_outcome(outcome);
            outcomes.push(outcome);
            self.reveal(mv, outcome)?;
        }
        if !colours_known {
            if let Some(red) = self.game.red_player() {
                let names = (self.game.seat_name(red), self.game.seat_name(red.opponent()));
                writeln!(self.out, "colours decided: {} plays Red, {} plays Black", names.0, names.1)?;
            }
        }
        self.plies.push(Ply { mv, outcomes, by });
        self.share_record();
        // The board once a turn: after a ply that leaves a human to move or ends the
        // game, and after every ply when engines play each other.
        let watching = self.engines.iter().all(Option::is_some);
        if watching || self.ending().is_some() || self.engines[self.game.to_move().index()].is_none() {
            self.show()?;
        }
        Ok(())
    }

    /// Tells what a chance event revealed, after a short suspense on a terminal.
    fn reveal(&mut self, mv: G::Move, outcome: G::Outcome) -> io::Result<()> {
        let line = self.game.reveal(mv, outcome, self.setup.style);
        if self.setup.live {
            let (before, after) = line.split_once(':').unwrap_or((&line, ""));
            write!(self.out, "{before}")?;
            for _ in 0..3 {
                self.out.flush()?;
                std::thread::sleep(REVEAL_FRAME);
                write!(self.out, ".")?;
            }
            writeln!(self.out, "{after}")
        } else {
            writeln!(self.out, "{line}")
        }
    }

    /// Prints the engine's suggestion for the side to move: from the opponent's engine if
    /// there is one, else from `alphabeta:depth=4`.
    fn hint(&mut self) -> io::Result<()> {
        let opponent = self.game.to_move().opponent().index();
        if self.engines[opponent].is_none() && self.adviser.is_none() {
            match HINT_SPEC.parse::<PlayerSpec>().and_then(|spec| G::player(&spec, self.setup.seed)) {
                Ok(engine) => self.adviser = Some(engine),
                Err(why) => return writeln!(self.out, "no hint: {why}"),
            }
        }
        let answer = match self.engines[opponent].as_mut().or(self.adviser.as_mut()) {
            Some(engine) => suggest(engine.as_mut(), &self.game),
            None => Err("no engine".to_string()),
        };
        match answer {
            Ok(mv) => writeln!(self.out, "hint: {}", self.game.move_text(mv, self.setup.notation)),
            Err(why) => writeln!(self.out, "no hint: {why}"),
        }
    }

    /// Takes back the plies since the last human move, that one included, and shows the
    /// board; replays the game from its start with the recorded chance outcomes. Refuses
    /// to take back a chance event (a Banqi flip): what it revealed cannot be hidden again.
    fn undo(&mut self) -> io::Result<()> {
        let Some(keep) = self.plies.iter().rposition(|ply| self.engines[ply.by.index()].is_none()) else {
            return writeln!(self.out, "nothing to take back");
        };
        if self.plies[keep..].iter().any(|ply| !ply.outcomes.is_empty()) {
            return writeln!(self.out, "cannot take back a flip: a flipped piece cannot be hidden again");
        }
        let taken = self.plies.len() - keep;
        self.plies.truncate(keep);
        self.game = self.start.clone();
        for ply in &self.plies {
            self.game.play(ply.mv);
            for &outcome in &ply.outcomes {
                self.game.apply_outcome(outcome);
            }
        }
        writeln!(self.out, "took back {}", plies(taken))?;
        self.share_record();
        self.show()
    }
}

/// The engine's move for the side to move in `game`, checked to be legal.
fn suggest<G: Game>(engine: &mut dyn Engine<G>, game: &G) -> Result<G::Move, String> {
    let report = engine.think(game, &Limits::default(), &mut |_| {}).map_err(|e| e.to_string())?;
    let mut legal = Vec::new();
    game.legal_moves(&mut legal);
    match report.best {
        Some(mv) if legal.contains(&mv) => Ok(mv),
        Some(mv) => Err(format!("illegal move `{mv}`")),
        None => Err("no move".to_string()),
    }
}

/// `1 ply`, `2 plies`.
fn plies(count: usize) -> String {
    format!("{count} {}", if count == 1 { "ply" } else { "plies" })
}

/// The next line of input, invalid UTF-8 replaced; `None` at the end of input.
fn read_line(input: &mut dyn BufRead) -> io::Result<Option<String>> {
    let mut bytes = Vec::new();
    if input.read_until(b'\n', &mut bytes)? == 0 {
        return Ok(None);
    }
    Ok(Some(String::from_utf8_lossy(&bytes).into_owned()))
}

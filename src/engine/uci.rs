//! The UCI / UCCI loop: reads commands, keeps the position, searches on a thread of its
//! own so that `stop` and `isready` are answered at once, and prints `info` and
//! `bestmove`. A line it cannot use gets an `info string` and the loop goes on; an
//! answer that cannot be written (the GUI gone, a full disk) ends it with that error.

use std::io::{self, BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use super::parse_go;
use crate::game::xiangqi::{Move, Xiangqi};
use crate::game::{Game, Player as Seat};
use crate::players::{Player, SpinOption};
use crate::search::{Report, Score};

/// Where the engine writes its answers, shared with the search thread.
pub type Output = Arc<Mutex<dyn Write + Send>>;

/// The engine's answers, written a line at a time to the output by the loop and by the
/// search thread alike; the first write that fails is kept, and ends the service.
#[derive(Clone)]
struct Answers {
    output: Output,
    failure: Arc<Mutex<Option<io::Error>>>,
}

impl Answers {
    /// Writes `line` and flushes it, keeping the error if that fails.
    fn say(&self, line: &str) {
        let mut out = self.output.lock().unwrap_or_else(|e| e.into_inner());
        if let Err(error) = writeln!(out, "{line}").and_then(|()| out.flush()) {
            self.failure.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(error);
        }
    }

    /// The first write that failed, if one did.
    fn failed(&self) -> io::Result<()> {
        self.failure.lock().unwrap_or_else(|e| e.into_inner()).take().map_or(Ok(()), Err)
    }
}

/// Which dialect the GUI opened with.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Dialect {
    Uci,
    Ucci,
}

/// The engine's state between commands.
struct Engine {
    player: Option<Box<dyn Player<Xiangqi>>>,
    name: String,
    game: Xiangqi,
    dialect: Dialect,
    /// Why the last `position` could not be set up in full, if it could not.
    position_error: Option<String>,
    /// UCCI: clock values come in milliseconds (`usemillisec`), else in seconds.
    millis: bool,
    answers: Answers,
    search: Option<Search>,
}

/// A search running on its own thread.
struct Search {
    handle: JoinHandle<Box<dyn Player<Xiangqi>>>,
    stop: Arc<AtomicBool>,
    /// `go infinite`: runs until stopped.
    infinite: bool,
}

/// Serves `player` on `input` until `quit` or the end of input. At the end of input a
/// bounded search is let finish (so `echo "go depth 5" | xiangqi-zero uci` prints its
/// move); `quit` stops it at once. Input that is not UTF-8 is read with its bad bytes
/// replaced. Fails with the first error writing to `output`, where the service ends.
pub fn serve(player: Box<dyn Player<Xiangqi>>, input: impl BufRead, output: Output) -> io::Result<()> {
    let name = player.name();
    let mut engine = Engine {
        player: Some(player),
        name,
        game: Xiangqi::start(),
        dialect: Dialect::Uci,
        position_error: None,
        millis: true,
        answers: Answers { output, failure: Arc::default() },
        search: None,
    };
    for line in input.split(b'\n') {
        let Ok(line) = line else { break };
        let go_on = engine.command(String::from_utf8_lossy(&line).trim());
        let written = engine.answers.failed();
        if !go_on || written.is_err() {
            engine.finish_search();
            return written.and_then(|()| engine.answers.failed());
        }
    }
    let infinite = engine.search.as_ref().is_some_and(|search| search.infinite);
    engine.join_search(infinite);
    engine.answers.failed()
}

impl Engine {
    /// Handles one line; false on `quit`.
    fn command(&mut self, line: &str) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&first, rest)) = words.split_first() else { return true };
        let result = match first {
            "uci" | "ucci" => {
                self.dialect = if first == "uci" { Dialect::Uci } else { Dialect::Ucci };
                self.say(&format!("id name xiangqi-zero {} ({})", env!("CARGO_PKG_VERSION"), self.name));
                self.say("id author the xiangqi-zero developers");
                if self.dialect == Dialect::Ucci {
                    self.say("option usemillisec type check default true");
                }
                for option in self.options() {
                    self.say(&match self.dialect {
                        Dialect::Uci => option.uci(),
                        Dialect::Ucci => option.ucci(),
                    });
                }
                if self.dialect == Dialect::Ucci {
                    self.say("option newgame type button");
                }
                self.say(if first == "uci" { "uciok" } else { "ucciok" });
                Ok(())
            }
            "isready" => {
                self.say("readyok");
                Ok(())
            }
            "ucinewgame" => self.new_game(),
            "setoption" => {
                self.finish_search();
                self.set_option(rest)
            }
            "position" => {
                self.finish_search();
                self.position(rest)
            }
            "go" => {
                self.finish_search();
                self.go(rest)
            }
            "stop" => {
                self.finish_search();
                Ok(())
            }
            "quit" => {
                self.finish_search();
                if self.dialect == Dialect::Ucci {
                    self.say("bye");
                }
                return false;
            }
            // We offer no pondering: a `ponderhit` ends the ponder search like `stop`.
            "ponderhit" => {
                self.finish_search();
                Ok(())
            }
            "banmoves" => Err("`banmoves` is not supported: every legal move stays allowed".into()),
            other => Err(format!("unknown command `{other}`")),
        };
        if let Err(error) = result {
            self.say(&format!("info string error: {error}"));
        }
        true
    }

    fn say(&self, line: &str) {
        self.answers.say(line);
    }

    /// The options the player offers (none while it is searching).
    fn options(&self) -> Vec<SpinOption> {
        self.player.as_ref().map(|p| p.options()).unwrap_or_default()
    }

    /// `ucinewgame` (and UCCI's `setoption newgame`).
    fn new_game(&mut self) -> Result<(), String> {
        self.finish_search();
        self.game = Xiangqi::start();
        self.position_error = None;
        match self.player.as_mut().map(|p| p.new_game()) {
            Some(Err(error)) => Err(error.to_string()),
            _ => Ok(()),
        }
    }

    /// `setoption name <name> [value <value>]` (UCCI: `setoption <name> <value>`).
    fn set_option(&mut self, words: &[&str]) -> Result<(), String> {
        let (name, value) = match words.first() {
            Some(&"name") => {
                let value_at = words.iter().position(|&w| w == "value").unwrap_or(words.len());
                (words[1..value_at].join(" "), words.get(value_at + 1..).unwrap_or_default().join(" "))
            }
            Some(name) => (name.to_string(), words[1..].join(" ")),
            None => return Err("expected `setoption name <name> value <value>`".into()),
        };
        match name.as_str() {
            "usemillisec" => {
                self.millis = value != "false";
                Ok(())
            }
            "newgame" => self.new_game(),
            _ => {
                // UCCI's names (`hashsize`) for the player's options.
                let offered = self.options().into_iter().find(|option| option.ucci_name().eq_ignore_ascii_case(&name));
                let name = offered.map_or(name.as_str(), |option| option.name);
                let player = self.player.as_mut().ok_or("no player")?;
                player.set_option(name, &value)
            }
        }
    }

    /// `position startpos|fen <FEN> [moves m1 m2 …]`.
    fn position(&mut self, words: &[&str]) -> Result<(), String> {
        let moves_at = words.iter().position(|&w| w == "moves").unwrap_or(words.len());
        let fen = match words.first() {
            Some(&"startpos") => "startpos".to_string(),
            Some(&"fen") => words[1..moves_at].join(" "),
            _ => {
                // No position to move from until a good one comes.
                let error = "expected `position startpos` or `position fen <FEN>`".to_string();
                self.position_error = Some(error.clone());
                return Err(error);
            }
        };
        self.position_error = None;
        let mut game = match Xiangqi::from_fen(&fen, self.game.rules()) {
            Ok(game) => game,
            Err(error) => {
                self.position_error = Some(error.to_string());
                return Err(error.to_string());
            }
        };
        for text in words.iter().skip(moves_at + 1) {
            match game.parse_move(text) {
                Ok(mv) => game.play(mv),
                Err(error) => {
                    // Keep what could be played, but refuse to move from it.
                    self.position_error = Some(error.to_string());
                    self.game = game;
                    return Err(error.to_string());
                }
            }
        }
        self.game = game;
        Ok(())
    }

    /// Starts a search on its own thread. Every `go` ends in a `bestmove`: after a
    /// position that could not be set up, `bestmove (none)` (UCCI: `nobestmove`); in a
    /// position without a legal move, `info depth 0 score mate 0` then `bestmove (none)`.
    fn go(&mut self, words: &[&str]) -> Result<(), String> {
        let red = self.game.to_move() == Seat::First;
        let unit = if self.millis { 1 } else { 1000 };
        let (command, warnings) = parse_go(words, red, unit);
        for warning in warnings {
            self.say(&format!("info string error: {warning}"));
        }
        let refused = self.position_error.clone();
        let stop = Arc::new(AtomicBool::new(false));
        let mut limits = command.limits(red);
        limits.stop = Some(stop.clone());
        let mut player = self.player.take().ok_or("no player")?;
        let game = self.game.clone();
        let answers = self.answers.clone();
        let dialect = self.dialect;
        let infinite = command.infinite;
        let stopped = stop.clone();
        let handle = std::thread::spawn(move || {
            let print = |line: String| answers.say(&line);
            let mut legal = Vec::new();
            game.legal_moves(&mut legal);
            // The GUI judges draws by rule; we move while a legal move exists.
            let best = if let Some(error) = refused {
                print(format!("info string error: no move from an invalid position ({error})"));
                None
            } else if legal.is_empty() {
                // Mated, or stalemated (which loses in Xiangqi): said as Stockfish and
                // Pikafish say it. UCCI's `nobestmove` says it by itself.
                if dialect == Dialect::Uci {
                    print("info depth 0 score mate 0".to_string());
                }
                None
            } else {
                let mut info = |report: &Report<Move>| info_lines(report, dialect).into_iter().for_each(print);
                // A search that fails, even by a panic, still ends in a legal move, and the
                // engine goes on answering.
                let thought = catch_unwind(AssertUnwindSafe(|| player.think(&game, &limits, &mut info)));
                match thought {
                    Ok(Ok(report)) => report.best,
                    Ok(Err(error)) => {
                        print(format!("info string error: {error}"));
                        legal.first().copied()
                    }
                    Err(_) => {
                        print("info string error: the search failed; playing the first legal move".to_string());
                        legal.first().copied()
                    }
                }
            };
            // After `go infinite` the move is given only once the GUI says `stop`.
            while infinite && !stopped.load(Ordering::SeqCst) {
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
            print(match (best, dialect) {
                (Some(mv), _) => format!("bestmove {mv}"),
                (None, Dialect::Uci) => "bestmove (none)".to_string(),
                (None, Dialect::Ucci) => "nobestmove".to_string(),
            });
            player
        });
        self.search = Some(Search { handle, stop, infinite: command.infinite });
        Ok(())
    }

    /// Stops a running search and waits for its `bestmove`.
    fn finish_search(&mut self) {
        self.join_search(true);
    }

    /// Waits for a running search, first telling it to stop if `stop`.
    fn join_search(&mut self, stop: bool) {
        if let Some(search) = self.search.take() {
            if stop {
                search.stop.store(true, Ordering::SeqCst);
            }
            match search.handle.join() {
                Ok(player) => self.player = Some(player),
                Err(_) => self.say("info string error: the search failed; restart the engine"),
            }
        }
    }
}

/// `info depth … score … nodes … nps … time … pv …`, or with MultiPV lines one such line
/// per root move, each with `multipv k`, the best first.
fn info_lines(report: &Report<Move>, dialect: Dialect) -> Vec<String> {
    let millis = report.elapsed.as_millis().max(1);
    let line = |rank: Option<usize>, score: Score, pv: &[Move]| {
        let score = match (score, dialect) {
            (Score::Cp(cp), Dialect::Uci) => format!("cp {cp}"),
            (Score::Cp(cp), Dialect::Ucci) => cp.to_string(),
            (Score::Mate(n), _) => format!("mate {n}"),
        };
        let rank = rank.map(|k| format!(" multipv {k}")).unwrap_or_default();
        let pv: Vec<String> = pv.iter().map(ToString::to_string).collect();
        format!(
            "info depth {} seldepth {}{rank} score {score} nodes {} nps {} time {millis} pv {}",
            report.depth,
            report.seldepth.max(report.depth),
            report.nodes,
            report.searched as u128 * 1000 / millis,
            pv.join(" ")
        )
    };
    if report.more.is_empty() {
        return vec![line(None, report.score, &report.pv)];
    }
    let first = std::iter::once(line(Some(1), report.score, &report.pv));
    first.chain(report.more.iter().enumerate().map(|(i, more)| line(Some(i + 2), more.score, &more.pv))).collect()
}

//! `uci:` / `ucci:` — an external Xiangqi engine as a player, over its standard input and
//! output. Every wait has a deadline: an engine that dies, hangs or talks nonsense costs
//! the game, never a hang of the caller.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::engine_process::{EngineProcess, WaitError};
use super::{Player, PlayerError};
use crate::game::xiangqi::{Move, Xiangqi};
use crate::game::Game;
use crate::search::{Limits, Report, Score};

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// Try `uci`, then `ucci`, and use whichever the engine acknowledges.
    Detect,
    /// UCI, as Pikafish and Fairy-Stockfish speak it.
    Uci,
    /// UCCI, as ElephantEye speaks it.
    Ucci,
}

/// How to run an external engine.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    /// The program and its arguments.
    pub command: Vec<String>,
    /// The protocol, or `Detect`.
    pub protocol: Protocol,
    /// The engine numbers ranks 1–10 in its moves (Fairy-Stockfish's UCI).
    pub ranks_from_one: bool,
    /// Its own limits per move, used when the caller sets none (default 1 s).
    pub limits: Limits,
    /// How long to wait for a move beyond the limit before declaring a hang.
    pub grace: Duration,
    /// Options set after the handshake (`UCI_Variant`, `Threads`, …), as name and value.
    pub options: Vec<(String, String)>,
}

impl EngineConfig {
    /// Whether the engine's program is there to start: a path that names a file, or a
    /// bare name found in a directory of `PATH`.
    pub fn is_installed(&self) -> bool {
        let Some(program) = self.command.first().map(Path::new) else { return false };
        if program.components().count() > 1 {
            return program.is_file();
        }
        std::env::var_os("PATH").is_some_and(|dirs| std::env::split_paths(&dirs).any(|dir| dir.join(program).is_file()))
    }
}

/// How long the handshake may take.
const HANDSHAKE: Duration = Duration::from_secs(10);
/// How long a move may take when only depth or nodes limit it.
const UNTIMED_MOVE: Duration = Duration::from_secs(120);
/// How long `go infinite` may think before `stop` (a day: the GUI's to end).
const UNTIL_STOPPED: Duration = Duration::from_secs(24 * 3600);
/// How long to wait for `uciok` before trying `ucci` instead.
const DETECT: Duration = Duration::from_secs(2);
/// A running engine process and the protocol it answered in.
struct Running {
    process: EngineProcess,
    protocol: Protocol,
}

/// An external engine playing Xiangqi.
pub struct ExternalEngine {
    config: EngineConfig,
    name: String,
    running: Option<Running>,
}

impl ExternalEngine {
    /// An engine to be started on first use (and restarted after a crash).
    pub fn new(config: EngineConfig) -> ExternalEngine {
        let name = config.command.first().map_or("engine".to_string(), |program| {
            Path::new(program).file_name().map_or(program.clone(), |n| n.to_string_lossy().into_owned())
        });
        ExternalEngine { config, name, running: None }
    }

    /// Starts the engine if it is not running and completes the handshake.
    fn ensure_started(&mut self) -> Result<&mut Running, PlayerError> {
        if self.running.is_none() {
            let running = self.start()?;
            self.running = Some(running);
        }
        self.running.as_mut().ok_or_else(|| PlayerError::Start("engine not running".into()))
    }

    /// Starts the process and completes the handshake. When detecting, `uci` is tried
    /// first; an engine that ignores it gets `ucci` as well, and one that dies of it (as
    /// ElephantEye does when its first line is not `ucci`) is started again with `ucci`.
    fn start(&mut self) -> Result<Running, PlayerError> {
        let attempts: &[&[Protocol]] = match self.config.protocol {
            Protocol::Detect => &[&[Protocol::Uci, Protocol::Ucci], &[Protocol::Ucci]],
            Protocol::Uci => &[&[Protocol::Uci]],
            Protocol::Ucci => &[&[Protocol::Ucci]],
        };
        let mut last_error = None;
        for hellos in attempts {
            let mut running = self.spawn()?;
            match self.handshake(&mut running, hellos) {
                Ok(true) => return Ok(running),
                Ok(false) => {
                    // Slow to answer `uci`, it was greeted with `ucci` as well, and may yet
                    // switch to it (Fairy-Stockfish does): started again, greeted once.
                    let mut again = self.spawn()?;
                    self.handshake(&mut again, &[running.protocol])?;
                    return Ok(again);
                }
                Err(error @ PlayerError::Crashed(_)) => last_error = Some(error),
                Err(error) => {
                    last_error = Some(error);
                    break;
                }
            }
        }
        let program = self.config.command.first().map_or("", String::as_str);
        Err(PlayerError::Start(format!(
            "`{program}` answered neither `uci` nor `ucci`{}",
            last_error.map_or(String::new(), |e| format!(" ({e})"))
        )))
    }

    fn spawn(&self) -> Result<Running, PlayerError> {
        let (program, args) =
            self.config.command.split_first().ok_or_else(|| PlayerError::Start("empty engine command".into()))?;
        let process =
            EngineProcess::spawn(program, args).map_err(|e| PlayerError::Start(format!("`{program}`: {e}")))?;
        Ok(Running { process, protocol: self.config.protocol })
    }

    /// Says each hello in turn until the engine acknowledges one (`uciok` or `ucciok`,
    /// whichever comes), then sets the configured options and waits for `readyok`. Returns
    /// false when the engine acknowledged an earlier hello than the last one it was told.
    fn handshake(&mut self, running: &mut Running, hellos: &[Protocol]) -> Result<bool, PlayerError> {
        let mut seen = Vec::new();
        let mut said = Protocol::Detect;
        for (i, &protocol) in hellos.iter().enumerate() {
            running.send(if protocol == Protocol::Ucci { "ucci" } else { "uci" })?;
            said = protocol;
            let wait = if i + 1 < hellos.len() { DETECT } else { HANDSHAKE };
            match running.wait_for(|line| matches!(line.trim(), "uciok" | "ucciok"), wait, None) {
                Ok(lines) => {
                    seen.extend(lines);
                    break;
                }
                Err(PlayerError::Timeout(_)) if i + 1 < hellos.len() => continue,
                Err(error) => return Err(error),
            }
        }
        running.protocol =
            if seen.last().is_some_and(|l| l.trim() == "ucciok") { Protocol::Ucci } else { Protocol::Uci };
        if let Some(name) = seen.iter().find_map(|l| l.strip_prefix("id name ")) {
            self.name = name.trim().to_string();
        }
        let offers = |option: &str| seen.iter().any(|l| l.starts_with(&format!("option name {option} ")));
        let mut options = self.config.options.clone();
        if offers("UCI_Variant") && !options.iter().any(|(name, _)| name == "UCI_Variant") {
            // Fairy-Stockfish plays chess unless told otherwise.
            options.push(("UCI_Variant".to_string(), "xiangqi".to_string()));
        }
        for (name, value) in &options {
            running.send(&match running.protocol {
                Protocol::Ucci => format!("setoption {name} {value}"),
                _ => format!("setoption name {name} value {value}"),
            })?;
        }
        running.send("isready")?;
        running.wait_for(|line| line.trim() == "readyok", HANDSHAKE, None)?;
        Ok(running.protocol == said)
    }

    /// The `go` command for `limits`.
    fn go_command(&self, limits: &Limits, protocol: Protocol) -> String {
        let mut go = String::from("go");
        if limits.infinite {
            return go + " infinite";
        }
        if let Some(depth) = limits.depth {
            go += &format!(" depth {depth}");
        }
        if let Some(nodes) = limits.nodes {
            go += &format!(" nodes {nodes}");
        }
        if let Some(time) = limits.movetime {
            match protocol {
                Protocol::Ucci => go += &format!(" time {} movestogo 1", time.as_millis()),
                _ => go += &format!(" movetime {}", time.as_millis()),
            }
        }
        go
    }

    fn move_text(&self, mv: Move) -> String {
        if self.config.ranks_from_one {
            mv.to_ranks_from_one()
        } else {
            mv.to_string()
        }
    }
}

impl Running {
    fn send(&mut self, line: &str) -> Result<(), PlayerError> {
        self.process.send(line).map_err(|e| PlayerError::Crashed(format!("cannot write to the engine: {e}")))
    }

    /// Reads lines until one satisfies `done`; returns all lines read (the last is the one).
    /// When `stop` is set meanwhile, the engine is told `stop` (once) and gets a little more.
    fn wait_for(
        &mut self,
        done: impl Fn(&str) -> bool,
        limit: Duration,
        stop: Option<&AtomicBool>,
    ) -> Result<Vec<String>, PlayerError> {
        self.process.wait_for(done, limit, stop).map_err(|error| match error {
            WaitError::Timeout => PlayerError::Timeout(limit.as_millis()),
            WaitError::Closed(status) => {
                PlayerError::Crashed(status.map_or("closed its output".to_string(), |s| s.to_string()))
            }
            WaitError::Write(e) => PlayerError::Crashed(format!("cannot write to the engine: {e}")),
        })
    }
}

impl Player<Xiangqi> for ExternalEngine {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self) -> Result<(), PlayerError> {
        let running = self.ensure_started()?;
        let result = if running.protocol == Protocol::Uci { running.send("ucinewgame") } else { Ok(()) }
            .and_then(|_| running.send("isready"))
            .and_then(|_| running.wait_for(|line| line.trim() == "readyok", HANDSHAKE, None).map(drop));
        if result.is_err() {
            self.running = None;
        }
        result
    }

    fn think(
        &mut self,
        game: &Xiangqi,
        limits: &Limits,
        info: &mut dyn FnMut(&Report<Move>),
    ) -> Result<Report<Move>, PlayerError> {
        let limits = super::limits_or(limits, &self.config.limits);
        let moves: Vec<String> = game.moves().map(|mv| self.move_text(mv)).collect();
        let mut position = format!("position fen {}", game.start_fen());
        if !moves.is_empty() {
            position += &format!(" moves {}", moves.join(" "));
        }
        let wait = if limits.infinite {
            UNTIL_STOPPED
        } else {
            limits.movetime.map_or(UNTIMED_MOVE, |t| t * 2 + self.config.grace)
        };
        let result = self.ask(game, &position, &limits, wait, info);
        if matches!(result, Err(PlayerError::Timeout(_) | PlayerError::Crashed(_) | PlayerError::Protocol(_))) {
            // A hung or broken engine is restarted for the next game.
            self.running = None;
        }
        result
    }
}

impl ExternalEngine {
    /// Sends the position and `go`, and reads the engine's answer.
    fn ask(
        &mut self,
        game: &Xiangqi,
        position: &str,
        limits: &Limits,
        wait: Duration,
        info: &mut dyn FnMut(&Report<Move>),
    ) -> Result<Report<Move>, PlayerError> {
        let started = Instant::now();
        let ranks_from_one = self.config.ranks_from_one;
        let protocol = self.ensure_started()?.protocol;
        let go = self.go_command(limits, protocol);
        let running = self.ensure_started()?;
        running.send(position)?;
        running.send(&go)?;
        let stop = limits.stop.as_deref();
        let lines =
            running.wait_for(|line| line.starts_with("bestmove") || line.starts_with("nobestmove"), wait, stop)?;
        let mut report = Report {
            depth: 0,
            seldepth: 0,
            score: Score::Cp(0),
            nodes: 0,
            searched: 0,
            elapsed: started.elapsed(),
            best: None,
            pv: Vec::new(),
            more: Vec::new(),
        };
        for line in &lines {
            if let Some(rest) = line.strip_prefix("info ") {
                if read_info(rest, ranks_from_one, &mut report) {
                    info(&report);
                }
            }
        }
        let last = lines.last().map(String::as_str).unwrap_or_default();
        let text = last.strip_prefix("bestmove").and_then(|rest| rest.split_whitespace().next());
        report.elapsed = started.elapsed();
        // `nobestmove` (UCCI) or `bestmove (none)` / `0000` (UCI): the engine gives no move,
        // which with legal moves left claims the game over by its own rules (ElephantEye
        // does so at its 50-move rule, or with no attacking piece left).
        if last == "nobestmove" || matches!(text, Some("(none)" | "0000")) {
            return Ok(report);
        }
        let text = text.ok_or_else(|| PlayerError::Protocol(format!("no move in `{last}`")))?;
        let mv = Move::parse(text, ranks_from_one).ok_or_else(|| PlayerError::IllegalMove(text.to_string()))?;
        game.parse_move(&mv.to_string()).map_err(|_| PlayerError::IllegalMove(text.to_string()))?;
        report.best = Some(mv);
        Ok(report)
    }
}

/// Reads what an `info` line says into `report`; true if it carried a score.
fn read_info(rest: &str, ranks_from_one: bool, report: &mut Report<Move>) -> bool {
    let words: Vec<&str> = rest.split_whitespace().collect();
    let mut scored = false;
    let mut i = 0;
    while i < words.len() {
        let number = |j: usize| words.get(j).and_then(|w| w.parse::<i64>().ok());
        match words[i] {
            "depth" => report.depth = number(i + 1).unwrap_or(0).max(0) as u32,
            "seldepth" => report.seldepth = number(i + 1).unwrap_or(0).max(0) as u32,
            "nodes" => {
                report.nodes = number(i + 1).unwrap_or(0).max(0) as u64;
                report.searched = report.nodes;
            }
            "score" => {
                // UCI: `score cp 12` / `score mate 3`; UCCI: `score 12`.
                match (words.get(i + 1).copied(), number(i + 1), number(i + 2)) {
                    (Some("cp"), _, Some(cp)) => report.score = Score::Cp(cp as i32),
                    (Some("mate"), _, Some(n)) => report.score = Score::Mate(n as i32),
                    (_, Some(cp), _) => report.score = Score::Cp(cp as i32),
                    _ => {}
                }
                scored = true;
            }
            "string" => break,
            "pv" => {
                report.pv = words[i + 1..].iter().map_while(|w| Move::parse(w, ranks_from_one)).collect();
                break;
            }
            _ => {}
        }
        i += 1;
    }
    scored
}

//! One worker's games on their way to disk: each game's searched moves kept until it
//! ends, then turned into one training sample per move and a PGN record, and written
//! as a shard (`.npz`) with the same games beside it as `.pgn` once enough samples wait.
//!
//! A shard holds whole games only and records how many ([`Samples::games`]): without
//! `record_cheap` a game may leave few samples, or none. A game over before its first
//! move (a start position already lost) has no move to learn from and is left out, PGN
//! included.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::{SystemTime, UNIX_EPOCH};

use super::job::SelfPlayJob;
use super::progress::SelfPlayProgress;
use super::samples::{SampleShape, Samples, Targets};
use super::settings::SelfPlaySettings;
use super::shard::{write_shard, ShardError};
use crate::game::xiangqi::Notation;
use crate::game::{Game, Player};
use crate::mcts::{Ending, Event, GameOver, MoveRecord};
use crate::nn::Encoding;
use crate::records::GameRecord;
use crate::storage;

/// What a worker's finished games add up to.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Tally {
    /// Moves searched, in finished games and in games still going.
    pub moves: u64,
    pub games: u64,
    pub samples: u64,
    pub plies: u64,
    /// Wins of the first player, draws, wins of the second.
    pub results: [u64; 3],
}

/// A worker's games in progress and finished games waiting to be written.
pub(super) struct Collector<G: Game> {
    /// The searched moves of each game still going, by game number.
    in_flight: HashMap<u64, Vec<MoveRecord<G>>>,
    /// Samples of the finished games not yet written.
    waiting: Samples,
    /// Those games as PGN.
    pgn: String,
    dir: PathBuf,
    /// Shard names start with `{prefix}-`, then the time, the writer and the worker.
    prefix: String,
    worker: usize,
    /// Whether cheaply searched moves become samples.
    record_cheap: bool,
    shards: u64,
    event: String,
    planes: Vec<f32>,
    /// One sample's policy targets (the searched moves' visit shares) by label.
    policy: Vec<(usize, f32)>,
    pub tally: Tally,
}

impl<G: Encoding> Collector<G> {
    /// A collector writing worker `worker`'s shards of `job`, its samples as `settings`
    /// say (cheaply searched moves or not).
    pub fn new(job: &SelfPlayJob<G>, worker: usize, settings: &SelfPlaySettings) -> Collector<G> {
        let prefix = &job.prefix;
        Collector {
            in_flight: HashMap::new(),
            waiting: Samples::new(SampleShape::of::<G>()),
            pgn: String::new(),
            dir: job.out_dir.clone(),
            prefix: prefix.to_string(),
            worker,
            record_cheap: settings.record_cheap,
            shards: 0,
            event: format!("xiangqi-zero self-play {prefix}"),
            planes: vec![0.0; G::INPUT_SIZE],
            policy: Vec::new(),
            tally: Tally::default(),
        }
    }

    /// Samples waiting to be written.
    pub fn waiting(&self) -> usize {
        self.waiting.len()
    }

    /// Takes one of the driver's events: keeps a move, or turns a finished game into
    /// samples and a record.
    pub fn take(&mut self, event: Event<G>, progress: &SelfPlayProgress) {
        match event {
            Event::Move(record) => {
                SelfPlayProgress::add(&progress.moves, 1);
                self.tally.moves += 1;
                self.in_flight.entry(record.game_id).or_default().push(record);
            }
            Event::GameOver(over) => {
                let moves = self.in_flight.remove(&over.game_id).unwrap_or_default();
                if moves.is_empty() {
                    // Over before its first move: nothing to learn, nothing to record.
                    return;
                }
                // A game cut off at the ply limit has no result to learn from: its samples
                // teach the policy only.
                let outcome = (over.ending != Ending::MaxPlies).then_some(over.winner);
                // Each move with the label of the opponent's reply played to it (a resigning
                // player's last searched move is not played, and has no reply; nor has a
                // Banqi capture that a capture of the same chain follows).
                let played = &moves[..over.plies.min(moves.len())];
                let reply = |k: usize, m: &MoveRecord<G>| {
                    let next = played.get(k + 1).filter(|next| next.position.to_move() != m.position.to_move())?;
                    Some(m.position.move_label(next.played) as u16)
                };
                let recorded: Vec<_> = moves
                    .iter()
                    .enumerate()
                    .filter(|(_, m)| self.record_cheap || m.result.full)
                    .map(|(k, m)| (m, reply(k, m)))
                    .collect();
                for &(record, reply) in &recorded {
                    self.push_sample(record, outcome, reply);
                }
                let samples = recorded.len() as u64;
                self.waiting.games += 1;
                self.pgn += &self.record(&moves, &over).to_pgn(&self.event, Notation::Iccs);
                let result = match over.winner {
                    Some(Player::First) => 0,
                    None => 1,
                    Some(Player::Second) => 2,
                };
                self.tally.results[result] += 1;
                self.tally.games += 1;
                self.tally.samples += samples;
                self.tally.plies += over.plies as u64;
                SelfPlayProgress::add(&progress.games, 1);
                SelfPlayProgress::add(&progress.samples, samples);
            }
        }
    }

    /// The sample of one searched move of a game `winner` won (`Some(None)`: drawn;
    /// `None`: no result, an all-zero outcome that the value loss ignores), the opponent's
    /// `reply` to it (its label from the mover's side) where one was played.
    fn push_sample(&mut self, record: &MoveRecord<G>, outcome: Option<Option<Player>>, reply: Option<u16>) {
        let position = &record.position;
        position.encode(&mut self.planes);
        let searched = record.result.moves.iter().filter(|m| m.policy > 0.0);
        self.policy.clear();
        self.policy.extend(searched.map(|m| (position.move_label(m.mv), m.policy)));
        let outcome = match outcome {
            None => [0.0; 3],
            Some(None) => [0.0, 1.0, 0.0],
            Some(Some(player)) if player == position.to_move() => [1.0, 0.0, 0.0],
            Some(Some(_)) => [0.0, 0.0, 1.0],
        };
        let wdl = record.result.wdl;
        let root = [wdl.win, wdl.draw, wdl.loss];
        let targets = Targets { outcome, root, full: record.result.full, ply: record.ply as u32, reply };
        self.waiting.push(&self.planes, &self.policy, targets);
    }

    /// The game record of a finished game: its start, its moves (a Banqi flip followed by
    /// the piece it revealed, `a1a1:K`, as the arena writes them) and its result.
    fn record(&self, moves: &[MoveRecord<G>], over: &GameOver<G>) -> GameRecord {
        let start = moves.first().map_or(&over.position, |m| &m.position);
        // A resigning player's last searched move is not played.
        let played = &moves[..over.plies.min(moves.len())];
        let texts = played
            .iter()
            .enumerate()
            .map(|(k, record)| {
                let next = played.get(k + 1).map_or(&over.position, |m| &m.position);
                move_text(&record.position, record.played, next)
            })
            .collect();
        let red = over.position.red_player().unwrap_or(Player::First);
        let result = match over.winner {
            Some(winner) if winner == red => "1-0",
            Some(_) => "0-1",
            None => "1/2-1/2",
        };
        let reason = match over.ending {
            Ending::Rules(reason) => reason.as_str(),
            Ending::Resigned(_) => "resignation",
            Ending::MaxPlies => "max-plies",
        };
        GameRecord {
            game: G::NAME.to_string(),
            red: "self-play".to_string(),
            black: "self-play".to_string(),
            start: start.to_text(),
            moves: texts,
            result: result.to_string(),
            reason: reason.to_string(),
            round: self.waiting.games() as u32,
            opening: None,
        }
    }

    /// Writes the waiting games as a shard and its PGN, if any game waits, and counts the
    /// shard in `progress`.
    pub fn write(&mut self, progress: &SelfPlayProgress) -> Result<(), ShardError> {
        if self.waiting.games() == 0 {
            return Ok(());
        }
        let millis = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis());
        let name = format!("{}-{millis}-{}-{}-{}", self.prefix, writer(), self.worker, self.shards);
        let shard = self.dir.join(format!("{name}.npz"));
        write_shard(&shard, &self.waiting)?;
        let pgn = self.dir.join(format!("{name}.pgn"));
        storage::write(&pgn, self.pgn.as_bytes()).map_err(|e| ShardError::Write { path: pgn, why: e.to_string() })?;
        self.waiting = Samples::new(self.waiting.shape());
        self.pgn.clear();
        self.shards += 1;
        SelfPlayProgress::add(&progress.shards, 1);
        Ok(())
    }
}

/// This process among all that write shards into one run, on any machine: the host's
/// name (letters, digits and `-`; a Kubernetes pod's own name) and the process id,
/// `xiangqi-zero-selfplay-x7k2p-1`.
fn writer() -> &'static str {
    static WRITER: OnceLock<String> = OnceLock::new();
    WRITER.get_or_init(|| {
        let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
            .or_else(|_| std::env::var("HOSTNAME"))
            .or_else(|_| std::env::var("COMPUTERNAME"))
            .unwrap_or_default();
        let host: String =
            host.trim().chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).take(63).collect();
        let host = if host.is_empty() { "host" } else { &host };
        format!("{host}-{}", std::process::id())
    })
}

/// The text of `mv` played in `position`, with the chance outcomes that led to `next`
/// (the position the game went on from) appended as `:outcome`.
fn move_text<G: Game>(position: &G, mv: G::Move, next: &G) -> String {
    let mut text = mv.to_string();
    let mut game = position.clone();
    game.play(mv);
    let mut outcomes = Vec::new();
    while game.is_chance() {
        game.chance_outcomes(&mut outcomes);
        // The outcome that gives `next` (a later chance point cannot be checked yet).
        let leads_on = |&&(outcome, _): &&(G::Outcome, f32)| {
            let mut after = game.clone();
            after.apply_outcome(outcome);
            after.is_chance() || after.hash() == next.hash()
        };
        let Some(&(outcome, _)) = outcomes.iter().find(leads_on) else { break };
        text += &format!(":{outcome}");
        game.apply_outcome(outcome);
    }
    text
}

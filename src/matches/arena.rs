//! The arena: two players, many games from a list of starts, each start played with both
//! colours, games in parallel, the rules core as the only judge.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use rand::rngs::StdRng;
use rand::SeedableRng;

use super::adjudication::{Adjudication, Referee, Verdict};
use super::resume::{keep_setup, saved_games};
use super::starts::Start;
use super::{Score, Sprt, SprtDecision};
use crate::game::xiangqi::Notation;
use crate::game::{sample_outcome, Game, Player as Seat, Status};
use crate::players::{Playable, Player, PlayerSpec};
use crate::records::{move_entry, GameRecord};
use crate::search::{Limits, Report};
use crate::storage;

/// How a match is run.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Number of games (rounded up to whole pairs).
    pub games: u32,
    /// Games played at once.
    pub concurrency: usize,
    /// Time per move given to both players, replacing their own limits.
    pub movetime: Option<Duration>,
    /// Stop early when the test is decided.
    pub sprt: Option<Sprt>,
    /// Where to save `games.jsonl` and `games.pgn`.
    pub out: Option<PathBuf>,
    /// Go on with the match saved in `out`: its games count and are not played again. An
    /// SPRT is judged afresh on them (games in flight when it stopped were saved too).
    pub resume: bool,
    /// A game still going after this many plies is adjudicated a draw.
    pub max_plies: usize,
    /// Games given up or drawn earlier by the players' agreeing scores.
    pub adjudication: Adjudication,
    /// Seed of the players' random choices.
    pub seed: u64,
    /// Show a live progress bar.
    pub progress: bool,
    /// The notation of the moves in `games.pgn`.
    pub notation: Notation,
}

impl MatchConfig {
    /// The settings that shape every game beyond its players and starts, `rules` (the
    /// starts' rule options) among them, as `setup.txt` beside the saved games holds them.
    pub fn setup_text(&self, rules: &str) -> String {
        let movetime = self.movetime.map_or("their own".to_string(), |t| format!("{} ms", t.as_millis()));
        format!(
            "time per move: {movetime}\nply limit: {}\nadjudication: {:?}\nseed: {}\nrules: {rules}\n",
            self.max_plies, self.adjudication, self.seed
        )
    }
}

/// What a match produced.
#[derive(Clone, Debug)]
pub struct MatchResult {
    /// Player A's name.
    pub a: String,
    /// Player B's name.
    pub b: String,
    /// Wins, draws and losses from A's point of view.
    pub score: Score,
    /// Every game, in round order.
    pub records: Vec<GameRecord>,
    /// The SPRT's verdict, if one was asked for and reached.
    pub sprt: Option<SprtDecision>,
    /// How many of the games were read back from a saved match ([`MatchConfig::resume`]).
    pub resumed: usize,
}

/// How one game ended.
struct Played {
    record: GameRecord,
    /// 1 if the player who moved first won, 0 if they lost, ½ for a draw.
    first_points: f64,
    /// Whether the player who moved first plays Red.
    first_is_red: bool,
}

/// Plays the match between `a` and `b` over `starts` (cycled), game 2k with A moving
/// first and game 2k+1 with B moving first from the same start.
pub fn run_match<G: Playable>(
    a: &PlayerSpec,
    b: &PlayerSpec,
    starts: &[Start<G>],
    config: &MatchConfig,
) -> Result<MatchResult, String> {
    if starts.is_empty() {
        return Err("no start positions".into());
    }
    let games = config.games.div_ceil(2) as usize * 2;
    // Start each player once now, so that an engine that cannot start stops the match
    // with its error instead of forfeiting every game.
    let names = (probe::<G>(a, "A", config.seed)?, probe::<G>(b, "B", config.seed)?);
    if let Some(dir) = &config.out {
        keep_setup(dir, &config.setup_text(&starts[0].game.rules_text()), config.resume)?;
    }
    let (saved, score) = match (&config.out, config.resume) {
        (Some(dir), true) => saved_games(dir, starts, games, (&names.0, &names.1))?,
        (None, true) => return Err("a match resumes from the directory it saves to: give it one".into()),
        (_, false) => (Vec::new(), Score::default()),
    };
    let resumed = saved.len();
    let mut saved_round = vec![false; games];
    saved.iter().for_each(|record| saved_round[record.round as usize - 1] = true);
    let next = AtomicUsize::new(0);
    let decision = config.sprt.as_ref().and_then(|sprt| sprt.decision(&score));
    let stop = AtomicBool::new(decision.is_some());
    let state = Mutex::new((score, saved, decision));
    let bar = progress_bar(config.progress, games as u64);
    bar.inc(resumed as u64);
    bar.reset_eta();
    let workers = config.concurrency.clamp(1, games.max(1));
    let failure = Mutex::new(None::<String>);
    std::thread::scope(|scope| {
        for worker in 0..workers {
            let (next, stop, state, bar, failure, names, saved_round) =
                (&next, &stop, &state, &bar, &failure, &names, &saved_round);
            scope.spawn(move || {
                let seed = config.seed.wrapping_add(worker as u64 * 2);
                let players = G::player(a, seed).and_then(|pa| G::player(b, seed + 1).map(|pb| (pa, pb)));
                let (mut player_a, mut player_b) = match players {
                    Ok(pair) => pair,
                    Err(error) => {
                        *failure.lock().unwrap_or_else(|e| e.into_inner()) = Some(error);
                        stop.store(true, Ordering::SeqCst);
                        return;
                    }
                };
                loop {
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    if index >= games || stop.load(Ordering::SeqCst) {
                        break;
                    }
                    if saved_round[index] {
                        continue;
                    }
                    let start = &starts[(index / 2) % starts.len()];
                    let a_first = index % 2 == 0;
                    let (first, second): (&mut dyn Player<G>, &mut dyn Player<G>) = if a_first {
                        (player_a.as_mut(), player_b.as_mut())
                    } else {
                        (player_b.as_mut(), player_a.as_mut())
                    };
                    let seat_names = if a_first { (&names.0, &names.1) } else { (&names.1, &names.0) };
                    let mut played = play_game(first, second, start, config);
                    played.record.round = index as u32 + 1;
                    let (red, black) = if played.first_is_red { seat_names } else { (seat_names.1, seat_names.0) };
                    played.record.red = red.clone();
                    played.record.black = black.clone();
                    let a_points = if a_first { played.first_points } else { 1.0 - played.first_points };
                    let mut guard = state.lock().unwrap_or_else(|e| e.into_inner());
                    let (score, records, decision) = &mut *guard;
                    match a_points {
                        p if p > 0.75 => score.wins += 1,
                        p if p < 0.25 => score.losses += 1,
                        _ => score.draws += 1,
                    }
                    records.push(played.record);
                    records.sort_by_key(|r| r.round);
                    if let Some(dir) = &config.out {
                        if let Err(error) = save(dir, records, config.notation) {
                            *failure.lock().unwrap_or_else(|e| e.into_inner()) = Some(error);
                            stop.store(true, Ordering::SeqCst);
                        }
                    }
                    if let (Some(sprt), None) = (&config.sprt, *decision) {
                        // Games already in flight still count, but the verdict stands.
                        *decision = sprt.decision(score);
                        if decision.is_some() {
                            stop.store(true, Ordering::SeqCst);
                        }
                    }
                    bar.set_message(format!(
                        "{}-{}-{} ({:.1}%)",
                        score.wins,
                        score.draws,
                        score.losses,
                        100.0 * score.fraction()
                    ));
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    if let Some(error) = failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(error);
    }
    let (score, records, sprt) = state.into_inner().unwrap_or_else(|e| e.into_inner());
    Ok(MatchResult { a: names.0, b: names.1, score, records, sprt, resumed })
}

/// Builds and starts the player `spec` once, returning its name.
fn probe<G: Playable>(spec: &PlayerSpec, label: &str, seed: u64) -> Result<String, String> {
    let mut player = G::player(spec, seed).map_err(|e| format!("player {label}: {e}"))?;
    player.new_game().map_err(|e| format!("player {label}: {e}"))?;
    Ok(player.name())
}

fn progress_bar(visible: bool, games: u64) -> ProgressBar {
    if !visible {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(games);
    let style = ProgressStyle::with_template("{bar:30} {pos}/{len} games  W-D-L {msg}  {elapsed}<{eta}")
        .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    bar
}

/// Writes `games.jsonl` and `games.pgn` (its moves in `notation`) into `dir`, each
/// replaced whole.
fn save(dir: &std::path::Path, records: &[GameRecord], notation: Notation) -> Result<(), String> {
    storage::create_dir(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let jsonl: String = records.iter().map(|r| r.to_json_line() + "\n").collect();
    let pgn: String = records.iter().map(|r| r.to_pgn("xiangqi-zero eval", notation) + "\n").collect();
    for (name, text) in [("games.jsonl", jsonl), ("games.pgn", pgn)] {
        let path = dir.join(name);
        storage::write(&path, text.as_bytes()).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

/// Plays one game; a player that fails to move loses it, and one that gives no move
/// claims a draw, which is granted; the reason is recorded.
fn play_game<'p, G: Game>(
    first: &'p mut dyn Player<G>,
    second: &'p mut dyn Player<G>,
    start: &Start<G>,
    config: &MatchConfig,
) -> Played {
    let mut game = start.game.clone();
    let mut rng = StdRng::seed_from_u64(start.seed);
    let first_seat = game.to_move();
    let mut moves = Vec::new();
    let limits = Limits { movetime: config.movetime, ..Limits::default() };
    let finish = |winner: Option<Seat>, reason: String, moves: Vec<String>, red: Option<Seat>| {
        let red = red.unwrap_or(Seat::First);
        Played {
            record: GameRecord {
                game: G::NAME.to_string(),
                red: String::new(),
                black: String::new(),
                start: start.game.to_text(),
                moves,
                result: match winner {
                    Some(w) if w == red => "1-0",
                    Some(_) => "0-1",
                    None => "1/2-1/2",
                }
                .to_string(),
                reason,
                round: 0,
                opening: start.opening.clone(),
            },
            first_points: match winner {
                Some(w) if w == first_seat => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            },
            first_is_red: first_seat == red,
        }
    };
    for (seat, player) in [(first_seat, &mut *first), (first_seat.opponent(), &mut *second)] {
        if let Err(error) = player.new_game() {
            return finish(
                Some(seat.opponent()),
                format!("{} forfeits: {error}", player.name()),
                moves,
                game.red_player(),
            );
        }
    }
    let mut legal = Vec::new();
    let mut referee = Referee::new(config.adjudication);
    // The last move's mover and score, for the referee once the rules let the game go on.
    let mut scored = None;
    loop {
        if let Status::Over { winner, reason } = game.status() {
            return finish(winner, reason.to_string(), moves, game.red_player());
        }
        if let Some((mover, score)) = scored.take() {
            match referee.after_move(mover, score, moves.len()) {
                Some(Verdict::Resigns(loser)) => {
                    let name = if loser == first_seat { first.name() } else { second.name() };
                    let reason = format!("adjudication: {name} resigns");
                    return finish(Some(loser.opponent()), reason, moves, game.red_player());
                }
                Some(Verdict::Draw) => return finish(None, "adjudication: draw".to_string(), moves, game.red_player()),
                None => {}
            }
        }
        if moves.len() >= config.max_plies {
            return finish(None, "max-plies".to_string(), moves, game.red_player());
        }
        let seat: Seat = game.to_move();
        let player: &mut dyn Player<G> = if seat == first_seat { &mut *first } else { &mut *second };
        let answer = player.think(&game, &limits, &mut |_| {});
        game.legal_moves(&mut legal);
        let chosen = match answer {
            // The side to move has legal moves (the game is not over), so a player that
            // gives none claims a draw by its own rules; the arena grants it.
            Ok(Report { best: None, .. }) => {
                let reason = format!("{} claims a draw (gives no move)", player.name());
                return finish(None, reason, moves, game.red_player());
            }
            Ok(Report { best: Some(mv), score, .. }) if legal.contains(&mv) => Ok((mv, score)),
            Ok(Report { best: Some(mv), .. }) => Err(format!("illegal move `{mv}`")),
            Err(error) => Err(error.to_string()),
        };
        let (mv, score) = match chosen {
            Ok(chosen) => chosen,
            Err(why) => {
                return finish(
                    Some(seat.opponent()),
                    format!("{} loses: {why}", player.name()),
                    moves,
                    game.red_player(),
                )
            }
        };
        game.play(mv);
        let (mut choices, mut outcomes) = (Vec::new(), Vec::new());
        while game.is_chance() {
            game.chance_outcomes(&mut choices);
            let outcome = sample_outcome(&choices, &mut rng);
            outcomes.push(outcome);
            game.apply_outcome(outcome);
        }
        moves.push(move_entry::<G>(mv, &outcomes));
        scored = Some((seat, score));
    }
}

//! The run's evaluation: a ladder of fixed players (`[evaluation] ladder`) rated once by a
//! round robin among themselves and kept in `ladder.json`, and each evaluated net played
//! against every rung and placed on that one Elo scale.

use serde::{Deserialize, Serialize};

use super::config::{Config, FIRST_NET_RUNG};
use super::game::TrainableGame;
use super::metrics::{EloResult, LadderElo};
use super::run_dir::{generation_name, RunDir};
use super::run_error::{fail, RunError};
use crate::game::xiangqi::Notation;
use crate::matches::ratings::{place, round_robin_elo, Pairing, Rung};
use crate::matches::{run_match, Adjudication, MatchConfig, Score};
use crate::mcts::PlaySettings;
use crate::nn::NetSource;
use crate::players::PlayerSpec;
use crate::storage;

/// `ladder.json`: the rungs with their Elo and the round robin that rated them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct StoredLadder {
    rungs: Vec<Rung>,
    pairings: Vec<StoredPairing>,
}

/// One pairing of the round robin, as stored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct StoredPairing {
    a: String,
    b: String,
    wins: u32,
    draws: u32,
    losses: u32,
}

/// What an evaluation of one net measured: its score against each rung and its place on
/// the ladder.
pub struct Evaluation {
    /// The net's result against each rung, in the ladder's order.
    pub matches: Vec<EloResult>,
    /// Its Elo on the ladder.
    pub ladder: Option<LadderElo>,
}

/// Plays the net of generation `g` against every rung of the run's ladder (rating the
/// ladder first if `ladder.json` does not rate exactly the config's rungs) and places it.
pub fn evaluate_net<G: TrainableGame>(
    config: &Config,
    dir: &RunDir,
    g: u32,
    progress: bool,
) -> Result<Evaluation, RunError> {
    let rungs = rated_ladder::<G>(config, dir, progress)?;
    let mut matches = Vec::new();
    let mut results = Vec::new();
    for rung in &rungs {
        let opponent = (rung.player.as_str(), player(config, dir, &rung.player)?);
        let score = play::<G>(config, dir, (&generation_name(g), net(config, dir, g)), opponent, progress)?;
        results.push((rung.elo, score));
        matches.push(EloResult::from_score(&rung.player, score.wins.into(), score.draws.into(), score.losses.into()));
    }
    let ladder = place(&results).map(|placement| LadderElo { placement, rungs });
    Ok(Evaluation { matches, ladder })
}

/// The rungs of the config's ladder with their Elo: from `ladder.json` when it rates
/// exactly these players, else from a round robin played now (and stored).
fn rated_ladder<G: TrainableGame>(config: &Config, dir: &RunDir, progress: bool) -> Result<Vec<Rung>, RunError> {
    let names = &installed_rungs(config)?;
    if let Ok(bytes) = storage::read(&dir.ladder()) {
        let stored: StoredLadder =
            serde_json::from_slice(&bytes).map_err(|e| RunError(format!("`{}`: {e}", dir.ladder().display())))?;
        if stored.rungs.iter().map(|r| &r.player).eq(names.iter()) {
            return Ok(stored.rungs);
        }
    }
    println!("rating the ladder ({}): a round robin of {} games a pairing", names.join(", "), config.evaluation.games);
    let players: Vec<PlayerSpec> = names.iter().map(|name| player(config, dir, name)).collect::<Result<_, _>>()?;
    let mut pairings = Vec::new();
    for a in 0..names.len() {
        for b in a + 1..names.len() {
            let (pa, pb) = ((names[a].as_str(), players[a].clone()), (names[b].as_str(), players[b].clone()));
            let score = play::<G>(config, dir, pa, pb, progress)?;
            pairings.push(Pairing { a, b, score });
        }
    }
    let elo = round_robin_elo(names.len(), &pairings, 0.0);
    let rungs: Vec<Rung> = names.iter().zip(elo).map(|(player, elo)| Rung { player: player.clone(), elo }).collect();
    let stored = StoredLadder {
        rungs: rungs.clone(),
        pairings: pairings
            .iter()
            .map(|p| StoredPairing {
                a: names[p.a].clone(),
                b: names[p.b].clone(),
                wins: p.score.wins,
                draws: p.score.draws,
                losses: p.score.losses,
            })
            .collect(),
    };
    let text = serde_json::to_string_pretty(&stored).map_err(fail)?;
    storage::write(&dir.ladder(), text.as_bytes())
        .map_err(|e| RunError(format!("`{}`: {e}", dir.ladder().display())))?;
    let line: Vec<String> = rungs.iter().map(|r| format!("{} {:+.0}", r.player, r.elo)).collect();
    println!("ladder: {}", line.join(", "));
    Ok(rungs)
}

/// The config's rungs but those whose external engine is not installed, which are left
/// out (in one printed line) rather than failing the run: when installed later, they
/// join the round robin of the others.
fn installed_rungs(config: &Config) -> Result<Vec<String>, RunError> {
    let mut installed = Vec::new();
    let mut missing = Vec::new();
    for name in &config.evaluation.ladder {
        match name.parse() {
            Ok(PlayerSpec::Engine(engine)) if !engine.is_installed() => {
                missing.push(format!("{name} (`{}` not found)", engine.command[0]))
            }
            _ => installed.push(name.clone()),
        }
    }
    if !missing.is_empty() {
        println!("ladder: leaving out {}: not installed", missing.join(", "));
    }
    if installed.is_empty() {
        return Err(RunError("evaluation.ladder: none of its players is installed".to_string()));
    }
    Ok(installed)
}

/// The net of generation `g`, searched with the evaluation's simulations and the
/// self-play search's help from the rules (quiet leaves, rules priors).
fn net(config: &Config, dir: &RunDir, g: u32) -> PlayerSpec {
    let search = config.search.for_play(config.evaluation.simulations);
    PlayerSpec::Net {
        net: NetSource::File(dir.model(g)),
        play: PlaySettings::of(&search),
        config: search,
        device: "cpu".to_string(),
    }
}

/// The player a rung names: the run's first net for `gen0000`, else the player spec.
fn player(config: &Config, dir: &RunDir, rung: &str) -> Result<PlayerSpec, RunError> {
    if rung == FIRST_NET_RUNG {
        return Ok(net(config, dir, 0));
    }
    rung.parse().map_err(|why| RunError(format!("evaluation.ladder: `{rung}`: {why}")))
}

/// Plays an evaluation match of `a` against `b` (each a name and a player), saving its
/// games under `eval/NAME-vs-NAME/`; returns `a`'s score.
fn play<G: TrainableGame>(
    config: &Config,
    dir: &RunDir,
    (a_name, a): (&str, PlayerSpec),
    (b_name, b): (&str, PlayerSpec),
    progress: bool,
) -> Result<Score, RunError> {
    let e = &config.evaluation;
    let starts = G::eval_starts(config, e.games).map_err(RunError)?;
    let name = format!("{a_name}-vs-{b_name}").replace([':', ',', '=', '(', ')', '/', ' '], "-");
    let match_config = MatchConfig {
        games: e.games,
        concurrency: e.concurrency,
        movetime: None,
        sprt: None,
        out: Some(dir.root().join("eval").join(name)),
        resume: false,
        max_plies: e.max_plies,
        adjudication: Adjudication::default(),
        seed: config.seed,
        progress,
        notation: Notation::Iccs,
    };
    Ok(run_match(&a, &b, &starts, &match_config).map_err(RunError)?.score)
}

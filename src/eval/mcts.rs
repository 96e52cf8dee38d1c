//! `mcts:` — Monte Carlo tree search with a built-in evaluator as a player, so the search
//! can be tried and measured before any network exists. `go nodes N` sets the
//! simulations, `go movetime` the time, `go infinite` searches until `stop`; the tree is
//! kept from move to move.

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

use super::{Player, PlayerError};
use crate::game::Game;
use crate::mcts::{
    Budget, Evaluator, Material, MaterialEvaluator, RootSelection, Search, SearchConfig, SearchResult, UniformEvaluator,
};
use crate::search::{Limits, Report, Score};

/// The built-in evaluators a spec can name.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum BuiltinEvaluator {
    /// Flat priors, value 0.
    Uniform,
    /// Priors from captures and checks, value from the material balance.
    #[default]
    Material,
}

impl FromStr for BuiltinEvaluator {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "uniform" => Ok(BuiltinEvaluator::Uniform),
            "material" => Ok(BuiltinEvaluator::Material),
            other => Err(format!("unknown evaluator `{other}` (uniform, material)")),
        }
    }
}

impl fmt::Display for BuiltinEvaluator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BuiltinEvaluator::Uniform => "uniform",
            BuiltinEvaluator::Material => "material",
        })
    }
}

/// A `go depth` at least this deep means "until stopped" (`go infinite`).
const UNTIL_STOPPED_DEPTH: u32 = 100;
/// How often a long search reports.
const INFO_EVERY: Duration = Duration::from_secs(1);

/// The MCTS player: a search with its own evaluator, keeping its tree between moves.
pub struct MctsPlayer<G: Game, E> {
    name: String,
    config: SearchConfig,
    evaluator: E,
    search: Option<Search<G>>,
    seed: u64,
}

impl<G: Game, E: Evaluator<G>> MctsPlayer<G, E> {
    /// A player searching under `config` with `evaluator`; `name` is its spec.
    pub fn new(name: String, config: SearchConfig, evaluator: E, seed: u64) -> Self {
        MctsPlayer { name, config, evaluator, search: None, seed }
    }
}

/// The player of an `mcts:` spec.
pub fn mcts_player<G: Material>(config: &SearchConfig, evaluator: BuiltinEvaluator, seed: u64) -> Box<dyn Player<G>> {
    let name = spec_name(config, evaluator);
    match evaluator {
        BuiltinEvaluator::Uniform => Box::new(MctsPlayer::new(name, config.clone(), UniformEvaluator::new(), seed)),
        BuiltinEvaluator::Material => {
            Box::new(MctsPlayer::new(name, config.clone(), MaterialEvaluator::default(), seed))
        }
    }
}

/// The spec text of a player: `mcts:sims=400,eval=material` (and the batch and root
/// when not the default).
pub fn spec_name(config: &SearchConfig, evaluator: BuiltinEvaluator) -> String {
    let mut name = format!("mcts:sims={},eval={evaluator}", config.simulations);
    if config.batch_size != SearchConfig::default().batch_size {
        name += &format!(",batch={}", config.batch_size);
    }
    if config.root == RootSelection::Gumbel {
        name += ",root=gumbel";
    }
    name
}

/// The search config of an `mcts:` spec's options (`sims`, `eval`, `batch`, `root`),
/// with the evaluator named.
pub fn parse_options<'a>(
    options: impl Iterator<Item = (&'a str, &'a str)>,
) -> Result<(SearchConfig, BuiltinEvaluator), String> {
    let mut config = SearchConfig::default();
    let mut evaluator = BuiltinEvaluator::default();
    for (key, value) in options {
        let number = |what: &str| {
            value.parse::<u64>().ok().filter(|&n| n >= 1).ok_or(format!("`{key}` needs {what}, not `{value}`"))
        };
        match key {
            "sims" => config.simulations = number("a number of simulations")?.min(u32::MAX as u64) as u32,
            "batch" => config.batch_size = number("a batch size")?.min(4096) as usize,
            "eval" => evaluator = value.parse()?,
            "root" => {
                config.root = match value {
                    "puct" => RootSelection::Puct,
                    "gumbel" => RootSelection::Gumbel,
                    _ => return Err(format!("`root` is puct or gumbel, not `{value}`")),
                }
            }
            _ => return Err(format!("unknown option `{key}` (sims, eval, batch, root)")),
        }
    }
    Ok((config, evaluator))
}

/// A centipawn score for a value in [−1, 1] (lc0's mapping: 1 soldier ≈ 0.3).
pub fn centipawns(value: f32) -> i32 {
    let v = value.clamp(-0.999, 0.999) as f64;
    (111.714640912 * (1.5620688421 * v).tan()).round() as i32
}

impl<G: Game, E: Evaluator<G> + Send> Player<G> for MctsPlayer<G, E> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self) -> Result<(), PlayerError> {
        self.search = None;
        Ok(())
    }

    fn think(
        &mut self,
        game: &G,
        limits: &Limits,
        info: &mut dyn FnMut(&Report<G::Move>),
    ) -> Result<Report<G::Move>, PlayerError> {
        let started = Instant::now();
        let search = match &mut self.search {
            Some(search) => {
                search.set_position(game);
                search
            }
            None => self.search.insert(Search::new(game.clone(), self.config.clone(), self.seed)),
        };
        let until_stopped = limits.depth.is_some_and(|d| d >= UNTIL_STOPPED_DEPTH) && limits.stop.is_some();
        let simulations = match (limits.nodes, limits.movetime) {
            (Some(nodes), _) => nodes.clamp(1, u32::MAX as u64) as u32,
            (None, Some(_)) => u32::MAX,
            (None, None) if until_stopped => u32::MAX,
            (None, None) => self.config.simulations,
        };
        let budget =
            Budget { simulations, deadline: limits.movetime.map(|t| started + t), stop: limits.stop.as_deref() };
        let mut last_info = started;
        let result = search.run_with(&mut self.evaluator, &budget, &mut |search| {
            if last_info.elapsed() >= INFO_EVERY {
                last_info = Instant::now();
                info(&report(&search.result(), started));
            }
        });
        let report = report(&result, started);
        info(&report);
        match (report.best, search.choose_move(game.plies_played())) {
            (Some(best), Some(chosen)) if best == chosen => Ok(report),
            (Some(_), Some(chosen)) => Ok(Report { best: Some(chosen), pv: vec![chosen], ..report }),
            _ => Err(PlayerError::Protocol("the search found no move".into())),
        }
    }
}

/// A search result as a `Report`: simulations as nodes, the value as centipawns, the
/// most visited line as the principal variation.
fn report<M: Copy>(result: &SearchResult<M>, started: Instant) -> Report<M> {
    Report {
        depth: result.pv.len() as u32,
        seldepth: result.depth,
        score: Score::Cp(centipawns(result.value)),
        nodes: result.simulations as u64,
        elapsed: started.elapsed(),
        best: result.best,
        pv: result.pv.clone(),
    }
}

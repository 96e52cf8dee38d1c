//! `mcts:` — Monte Carlo tree search with a built-in evaluator as a player, so the search
//! can be tried and measured before any network exists (and the search of `net:`).
//!
//! As an engine: `go nodes N` runs N simulations; `go movetime` (or the time the clock
//! allows) stops before a further evaluator call would overrun it; `go depth N` stops
//! once the principal variation is N plies long, after at most 64·N² simulations (a line
//! ending in a finished game grows no longer); `go infinite` searches until `stop`. A
//! move that wins at once is played with `score mate 1`, no deeper mate is claimed; other
//! scores are centipawns from the value. With `MultiPV` the lines of the most visited
//! root moves are reported ranked by their own values, the best first; the move played
//! stays the search's choice (the most visited). `Threads` sizes the pool the evaluator
//! runs in, `Batch` the leaves per evaluator call. The tree is kept from move to move,
//! and `nodes` counts the visits of the root's moves, those of the kept tree included.

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rayon::{ThreadPool, ThreadPoolBuilder};

use super::{Player, PlayerError, SpinOption};
use crate::game::{Game, Status};
use crate::mcts::{
    Batch, Budget, Evaluator, Material, MaterialEvaluator, RootSelection, Search, SearchConfig, SearchResult,
    UniformEvaluator,
};
use crate::search::{Limits, Line, Report, Score};

/// The built-in evaluators a spec can name.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum BuiltinEvaluator {
    /// Flat priors, value 0.
    Uniform,
    /// Priors from captures and checks, value from the material balance.
    #[default]
    Material,
    /// As `Material`, the balance taken once the captures on the board settle
    /// ([`Material::settled_material`]).
    Settled,
}

impl FromStr for BuiltinEvaluator {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "uniform" => Ok(BuiltinEvaluator::Uniform),
            "material" => Ok(BuiltinEvaluator::Material),
            "settled" => Ok(BuiltinEvaluator::Settled),
            "quiescence" => Err("`eval=quiescence` is now called `eval=settled`".to_string()),
            other => Err(format!("unknown evaluator `{other}` (uniform, material, settled)")),
        }
    }
}

impl fmt::Display for BuiltinEvaluator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BuiltinEvaluator::Uniform => "uniform",
            BuiltinEvaluator::Material => "material",
            BuiltinEvaluator::Settled => "settled",
        })
    }
}

/// `go depth N` runs at most this many times N² simulations.
const DEPTH_SIMULATIONS: u64 = 64;
/// How often a long search reports.
const INFO_EVERY: Duration = Duration::from_secs(1);
/// The most threads `Threads` may ask for.
const MAX_THREADS: usize = 256;
/// The largest batch `Batch` may ask for.
const MAX_BATCH: usize = 4096;
/// The most lines `MultiPV` may ask for.
pub const MAX_MULTI_PV: usize = 128;

/// The MCTS player: a search with its own evaluator, keeping its tree between moves.
pub struct MctsPlayer<G: Game, E> {
    name: String,
    config: SearchConfig,
    evaluator: E,
    search: Option<Search<G>>,
    seed: u64,
    /// The thread pool the evaluator runs in (`None`: rayon's global pool), and its size.
    pool: Option<ThreadPool>,
    threads: usize,
    /// Root moves reported with their lines (UCI's `MultiPV`).
    multi_pv: usize,
}

impl<G: Game, E: Evaluator<G>> MctsPlayer<G, E> {
    /// A player searching under `config` with `evaluator`; `name` is its spec.
    pub fn new(name: String, config: SearchConfig, evaluator: E, seed: u64) -> Self {
        MctsPlayer {
            name,
            config,
            evaluator,
            search: None,
            seed,
            pool: None,
            threads: rayon::current_num_threads(),
            multi_pv: 1,
        }
    }
}

/// An evaluator run inside a thread pool of its own (rayon's global pool without one).
struct InPool<'a, E> {
    evaluator: &'a mut E,
    pool: Option<&'a ThreadPool>,
}

impl<G: Game, E: Evaluator<G> + Send> Evaluator<G> for InPool<'_, E> {
    fn evaluate(&mut self, batch: &mut Batch<G>) {
        match self.pool {
            Some(pool) => pool.install(|| self.evaluator.evaluate(batch)),
            None => self.evaluator.evaluate(batch),
        }
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
        BuiltinEvaluator::Settled => {
            Box::new(MctsPlayer::new(name, config.clone(), MaterialEvaluator::settled(), seed))
        }
    }
}

/// The spec text of a player: `mcts:sims=400,eval=material` (and the [`search_options`]
/// that are not the default).
pub fn spec_name(config: &SearchConfig, evaluator: BuiltinEvaluator) -> String {
    format!("mcts:sims={},eval={evaluator}{}", config.simulations, search_options(config))
}

/// The options of a search that are not the default, each after a comma as a spec writes
/// them: `,batch=N`, `,root=gumbel`, `,cpuct=C`, `,fpu=F` (empty for none).
pub fn search_options(config: &SearchConfig) -> String {
    let default = SearchConfig::default();
    let mut options = String::new();
    if config.batch_size != default.batch_size {
        options += &format!(",batch={}", config.batch_size);
    }
    if config.root == RootSelection::Gumbel {
        options += ",root=gumbel";
    }
    if config.c_puct != default.c_puct {
        options += &format!(",cpuct={}", config.c_puct);
    }
    if config.fpu_reduction != default.fpu_reduction {
        options += &format!(",fpu={}", config.fpu_reduction);
    }
    options
}

/// The search config of an `mcts:` spec's options (`sims`, `eval`, `batch`, `root`, and
/// lc0's `cpuct` and `fpu`: the exploration constant and the first-play-urgency reduction
/// below the root), with the evaluator named.
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
            "cpuct" | "fpu" => {
                let number = crate::mcts::non_negative(key, value)?;
                if key == "cpuct" {
                    config.c_puct = number;
                } else {
                    config.fpu_reduction = number;
                }
            }
            "root" => {
                config.root = match value {
                    "puct" => RootSelection::Puct,
                    "gumbel" => RootSelection::Gumbel,
                    _ => return Err(format!("`root` is puct or gumbel, not `{value}`")),
                }
            }
            _ => return Err(format!("unknown option `{key}` (sims, eval, batch, root, cpuct, fpu)")),
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

    fn options(&self) -> Vec<SpinOption> {
        vec![
            SpinOption { name: "Threads", default: self.threads, min: 1, max: MAX_THREADS },
            SpinOption { name: "Batch", default: self.config.batch_size, min: 1, max: MAX_BATCH },
            SpinOption { name: "MultiPV", default: 1, min: 1, max: MAX_MULTI_PV },
        ]
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        let number = |max: usize| {
            value
                .trim()
                .parse::<usize>()
                .ok()
                .filter(|n| (1..=max).contains(n))
                .ok_or_else(|| format!("`{name}` needs a number from 1 to {max}, not `{value}`"))
        };
        if name.eq_ignore_ascii_case("Threads") {
            let threads = number(MAX_THREADS)?;
            let pool = ThreadPoolBuilder::new().num_threads(threads).build().map_err(|e| e.to_string())?;
            (self.pool, self.threads) = (Some(pool), threads);
        } else if name.eq_ignore_ascii_case("Batch") {
            self.config.batch_size = number(MAX_BATCH)?;
            if let Some(search) = &mut self.search {
                search.set_config(self.config.clone());
            }
        } else if name.eq_ignore_ascii_case("MultiPV") {
            self.multi_pv = number(MAX_MULTI_PV)?;
        } else {
            return Err(format!("unknown option `{name}` (Threads, Batch, MultiPV)"));
        }
        Ok(())
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
        if let Some(win) = winning_move(game) {
            let report = Report {
                depth: 1,
                seldepth: 1,
                score: Score::Mate(1),
                nodes: 0,
                searched: 0,
                elapsed: started.elapsed(),
                best: Some(win),
                pv: vec![win],
                more: Vec::new(),
            };
            info(&report);
            return Ok(report);
        }
        let multi_pv = self.multi_pv;
        let search = match &mut self.search {
            Some(search) => {
                search.set_position(game);
                search
            }
            None => self.search.insert(Search::new(game.clone(), self.config.clone(), self.seed)),
        };
        let until_stopped = limits.infinite && limits.stop.is_some();
        let depth = limits.depth.filter(|_| !until_stopped).map(|d| d.max(1) as usize);
        let simulations = match (limits.nodes, depth) {
            (Some(nodes), _) => nodes,
            (None, Some(depth)) => DEPTH_SIMULATIONS * (depth * depth) as u64,
            (None, None) if until_stopped || limits.movetime.is_some() => u32::MAX as u64,
            (None, None) => self.config.simulations as u64,
        }
        .clamp(1, u32::MAX as u64) as u32;
        let deadline = limits.movetime.map(|t| started + t);
        // Set to end the search: by `stop`, the deadline, or the depth reached.
        let enough = AtomicBool::new(false);
        let budget = Budget { simulations, deadline, stop: Some(&enough) };
        let (mut last_info, mut last_call, mut longest_call) = (started, started, Duration::ZERO);
        let mut evaluator = InPool { evaluator: &mut self.evaluator, pool: self.pool.as_ref() };
        let result = search.run_with(&mut evaluator, &budget, &mut |search| {
            let now = Instant::now();
            longest_call = longest_call.max(now - last_call);
            last_call = now;
            let stopped = limits.stop.as_ref().is_some_and(|stop| stop.load(Ordering::Relaxed));
            // Stop rather than start an evaluator call that may end past the deadline.
            let late = deadline.is_some_and(|deadline| now + longest_call >= deadline);
            let deep = depth.is_some_and(|depth| search.result().pv.len() >= depth);
            if stopped || late || deep {
                enough.store(true, Ordering::Relaxed);
            }
            if now - last_info >= INFO_EVERY {
                last_info = now;
                info(&report(&search.result(), lines(search, multi_pv), started));
            }
        });
        let report = report(&result, lines(search, multi_pv), started);
        info(&report);
        match (report.best, search.choose_move(game.plies_played())) {
            (Some(best), Some(chosen)) if best == chosen => Ok(report),
            (Some(_), Some(chosen)) => Ok(Report { best: Some(chosen), pv: vec![chosen], ..report }),
            _ => Err(PlayerError::Protocol("the search found no move".into())),
        }
    }
}

/// A legal move of `game` after which its mover has won (mate in one, or a win by rule).
fn winning_move<G: Game>(game: &G) -> Option<G::Move> {
    let mover = game.to_move();
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves.into_iter().find(|&mv| {
        let mut next = game.clone();
        next.play(mv);
        matches!(next.status(), Status::Over { winner: Some(winner), .. } if winner == mover)
    })
}

/// The lines of a search's `multi_pv` most visited root moves, each scored by its own
/// value (none for 1).
fn lines<G: Game>(search: &Search<G>, multi_pv: usize) -> Vec<Line<G::Move>> {
    if multi_pv <= 1 {
        return Vec::new();
    }
    let lines = search.root_lines(multi_pv).into_iter();
    lines.map(|(value, pv)| Line { score: Score::Cp(centipawns(value)), pv }).collect()
}

/// A search result as a `Report`: the visits of the root's moves as nodes (the kept tree's
/// included, as lc0 counts them: an answer from a tree an earlier search grew rests on
/// those), the
/// value as centipawns, the most visited line as the principal variation; with MultiPV
/// `lines`, those ranked by their scores instead, the best first.
fn report<M: Copy>(result: &SearchResult<M>, lines: Vec<Line<M>>, started: Instant) -> Report<M> {
    let mut report = Report {
        more: Vec::new(),
        depth: result.pv.len() as u32,
        seldepth: result.depth,
        score: match result.proven_end {
            Some(plies) => Score::mate_within(plies),
            None => Score::Cp(centipawns(result.value)),
        },
        nodes: result.moves.iter().map(|m| m.visits as u64).sum(),
        searched: result.simulations as u64,
        elapsed: started.elapsed(),
        best: result.best,
        pv: result.pv.clone(),
    };
    if lines.len() > 1 {
        report.rank_lines(lines);
    }
    report
}

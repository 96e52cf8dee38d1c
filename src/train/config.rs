//! The training config: one TOML file (see `configs/`), possibly over a base config it
//! names ([`base`]), read through serde with every unknown key refused, naming the key,
//! the file and the line; keys since renamed or removed are read as [`old_keys`] says.
//!
//! Sections: the top level (`name`, `game`, `seed`, `device`), `[network]`, `[rules]`,
//! `[run]`, `[search]` (the MCTS settings; keys left out take the self-play preset
//! [`SearchConfig::training`]), `[selfplay]`, `[train]` and `[evaluation]`.

use std::path::Path;

use serde::{Deserialize, Deserializer, Serialize};

use super::TrainSettings;
use crate::game::xiangqi::RepetitionRule;
use crate::game::{banqi, xiangqi};
use crate::mcts::{MaterialEvaluator, SearchConfig};
use crate::nn::{Encoding, NetConfig, PolicyHead};
use crate::players::PlayerSpec;
use crate::selfplay::SelfPlaySettings;

mod base;
mod old_keys;

/// Why a config could not be read: one line naming the file.
#[derive(Debug, thiserror::Error)]
#[error("{file}: {why}")]
pub struct ConfigError {
    /// The file (or `<text>`).
    pub file: String,
    /// What is wrong, with the line where there is one.
    pub why: String,
}

/// The games a run can train.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameName {
    /// Chinese chess.
    Xiangqi,
    /// Dark chess.
    Banqi,
}

impl GameName {
    /// The game's name as the encoders and configs write it.
    pub fn as_str(self) -> &'static str {
        match self {
            GameName::Xiangqi => "xiangqi",
            GameName::Banqi => "banqi",
        }
    }
}

/// A whole training config.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// The run's name: its directory is `checkpoints/<name>/` unless `--run` says otherwise.
    pub name: String,
    /// `xiangqi` or `banqi`.
    pub game: GameName,
    /// Seed of self-play's random choices (noise, temperature, flips).
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// Where the network trains: `cpu`, or a GPU index in a build with `cuda` or `wgpu`.
    #[serde(default = "default_device")]
    pub device: String,
    /// The network's size.
    pub network: NetworkSettings,
    /// The game's rule options.
    #[serde(default)]
    pub rules: RuleSettings,
    /// How long the run goes.
    #[serde(default)]
    pub run: RunSettings,
    /// The self-play search.
    #[serde(default = "SearchConfig::training", deserialize_with = "training_search")]
    pub search: SearchConfig,
    /// Self-play workers.
    #[serde(default)]
    pub selfplay: SelfPlaySettings,
    /// Training steps, optimiser and replay window.
    #[serde(default)]
    pub train: TrainSettings,
    /// Evaluation matches.
    #[serde(default)]
    pub evaluation: EvaluationSettings,
}

fn default_seed() -> u64 {
    1
}

fn default_device() -> String {
    "cpu".to_string()
}

/// The `[search]` table over the self-play preset: keys left out keep the preset's value.
fn training_search<'de, D: Deserializer<'de>>(deserializer: D) -> Result<SearchConfig, D::Error> {
    let given = toml::Table::deserialize(deserializer)?;
    let mut merged = toml::Table::try_from(SearchConfig::training()).map_err(serde::de::Error::custom)?;
    merged.extend(given);
    SearchConfig::deserialize(merged).map_err(serde::de::Error::custom)
}

/// `[network]`: the ResNet's trunk.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NetworkSettings {
    /// Residual blocks.
    pub blocks: usize,
    /// Channels of the trunk.
    pub channels: usize,
    /// Whether the value logits also take the input planes' means, the piece counts
    /// (`NetConfig::count_value`).
    #[serde(default)]
    pub count_value: bool,
    /// The policy head: `dense` (AlphaZero's) or `attention` (`NetConfig::policy_head`).
    #[serde(default)]
    pub policy_head: PolicyHead,
    /// Whether the net also learns to predict the opponent's reply, KataGo's auxiliary
    /// policy target (`NetConfig::reply_policy`): training only, play never reads it.
    #[serde(default)]
    pub reply_policy: bool,
    /// Whether the net also learns the search's policy flattened, KataGo's auxiliary soft
    /// policy target (`NetConfig::soft_policy`): training only, play never reads it. Left
    /// out of a run's recorded config when off, which builds before the key still read.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub soft_policy: bool,
}

impl NetworkSettings {
    /// The shape of this net for game `G`.
    pub fn net_config<G: Encoding>(&self) -> NetConfig {
        NetConfig::new::<G>(self.blocks, self.channels)
            .with_count_value(self.count_value)
            .with_policy_head(self.policy_head)
            .with_reply_policy(self.reply_policy)
            .with_soft_policy(self.soft_policy)
    }
}

/// `[rules]`: the rule options of the game played (each game reads its own keys).
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RuleSettings {
    /// What a threefold repetition means: Xiangqi `asian` (its default), `repeater-loses`
    /// or `draw`; Banqi `draw` (its default) or `repeater-loses`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repetition: Option<String>,
    /// Xiangqi: plies without a capture that draw the game.
    pub no_capture_plies: u32,
    /// Banqi: plies without a flip or capture that draw the game.
    pub no_progress_plies: u32,
    /// Banqi: whether a capturing piece may go on capturing in the same turn.
    pub chain_captures: bool,
}

impl Default for RuleSettings {
    fn default() -> Self {
        let (x, b) = (xiangqi::Rules::default(), banqi::Rules::default());
        RuleSettings {
            repetition: None,
            no_capture_plies: x.no_capture_plies,
            no_progress_plies: b.no_progress_plies,
            chain_captures: b.chain_captures,
        }
    }
}

impl RuleSettings {
    /// The Xiangqi rules these settings give.
    pub fn xiangqi(&self) -> Result<xiangqi::Rules, String> {
        let repetition: RepetitionRule = match &self.repetition {
            Some(text) => text.parse().map_err(|e| format!("rules.repetition: {e}"))?,
            None => RepetitionRule::default(),
        };
        Ok(xiangqi::Rules { repetition, no_capture_plies: self.no_capture_plies })
    }

    /// The Banqi rules these settings give.
    pub fn banqi(&self) -> Result<banqi::Rules, String> {
        let repeater_loses = match self.repetition.as_deref() {
            None | Some("draw") => false,
            Some("repeater-loses") => true,
            Some(other) => {
                return Err(format!("rules.repetition: Banqi has `draw` or `repeater-loses`, not `{other}`"))
            }
        };
        Ok(banqi::Rules {
            no_progress_plies: self.no_progress_plies,
            chain_captures: self.chain_captures,
            repeater_loses,
        })
    }
}

/// `[run]`: the generation loop.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RunSettings {
    /// Generations to train (`--generations` overrides it).
    pub generations: u32,
    /// Self-play games per generation.
    pub games_per_generation: u64,
    /// The first this many generations play with the built-in material heuristic
    /// (`mcts::MaterialEvaluator`) instead of the net, so that a net from scratch first
    /// learns from games decided by material rather than from a random net's shuffling.
    pub bootstrap_generations: u32,
    /// Simulations of every move of the bootstrap generations' material search (0: the
    /// `[search]` settings as they are). When set, every move gets a full search (no
    /// playout cap): the material count is cheap, and the games it plays are only worth
    /// learning from when they are decided by material, not by 16-simulation blunders.
    pub bootstrap_simulations: u32,
    /// Whether the bootstrap search counts material once the captures settle
    /// (`mcts:eval=settled`) rather than as it stands, so that its games and values
    /// punish a piece left hanging.
    pub bootstrap_settled: bool,
}

impl RunSettings {
    /// The evaluator of the bootstrap generations.
    pub fn bootstrap_evaluator(&self) -> MaterialEvaluator {
        if self.bootstrap_settled {
            MaterialEvaluator::settled()
        } else {
            MaterialEvaluator::default()
        }
    }

    /// The search of the bootstrap generations: `search`, or with
    /// [`RunSettings::bootstrap_simulations`] a full search of that many at every move.
    pub fn bootstrap_search(&self, search: &SearchConfig) -> SearchConfig {
        if self.bootstrap_simulations == 0 {
            return search.clone();
        }
        SearchConfig { simulations: self.bootstrap_simulations, cheap_simulations: None, ..search.clone() }
    }
}

impl Default for RunSettings {
    fn default() -> Self {
        RunSettings {
            generations: 20,
            games_per_generation: 100,
            bootstrap_generations: 0,
            bootstrap_simulations: 0,
            bootstrap_settled: false,
        }
    }
}

/// A TOML error in `file`, with its line where the error has a place in `text`.
fn located(e: toml::de::Error, text: Option<&str>, file: &str) -> ConfigError {
    let line = text.zip(e.span()).map(|(text, span)| text[..span.start.min(text.len())].lines().count().max(1));
    let message = e.message().replace('\n', " ");
    let why = match line {
        Some(line) => format!("line {line}: {message}"),
        None => message,
    };
    ConfigError { file: file.to_string(), why }
}

/// The ladder of [`EvaluationSettings::ladder`] when a config names none.
pub const DEFAULT_LADDER: [&str; 4] =
    ["alphabeta:depth=1", "alphabeta:depth=2", "mcts:sims=800,eval=material", FIRST_NET_RUNG];

/// The ladder's name for the run's first net.
pub const FIRST_NET_RUNG: &str = "gen0000";

/// `[evaluation]`: matches that measure the newest net.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EvaluationSettings {
    /// Evaluate every this many generations (0: only the last generation asked for; with
    /// `every` above 0 also the last one a `--minutes` limit leaves room for).
    pub every: u32,
    /// Games per match (rounded up to pairs: each start with both colours).
    pub games: u32,
    /// Simulations per move of the net's search in these matches.
    pub simulations: u32,
    /// The ladder every net is measured against: player specs as `eval` takes them, and
    /// `gen0000` for the run's first net (random weights). The rungs are rated once among
    /// themselves by a round robin (the first at Elo 0), and each net is placed on that
    /// one scale by its scores against all of them.
    pub ladder: Vec<String>,
    /// Games played at once.
    pub concurrency: usize,
    /// A game still going after this many plies is drawn.
    pub max_plies: usize,
}

impl Default for EvaluationSettings {
    fn default() -> Self {
        EvaluationSettings {
            every: 5,
            games: 40,
            simulations: 100,
            ladder: DEFAULT_LADDER.iter().map(|rung| rung.to_string()).collect(),
            concurrency: 2,
            max_plies: 300,
        }
    }
}

impl Config {
    /// Reads and checks the config file at `path` over its base if it names one, printing a
    /// line on stderr for each old key it names (see [`Config::parse`]).
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let file = path.display().to_string();
        let error = |why: String| ConfigError { file: file.clone(), why };
        let text = crate::text_file::read_text(path).map_err(|e| error(e.to_string()))?;
        let table: toml::Table = toml::from_str(&text).map_err(|e| located(e, Some(&text), &file))?;
        let (config, notes) = if table.contains_key("base") {
            Config::from_table(base::with_base(table, path).map_err(error)?, None, &file)?
        } else {
            Config::from_table(table, Some(&text), &file)?
        };
        for note in notes {
            eprintln!("{file}: {note}");
        }
        Ok(config)
    }

    /// Reads and checks a config from its TOML `text`; `file` names it in errors. A key
    /// since renamed is read under its new name and a key since removed dropped, each with
    /// a note returned, where it has the value it took when left out (a run directory's
    /// copy of an older config); one removed and set otherwise is refused.
    pub fn parse(text: &str, file: &str) -> Result<(Config, Vec<String>), ConfigError> {
        let table: toml::Table = toml::from_str(text).map_err(|e| located(e, Some(text), file))?;
        Config::from_table(table, Some(text), file)
    }

    /// [`Config::parse`] of the config's `table`, read from `text` where it is one file's
    /// whole text (then errors name their line).
    fn from_table(
        mut table: toml::Table,
        text: Option<&str>,
        file: &str,
    ) -> Result<(Config, Vec<String>), ConfigError> {
        let notes = old_keys::take_old_keys(&mut table).map_err(|why| ConfigError { file: file.to_string(), why })?;
        let config: Config = match text {
            Some(text) if notes.is_empty() => toml::from_str(text),
            _ => Config::deserialize(table),
        }
        .map_err(|e| located(e, text, file))?;
        config.validate().map_err(|why| ConfigError { file: file.to_string(), why })?;
        Ok((config, notes))
    }

    /// The config as TOML, every key written out (the run directory's copy).
    pub fn to_toml(&self) -> Result<String, ConfigError> {
        toml::to_string(self)
            .map_err(|e| ConfigError { file: self.name.clone(), why: format!("cannot write as TOML: {e}") })
    }

    /// Checks every value is in range; the message names the key.
    pub fn validate(&self) -> Result<(), String> {
        if self.name.is_empty() || self.name.contains(['/', '\\']) || self.name.starts_with('.') {
            return Err(format!("name `{}` must be a plain directory name", self.name));
        }
        if !(1..=64).contains(&self.network.blocks) || !(1..=1024).contains(&self.network.channels) {
            return Err("network: blocks must be 1 to 64 and channels 1 to 1024".to_string());
        }
        match self.game {
            GameName::Xiangqi => self.rules.xiangqi().map(drop)?,
            GameName::Banqi => self.rules.banqi().map(drop)?,
        }
        if self.run.games_per_generation == 0 {
            return Err("run.games_per_generation must be at least 1".to_string());
        }
        let e = &self.evaluation;
        if e.games == 0 || e.simulations == 0 || e.concurrency == 0 || e.max_plies == 0 {
            return Err("evaluation: games, simulations, concurrency and max_plies must be at least 1".to_string());
        }
        if e.ladder.is_empty() {
            // Every evaluation places the net on the ladder, and the last generation's always runs.
            return Err("evaluation.ladder must name at least one player".to_string());
        }
        for (i, rung) in e.ladder.iter().enumerate() {
            if rung != FIRST_NET_RUNG {
                rung.parse::<PlayerSpec>().map_err(|why| format!("evaluation.ladder: `{rung}`: {why}"))?;
            }
            if e.ladder[..i].contains(rung) {
                return Err(format!("evaluation.ladder: `{rung}` is named twice"));
            }
        }
        self.search.validate()?;
        self.selfplay.validate()?;
        self.train.validate().map_err(|e| format!("train: {e}"))?;
        Ok(())
    }
}

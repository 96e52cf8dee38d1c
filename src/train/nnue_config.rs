//! The config of an NNUE run (`train --config configs/xiangqi-nnue.toml`): a file with an
//! `[nnue]` table is one. Unknown keys are refused; keys left out take the defaults below.

use std::path::Path;

use serde::{Deserialize, Serialize};

/// An NNUE run's config.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NnueConfig {
    /// The run directory is `checkpoints/<name>/` unless `--run` says.
    pub name: String,
    /// The seed of the games' random first moves and of the training's shuffles.
    #[serde(default = "one")]
    pub seed: u64,
    /// The loop's settings.
    pub nnue: NnueSettings,
}

/// Each generation: games by the current player, training on the newest positions, a
/// match of the new net against the current one.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct NnueSettings {
    /// Generations to run (`--generations` overrides).
    pub generations: usize,
    /// Games each generation plays with the current player.
    pub games_per_generation: usize,
    /// The depth each move of those games is searched to; its score labels the position.
    pub depth: u32,
    /// The first plies of each game, played at random for variety.
    pub random_plies: usize,
    /// Plies after which a game is a draw.
    pub max_plies: usize,
    /// The newest positions trained on.
    pub window: usize,
    /// Passes over the window each generation.
    pub epochs: usize,
    /// Positions per training step.
    pub batch_size: usize,
    /// Adam's rate at the start of each generation's training (falling to a tenth).
    pub learning_rate: f64,
    /// The search score's share of each target (the game's result the rest).
    pub score_weight: f32,
    /// Games of the gating match (the new net against the current player).
    pub gate_games: u32,
    /// The depth both sides of the gating match search to.
    pub gate_depth: u32,
}

fn one() -> u64 {
    1
}

impl Default for NnueSettings {
    fn default() -> Self {
        NnueSettings {
            generations: 6,
            games_per_generation: 400,
            depth: 5,
            random_plies: 10,
            max_plies: 300,
            window: 2_000_000,
            epochs: 4,
            batch_size: 1024,
            learning_rate: 0.001,
            score_weight: 0.75,
            gate_games: 40,
            gate_depth: 4,
        }
    }
}

impl NnueConfig {
    /// The NNUE config at `path` if the file is one (it has an `[nnue]` table); `None` for
    /// any other file, one that cannot be read included (the policy-value config's loader
    /// then says why). An error names the file and the bad key.
    pub fn load_if_nnue(path: &Path) -> Result<Option<NnueConfig>, String> {
        let Ok(text) = crate::text_file::read_text(path) else { return Ok(None) };
        NnueConfig::parse_if_nnue(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The NNUE config `text` holds if it is one (it has an `[nnue]` table); `None` for
    /// any other text. An error names the bad key.
    pub fn parse_if_nnue(text: &str) -> Result<Option<NnueConfig>, String> {
        if !text.parse::<toml::Table>().is_ok_and(|table| table.contains_key("nnue")) {
            return Ok(None);
        }
        let config: NnueConfig = toml::from_str(text).map_err(|e| e.to_string())?;
        config.check()?;
        Ok(Some(config))
    }

    /// Whether the values make sense.
    fn check(&self) -> Result<(), String> {
        let n = &self.nnue;
        let positive = [
            ("games_per_generation", n.games_per_generation),
            ("depth", n.depth as usize),
            ("max_plies", n.max_plies),
            ("window", n.window),
            ("epochs", n.epochs),
            ("batch_size", n.batch_size),
            ("gate_depth", n.gate_depth as usize),
        ];
        if let Some((key, _)) = positive.iter().find(|(_, value)| *value == 0) {
            return Err(format!("nnue.{key} must be at least 1"));
        }
        if !(0.0..=1.0).contains(&n.score_weight) {
            return Err("nnue.score_weight must be 0 to 1".into());
        }
        if n.learning_rate.is_nan() || n.learning_rate <= 0.0 {
            return Err("nnue.learning_rate must be above 0".into());
        }
        Ok(())
    }
}

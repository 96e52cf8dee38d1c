//! How self-play runs: worker threads, games per worker, the game length cap and the
//! shard size. The search's own settings are a separate [`crate::mcts::SearchConfig`];
//! the training config embeds both, as `[selfplay]` and `[search]`.

use serde::{Deserialize, Serialize};

use crate::nn::Precision;

/// Self-play's settings; every key is optional in a config and unknown keys are refused.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SelfPlaySettings {
    /// Worker threads, each advancing its own games with its own copy of the evaluator;
    /// 0 = one per core. With our CPU forward pass each worker's forward runs on its
    /// share of rayon's threads (cores / workers, at least 1).
    pub threads: usize,
    /// Games each worker advances at once (their leaves fill one evaluator batch).
    pub parallel_games: usize,
    /// Games still going after this many plies are scored as draws.
    pub max_plies: usize,
    /// A shard is written once this many samples of finished games are waiting (and at
    /// the end).
    pub shard_samples: usize,
    /// Whether moves searched cheaply (playout-cap randomization: the search's
    /// `cheap_simulations`) become samples too. With `false`, only the fully searched moves
    /// are recorded, as in KataGo: every value target is then a full search's root value
    /// or its game's outcome, never a cheap search's.
    pub record_cheap: bool,
    /// The forward pass's precision in self-play (`fp32`, `bf16` or `int8`); left out, the
    /// fastest this CPU runs ([`Precision::fastest_for_this_cpu`]). `XIANGQI_ZERO_PRECISION`
    /// in the environment overrides both.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub precision: Option<Precision>,
}

impl Default for SelfPlaySettings {
    fn default() -> Self {
        SelfPlaySettings {
            threads: 0,
            parallel_games: 64,
            max_plies: 400,
            shard_samples: 4096,
            record_cheap: true,
            precision: None,
        }
    }
}

impl SelfPlaySettings {
    /// Checks the values are in range; the message names the offending key.
    pub fn validate(&self) -> Result<(), String> {
        let checks: [(bool, &str); 4] = [
            (self.threads <= 1024, "threads must be 0 (one per core) to 1024"),
            ((1..=4096).contains(&self.parallel_games), "parallel_games must be 1 to 4096"),
            (self.max_plies >= 1, "max_plies must be at least 1"),
            (self.shard_samples >= 1, "shard_samples must be at least 1"),
        ];
        match checks.iter().find(|(ok, _)| !ok) {
            Some((_, why)) => Err(format!("selfplay config: {why}")),
            None => Ok(()),
        }
    }

    /// The worker threads to run: `threads`, or one per core when it is 0.
    pub fn workers(&self) -> usize {
        match self.threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partial_settings_take_defaults_and_bad_ones_are_named() {
        let settings: SelfPlaySettings = toml::from_str("parallel_games = 8").unwrap();
        assert_eq!(settings, SelfPlaySettings { parallel_games: 8, ..SelfPlaySettings::default() });
        assert!(toml::from_str::<SelfPlaySettings>("parallel_game = 8").is_err());
        let int8: SelfPlaySettings = toml::from_str("precision = \"int8\"").unwrap();
        assert_eq!(int8.precision, Some(Precision::Int8));
        let error = toml::from_str::<SelfPlaySettings>("precision = \"int4\"").unwrap_err().to_string();
        assert!(error.contains("int4") && error.contains("fp32"), "{error}");
        // Left out, it stays out of the run's copy of the config.
        assert!(!toml::to_string(&SelfPlaySettings::default()).unwrap().contains("precision"));
        assert!(SelfPlaySettings::default().validate().is_ok());
        let bad = SelfPlaySettings { shard_samples: 0, ..SelfPlaySettings::default() };
        assert!(bad.validate().unwrap_err().contains("shard_samples"));
    }
}

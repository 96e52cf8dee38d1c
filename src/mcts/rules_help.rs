//! The rules' help a net searches with ([`super::Guided`]), written as a net spec's
//! options named as the config's `[search]` keys — `quiet_leaves=1,rules_prior=W,rules_value=W`
//! — each one given or left open: what
//! a spec asks for, and what a shipped net records it plays best with, the one filling in
//! what the other leaves open.

use std::fmt;
use std::str::FromStr;

use super::SearchConfig;

/// The rules' help of a search, each setting `None` where it is left open.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RulesHelp {
    /// [`SearchConfig::quiet_leaves`].
    pub quiet_leaves: Option<bool>,
    /// [`SearchConfig::rules_prior`].
    pub rules_prior: Option<f32>,
    /// [`SearchConfig::rules_value`].
    pub rules_value: Option<f32>,
}

impl RulesHelp {
    /// Every setting as `config` has it.
    pub fn of(config: &SearchConfig) -> RulesHelp {
        RulesHelp {
            quiet_leaves: Some(config.quiet_leaves),
            rules_prior: Some(config.rules_prior),
            rules_value: Some(config.rules_value),
        }
    }

    /// Reads the option `key=value` when `key` is one of the three (`Ok(true)`); `Ok(false)`
    /// for any other key, an error for a value out of place.
    pub fn read_option(&mut self, key: &str, value: &str) -> Result<bool, String> {
        match key {
            "quiet_leaves" => {
                self.quiet_leaves = Some(match value {
                    "1" => true,
                    "0" => false,
                    other => return Err(format!("`{key}` is 1 or 0, not `{other}`")),
                });
            }
            "rules_prior" | "rules_value" => {
                let share = value.parse::<f32>().ok().filter(|x| (0.0..=1.0).contains(x));
                let share = share.ok_or(format!("`{key}` is a share from 0 to 1, not `{value}`"))?;
                *(if key == "rules_prior" { &mut self.rules_prior } else { &mut self.rules_value }) = Some(share);
            }
            _ => {
                return match OLD_NAMES.iter().find(|(old, _)| *old == key) {
                    Some((old, new)) => Err(format!("`{old}` is now called `{new}`")),
                    None => Ok(false),
                }
            }
        }
        Ok(true)
    }

    /// These settings, with those left open taken from `fallback`.
    pub fn or(self, fallback: RulesHelp) -> RulesHelp {
        RulesHelp {
            quiet_leaves: self.quiet_leaves.or(fallback.quiet_leaves),
            rules_prior: self.rules_prior.or(fallback.rules_prior),
            rules_value: self.rules_value.or(fallback.rules_value),
        }
    }

    /// `config` searching with this help, a setting left open meaning none.
    pub fn apply(self, config: SearchConfig) -> SearchConfig {
        SearchConfig {
            quiet_leaves: self.quiet_leaves.unwrap_or(false),
            rules_prior: self.rules_prior.unwrap_or(0.0),
            rules_value: self.rules_value.unwrap_or(0.0),
            ..config
        }
    }
}

/// The options' names before they took the config keys' (nets exported then record them).
const OLD_NAMES: [(&str, &str); 3] = [("quiet", "quiet_leaves"), ("rules", "rules_prior"), ("material", "rules_value")];

impl RulesHelp {
    /// The help a net file records, written with today's option names or the old ones.
    pub fn from_recorded(text: &str) -> Result<RulesHelp, String> {
        let renamed = text.split(',').map(|part| match part.split_once('=') {
            Some((key, value)) => match OLD_NAMES.iter().find(|(old, _)| *old == key.trim()) {
                Some((_, new)) => format!("{new}={value}"),
                None => part.to_string(),
            },
            None => part.to_string(),
        });
        renamed.collect::<Vec<_>>().join(",").parse()
    }
}

impl FromStr for RulesHelp {
    type Err = String;

    /// `quiet_leaves=1,rules_prior=0.5,…`: the three options alone, any of them left out.
    fn from_str(text: &str) -> Result<RulesHelp, String> {
        let mut help = RulesHelp::default();
        for part in text.split(',').filter(|part| !part.trim().is_empty()) {
            let (key, value) = part.split_once('=').ok_or_else(|| format!("expected key=value, found `{part}`"))?;
            if !help.read_option(key.trim(), value.trim())? {
                return Err(format!("unknown option `{}` (quiet_leaves, rules_prior, rules_value)", key.trim()));
            }
        }
        Ok(help)
    }
}

impl fmt::Display for RulesHelp {
    /// The help that is on, as options: `quiet_leaves=1,rules_prior=0.5,rules_value=0.5`
    /// (empty for none).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut options = Vec::new();
        if self.quiet_leaves == Some(true) {
            options.push("quiet_leaves=1".to_string());
        }
        if let Some(share) = self.rules_prior.filter(|&share| share > 0.0) {
            options.push(format!("rules_prior={share}"));
        }
        if let Some(share) = self.rules_value.filter(|&share| share > 0.0) {
            options.push(format!("rules_value={share}"));
        }
        f.write_str(&options.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_help_reads_back_from_its_text_and_given_settings_win_over_the_fallback() {
        let config =
            SearchConfig { quiet_leaves: true, rules_prior: 0.25, rules_value: 0.5, ..SearchConfig::default() };
        let help = RulesHelp::of(&config);
        assert_eq!(help.to_string(), "quiet_leaves=1,rules_prior=0.25,rules_value=0.5");
        let read: RulesHelp = help.to_string().parse().unwrap();
        assert_eq!(read.apply(SearchConfig::default()), config);
        let spec: RulesHelp = "rules_prior=0".parse().unwrap();
        let played = spec.or(read).apply(SearchConfig::default());
        assert_eq!((played.quiet_leaves, played.rules_prior, played.rules_value), (true, 0.0, 0.5));
        assert_eq!(RulesHelp::default().apply(config.clone()), SearchConfig::default());
    }

    #[test]
    fn a_flag_is_one_or_zero_a_share_within_zero_and_one_and_other_keys_are_refused() {
        assert_eq!("quiet_leaves=2".parse::<RulesHelp>().unwrap_err(), "`quiet_leaves` is 1 or 0, not `2`");
        assert_eq!(
            "rules_value=1.5".parse::<RulesHelp>().unwrap_err(),
            "`rules_value` is a share from 0 to 1, not `1.5`"
        );
        assert_eq!("material=0.5".parse::<RulesHelp>().unwrap_err(), "`material` is now called `rules_value`");
        // A net exported under the old names still reads.
        let old = RulesHelp::from_recorded("quiet=1,rules=0.25,material=0.5").unwrap();
        assert_eq!(old.to_string(), "quiet_leaves=1,rules_prior=0.25,rules_value=0.5");
        assert!("sims=3".parse::<RulesHelp>().unwrap_err().contains("unknown option `sims`"));
        assert_eq!(RulesHelp::default().read_option("sims", "3"), Ok(false));
    }
}

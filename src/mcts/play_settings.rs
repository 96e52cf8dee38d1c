//! The settings a net plays best with: its exploration constant (`cpuct=C`) and the rules'
//! help it searches with ([`super::Guided`]:
//! `quiet_leaves=1,rules_prior=W,rules_value=W,rules_threats=T`, named as the config's
//! `[search]` keys), written as a net spec's options, each one given
//! or left open: what a spec asks for, and what a shipped net records it plays best with,
//! the one filling in what the other leaves open.

use std::fmt;
use std::str::FromStr;

use super::SearchConfig;

/// A net's play settings, each `None` where it is left open.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PlaySettings {
    /// [`SearchConfig::c_puct`].
    pub c_puct: Option<f32>,
    /// [`SearchConfig::quiet_leaves`].
    pub quiet_leaves: Option<bool>,
    /// [`SearchConfig::rules_prior`].
    pub rules_prior: Option<f32>,
    /// [`SearchConfig::rules_value`].
    pub rules_value: Option<f32>,
    /// [`SearchConfig::rules_threats`].
    pub rules_threats: Option<f32>,
}

impl PlaySettings {
    /// Every setting as `config` has it.
    pub fn of(config: &SearchConfig) -> PlaySettings {
        PlaySettings {
            c_puct: Some(config.c_puct),
            quiet_leaves: Some(config.quiet_leaves),
            rules_prior: Some(config.rules_prior),
            rules_value: Some(config.rules_value),
            rules_threats: Some(config.rules_threats),
        }
    }

    /// Reads the option `key=value` when `key` is one of the five (`Ok(true)`); `Ok(false)`
    /// for any other key, an error for a value out of place.
    pub fn read_option(&mut self, key: &str, value: &str) -> Result<bool, String> {
        match key {
            "cpuct" => self.c_puct = Some(non_negative(key, value)?),
            "rules_threats" => self.rules_threats = Some(non_negative(key, value)?),
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
    pub fn or(self, fallback: PlaySettings) -> PlaySettings {
        PlaySettings {
            c_puct: self.c_puct.or(fallback.c_puct),
            quiet_leaves: self.quiet_leaves.or(fallback.quiet_leaves),
            rules_prior: self.rules_prior.or(fallback.rules_prior),
            rules_value: self.rules_value.or(fallback.rules_value),
            rules_threats: self.rules_threats.or(fallback.rules_threats),
        }
    }

    /// `config` searching with these settings: `cpuct` left open keeps `config`'s, help
    /// left open means none.
    pub fn apply(self, config: SearchConfig) -> SearchConfig {
        SearchConfig {
            c_puct: self.c_puct.unwrap_or(config.c_puct),
            quiet_leaves: self.quiet_leaves.unwrap_or(false),
            rules_prior: self.rules_prior.unwrap_or(0.0),
            rules_value: self.rules_value.unwrap_or(0.0),
            rules_threats: self.rules_threats.unwrap_or(0.0),
            ..config
        }
    }
}

/// The number of option `key=value`, finite and 0 or more (`cpuct`, `fpu`, `rules_threats`).
pub(crate) fn non_negative(key: &str, value: &str) -> Result<f32, String> {
    let number = value.parse::<f32>().ok().filter(|x| x.is_finite() && *x >= 0.0);
    number.ok_or(format!("`{key}` needs a number of 0 or more, not `{value}`"))
}

/// The options' names before they took the config keys' (nets exported then record them).
const OLD_NAMES: [(&str, &str); 3] = [("quiet", "quiet_leaves"), ("rules", "rules_prior"), ("material", "rules_value")];

impl PlaySettings {
    /// The settings a net file records, written with today's option names or the old ones.
    pub fn from_recorded(text: &str) -> Result<PlaySettings, String> {
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

impl FromStr for PlaySettings {
    type Err = String;

    /// `cpuct=1,quiet_leaves=1,rules_prior=0.5,…`: the five options alone, any of them left
    /// out.
    fn from_str(text: &str) -> Result<PlaySettings, String> {
        let mut settings = PlaySettings::default();
        for part in text.split(',').filter(|part| !part.trim().is_empty()) {
            let (key, value) = part.split_once('=').ok_or_else(|| format!("expected key=value, found `{part}`"))?;
            if !settings.read_option(key.trim(), value.trim())? {
                return Err(format!(
                    "unknown option `{}` (cpuct, quiet_leaves, rules_prior, rules_value, rules_threats)",
                    key.trim()
                ));
            }
        }
        Ok(settings)
    }
}

impl fmt::Display for PlaySettings {
    /// The settings that differ from a plain search, as options: `cpuct=1` when not the
    /// default, then the help that is on,
    /// `quiet_leaves=1,rules_prior=0.5,rules_value=0.5,rules_threats=0.5` (empty for none).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut options = Vec::new();
        if let Some(c) = self.c_puct.filter(|&c| c != SearchConfig::default().c_puct) {
            options.push(format!("cpuct={c}"));
        }
        if self.quiet_leaves == Some(true) {
            options.push("quiet_leaves=1".to_string());
        }
        if let Some(share) = self.rules_prior.filter(|&share| share > 0.0) {
            options.push(format!("rules_prior={share}"));
        }
        if let Some(share) = self.rules_value.filter(|&share| share > 0.0) {
            options.push(format!("rules_value={share}"));
        }
        if let Some(weight) = self.rules_threats.filter(|&weight| weight > 0.0) {
            options.push(format!("rules_threats={weight}"));
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
        let help = PlaySettings::of(&config);
        assert_eq!(help.to_string(), "quiet_leaves=1,rules_prior=0.25,rules_value=0.5");
        let read: PlaySettings = help.to_string().parse().unwrap();
        assert_eq!(read.apply(SearchConfig::default()), config);
        let spec: PlaySettings = "rules_prior=0".parse().unwrap();
        let played = spec.or(read).apply(SearchConfig::default());
        assert_eq!((played.quiet_leaves, played.rules_prior, played.rules_value), (true, 0.0, 0.5));
        assert_eq!(PlaySettings::default().apply(config.clone()), SearchConfig::default());
        // An exploration constant is written where it is not the default, and read back.
        let tuned: PlaySettings = "cpuct=0.8,rules_value=0.5".parse().unwrap();
        assert_eq!(tuned.to_string(), "cpuct=0.8,rules_value=0.5");
        assert_eq!(tuned.apply(SearchConfig::default()).c_puct, 0.8);
        assert_eq!(PlaySettings::of(&SearchConfig::default()).to_string(), "");
        assert_eq!("cpuct=-1".parse::<PlaySettings>().unwrap_err(), "`cpuct` needs a number of 0 or more, not `-1`");
        // Threats weigh per soldier, so they may exceed 1; they read back too.
        let threats: PlaySettings = "rules_prior=0.5,rules_threats=1.5".parse().unwrap();
        assert_eq!(threats.to_string(), "rules_prior=0.5,rules_threats=1.5");
        assert_eq!(threats.apply(SearchConfig::default()).rules_threats, 1.5);
        assert_eq!(threats.or(help).apply(SearchConfig::default()).rules_value, 0.5);
    }

    #[test]
    fn a_flag_is_one_or_zero_a_share_within_zero_and_one_and_other_keys_are_refused() {
        assert_eq!("quiet_leaves=2".parse::<PlaySettings>().unwrap_err(), "`quiet_leaves` is 1 or 0, not `2`");
        assert_eq!(
            "rules_value=1.5".parse::<PlaySettings>().unwrap_err(),
            "`rules_value` is a share from 0 to 1, not `1.5`"
        );
        assert_eq!("material=0.5".parse::<PlaySettings>().unwrap_err(), "`material` is now called `rules_value`");
        // A net exported under the old names still reads.
        let old = PlaySettings::from_recorded("quiet=1,rules=0.25,material=0.5").unwrap();
        assert_eq!(old.to_string(), "quiet_leaves=1,rules_prior=0.25,rules_value=0.5");
        assert!("sims=3".parse::<PlaySettings>().unwrap_err().contains("unknown option `sims`"));
        assert_eq!(PlaySettings::default().read_option("sims", "3"), Ok(false));
    }
}

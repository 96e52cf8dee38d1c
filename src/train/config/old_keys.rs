//! Keys the config once had and no longer reads. A run directory's `config.toml` is the
//! whole config written out, so one written before a key's removal or renaming still names
//! it. A renamed key is read under its new name, with a note. A removed key at the value it
//! took when left out is dropped with a note, since the run never relied on it; at any
//! other value the config is refused, since the run did. `docs/experiments.md` names the
//! last commit that had each removed key.

use toml::{Table, Value};

/// A removed key: its table, its name, and the value it took when left out (`None`: it
/// was optional, and any value set was a choice).
struct Removed {
    table: &'static str,
    key: &'static str,
    default: Option<Value>,
}

/// Every removed key.
const REMOVED: [Removed; 7] = [
    Removed { table: "run", key: "teacher_games", default: Some(Value::Integer(0)) },
    Removed { table: "search", key: "residual_policy", default: Some(Value::Boolean(false)) },
    Removed { table: "search", key: "play_rules_value", default: None },
    Removed { table: "search", key: "play_rules_prior", default: None },
    Removed { table: "train", key: "generation_anneal", default: Some(Value::Float(1.0)) },
    Removed { table: "train", key: "root_value_horizon", default: Some(Value::Float(0.0)) },
    Removed { table: "train", key: "value_loss_weight", default: Some(Value::Float(1.0)) },
];

/// A renamed key: its table, its old name and its new one.
struct Renamed {
    table: &'static str,
    old: &'static str,
    new: &'static str,
}

/// Every renamed key.
const RENAMED: [Renamed; 1] = [Renamed { table: "run", old: "bootstrap_quiescence", new: "bootstrap_settled" }];

/// Reads every old key of `config`, the whole config's table, as today's config would: a
/// renamed one under its new name, a removed one at its default dropped; a note for each,
/// or the reason the config is refused for the first removed key set otherwise.
pub(super) fn take_old_keys(config: &mut Table) -> Result<Vec<String>, String> {
    let mut notes = Vec::new();
    for Renamed { table, old, new } in &RENAMED {
        let Some(Value::Table(section)) = config.get_mut(*table) else { continue };
        let Some(value) = section.remove(*old) else { continue };
        if section.contains_key(*new) {
            return Err(format!("`[{table}] {old}` is the old name of `{new}`, and both are set"));
        }
        section.insert(new.to_string(), value);
        notes.push(format!("`[{table}] {old}` is now called `{new}`, and read as such"));
    }
    for Removed { table, key, default } in &REMOVED {
        let Some(Value::Table(section)) = config.get_mut(*table) else { continue };
        let Some(value) = section.remove(*key) else { continue };
        match default {
            Some(default) if same(&value, default) => {
                notes.push(format!("`[{table}] {key}` was removed; its value {value} was the default, ignored"))
            }
            _ => {
                let default = default.as_ref().map_or("to leave it out".to_string(), |d| format!("{d}"));
                return Err(format!(
                    "`[{table}] {key}` was removed, and this config relies on it: it sets {value}, where the \
                     default was {default} (docs/experiments.md names the last commit that had it)"
                ));
            }
        }
    }
    Ok(notes)
}

/// Whether two TOML values are equal, an integer and a float of the same number included.
fn same(a: &Value, b: &Value) -> bool {
    let number = |value: &Value| match value {
        Value::Integer(n) => Some(*n as f64),
        Value::Float(x) => Some(*x),
        _ => None,
    };
    match (number(a), number(b)) {
        (Some(a), Some(b)) => a == b,
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn take(text: &str) -> (Result<Vec<String>, String>, Table) {
        let mut table: Table = toml::from_str(text).unwrap();
        (take_old_keys(&mut table), table)
    }

    #[test]
    fn a_renamed_key_is_read_under_its_new_name_once() {
        let (notes, table) = take(
            "[run]
bootstrap_quiescence = true
",
        );
        assert_eq!(
            notes.unwrap(),
            ["`[run] bootstrap_quiescence` is now called `bootstrap_settled`, and read as such"]
        );
        assert_eq!(table["run"]["bootstrap_settled"].as_bool(), Some(true));
        let (error, _) = take(
            "[run]
bootstrap_quiescence = true
bootstrap_settled = false
",
        );
        assert!(error.unwrap_err().contains("both are set"));
    }

    #[test]
    fn a_removed_key_at_its_default_is_dropped_with_a_note() {
        let (notes, table) = take("[train]\ngeneration_anneal = 1\nseed = 3\n[run]\nteacher_games = 0\n");
        let notes = notes.unwrap();
        assert_eq!(
            notes,
            [
                "`[run] teacher_games` was removed; its value 0 was the default, ignored",
                "`[train] generation_anneal` was removed; its value 1 was the default, ignored",
            ]
        );
        assert_eq!(table["train"].as_table().unwrap().keys().collect::<Vec<_>>(), ["seed"]);
        assert!(table["run"].as_table().unwrap().is_empty());
    }

    #[test]
    fn a_removed_key_set_otherwise_is_refused() {
        let (error, _) = take("[train]\nvalue_loss_weight = 4.0\n");
        let error = error.unwrap_err();
        assert!(error.starts_with("`[train] value_loss_weight` was removed, and this config relies on it"), "{error}");
        assert!(error.contains("sets 4.0, where the default was 1.0"), "{error}");
        let (error, _) = take("[search]\nplay_rules_prior = 1.0\n");
        assert!(error.unwrap_err().contains("sets 1.0, where the default was to leave it out"));
    }

    #[test]
    fn keys_of_the_same_name_elsewhere_are_not_touched() {
        let (notes, table) = take("teacher_games = 3\n[train]\nteacher_games = 3\n");
        assert_eq!(notes.unwrap(), Vec::<String>::new());
        assert_eq!(table.len(), 2);
    }
}

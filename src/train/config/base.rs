//! `base = "FILE"`: a config that differs from another in a few values names that one and
//! gives only what it changes. The base (a path relative to the config naming it, itself
//! possibly with a base) is read first; each key of the config then replaces the base's,
//! a table key by key, so that `[search] simulations = 800` changes that one value.

use std::path::{Path, PathBuf};

use toml::{Table, Value};

/// The key that names a config's base.
const BASE: &str = "base";

/// Bases deeper than this are refused (a loop, most likely).
const MAX_DEPTH: usize = 8;

/// `config` (read from `file`) over its base, if it names one; a config with no base as it
/// is. The error names the base file at fault.
pub(super) fn with_base(config: Table, file: &Path) -> Result<Table, String> {
    over_bases(config, file, &mut vec![file.to_path_buf()])
}

/// `config`, read from `file`, over its chain of bases; `chain` holds the files read so far.
fn over_bases(mut config: Table, file: &Path, chain: &mut Vec<PathBuf>) -> Result<Table, String> {
    let Some(base) = config.remove(BASE) else { return Ok(config) };
    let Value::String(base) = base else {
        return Err(format!("{}: `{BASE}` is a file name in quotes", file.display()));
    };
    let path = file.parent().unwrap_or(Path::new(".")).join(base);
    if chain.len() > MAX_DEPTH || chain.iter().any(|seen| same_file(seen, &path)) {
        return Err(format!("`{BASE}`: {} leads back to itself", path.display()));
    }
    let name = path.display();
    let text = crate::text_file::read_text(&path).map_err(|e| format!("base {name}: {e}"))?;
    let table: Table = toml::from_str(&text).map_err(|e| format!("base {name}: {}", e.message().trim_end()))?;
    chain.push(path.clone());
    let mut merged = over_bases(table, &path, chain)?;
    merge(&mut merged, config);
    Ok(merged)
}

/// Whether `a` and `b` name the same file.
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// `overrides` written over `base`: tables merged key by key, any other value replaced.
fn merge(base: &mut Table, overrides: Table) {
    for (key, value) in overrides {
        match (base.get_mut(&key), value) {
            (Some(Value::Table(base)), Value::Table(overrides)) => merge(base, overrides),
            (_, value) => {
                base.insert(key, value);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(text: &str) -> Table {
        toml::from_str(text).unwrap()
    }

    #[test]
    fn overrides_replace_single_keys_of_a_table_and_add_new_ones() {
        let mut base = table("name = \"a\"\n[search]\nsimulations = 400\nc_puct = 1.25\n");
        merge(&mut base, table("name = \"b\"\n[search]\nsimulations = 800\n[train]\nbatch_size = 64\n"));
        assert_eq!(base, table("name = \"b\"\n[search]\nsimulations = 800\nc_puct = 1.25\n[train]\nbatch_size = 64\n"));
    }

    #[test]
    fn bases_chain_and_a_loop_is_refused() {
        let dir = std::env::temp_dir().join(format!("xiangqi-zero-config-base-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("a.toml"), "name = \"a\"\nseed = 1\n[search]\nsimulations = 100\n").unwrap();
        std::fs::write(dir.join("b.toml"), "base = \"a.toml\"\nseed = 2\n").unwrap();
        let c = table("base = \"b.toml\"\nname = \"c\"\n");
        let merged = with_base(c, &dir.join("c.toml")).unwrap();
        assert_eq!(merged, table("name = \"c\"\nseed = 2\n[search]\nsimulations = 100\n"));

        std::fs::write(dir.join("a.toml"), "base = \"b.toml\"\n").unwrap();
        let error = with_base(table("base = \"a.toml\"\n"), &dir.join("c.toml")).unwrap_err();
        assert!(error.contains("leads back to itself"), "{error}");
        let error = with_base(table("base = \"missing.toml\"\n"), &dir.join("c.toml")).unwrap_err();
        assert!(error.starts_with("base ") && error.contains("missing.toml"), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

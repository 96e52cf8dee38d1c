//! Helpers shared by the integration tests: reading the reference data in `tests/data`.

use serde::de::DeserializeOwned;

/// Every line of the JSON Lines file `tests/data/<name>`, parsed.
pub fn read_jsonl<T: DeserializeOwned>(name: &str) -> Vec<T> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("bad line in {name}: {e}: {line}")))
        .collect()
}

//! The layering of `docs/architecture.md`, checked: every `crate::<module>` path in
//! `src/` (outside comments) must be an edge of [`ALLOWED`] from the top-level module of
//! its file, so that a dependency pointing up fails here rather than in review.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

/// The small utilities every layer may use (each still listed in [`ALLOWED`] with its own).
const UTILITIES: &[&str] = &["allocator", "atomic_write", "date", "storage", "text_file"];

/// Each top-level module of `src/` (but `cli`, which may use anything) and the modules it
/// may use besides [`UTILITIES`].
const ALLOWED: &[(&str, &[&str])] = &[
    ("allocator", &[]),
    ("atomic_write", &[]),
    ("date", &[]),
    ("storage", &["atomic_write"]),
    ("text_file", &["storage"]),
    ("game", &[]),
    ("records", &["game"]),
    ("search", &["game"]),
    ("mcts", &["game"]),
    ("nn", &["game", "mcts"]),
    ("players", &["game", "search", "mcts", "nn"]),
    ("matches", &["players", "records", "game", "search", "mcts"]),
    ("selfplay", &["mcts", "nn", "game", "records"]),
    ("train", &["selfplay", "matches", "players", "nn", "mcts", "game"]),
    ("engine", &["players", "search", "game"]),
    ("play", &["players", "records", "search", "game"]),
    // The web server offers the nets of the runs in a folder (`train::trained_nets`).
    ("web", &["play", "train", "players", "records", "nn", "search", "game"]),
];

/// The top-level module a file of `src/` belongs to (`src/nn/fast.rs` → `nn`); `None`
/// for the crate root and the binary's files, which are `cli`.
fn module_of(relative: &Path) -> Option<String> {
    let first = relative.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (!matches!(name, "lib" | "main" | "cli")).then(|| name.to_string())
}

/// The modules named by `crate::<module>` in `text`, outside comments.
fn used_modules(text: &str) -> BTreeSet<String> {
    let mut used = BTreeSet::new();
    for line in text.lines().filter(|line| !line.trim_start().starts_with("//")) {
        let code = line.split(" //").next().unwrap_or(line);
        for (at, _) in code.match_indices("crate::") {
            let rest = &code[at + "crate::".len()..];
            let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            let after_prefix = at.checked_sub(1).and_then(|i| code[..=i].chars().last());
            if !name.is_empty() && !after_prefix.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
                used.insert(name);
            }
        }
    }
    used
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

#[test]
fn every_dependency_between_modules_points_down() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut wrong = Vec::new();
    for file in files {
        let relative = file.strip_prefix(&src).unwrap();
        let Some(module) = module_of(relative) else { continue };
        let Some((_, allowed)) = ALLOWED.iter().find(|(name, _)| *name == module) else {
            wrong.push(format!("{}: module `{module}` has no place in the layers", relative.display()));
            continue;
        };
        for used in used_modules(&fs::read_to_string(&file).unwrap()) {
            if used != module && !allowed.contains(&used.as_str()) && !UTILITIES.contains(&used.as_str()) {
                wrong.push(format!("{}: `{module}` uses `{used}`", relative.display()));
            }
        }
    }
    assert!(wrong.is_empty(), "dependencies against the layering:\n{}", wrong.join("\n"));
}

#[test]
fn only_code_outside_comments_counts() {
    let text = "use crate::nn::Net;\n/// See [`crate::web`].\nlet x = crate::game::Status::Ongoing; // crate::train\nuse other_crate::play;";
    assert_eq!(used_modules(text), BTreeSet::from(["game".to_string(), "nn".to_string()]));
}

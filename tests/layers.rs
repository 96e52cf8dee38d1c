//! The layering of `docs/architecture.md`, checked on the imports themselves. Every path
//! into the crate in `src/` (outside comments and strings) — `crate::`, `super::` (any
//! number of them) and `self::`, grouped `{…}` paths included — is resolved to the file
//! that defines what it names, through the `pub use` re-exports of `mod.rs` files. Then:
//! every edge between top-level modules must be one of [`ALLOWED`], so that a dependency
//! pointing up fails here rather than in review; and no two files may use each other.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Each top-level module of `src/` (but `cli`, which may use anything) and the modules it
/// may use.
const ALLOWED: &[(&str, &[&str])] = &[
    ("allocator", &[]),
    ("atomic_write", &[]),
    ("date", &[]),
    ("storage", &["atomic_write"]),
    ("text_file", &["storage"]),
    ("game", &[]),
    ("records", &["game", "date"]),
    ("search", &["game"]),
    ("nnue", &["game", "search", "atomic_write"]),
    ("mcts", &["game"]),
    ("nn", &["game", "mcts", "storage", "text_file", "date"]),
    ("players", &["game", "search", "nnue", "mcts", "nn", "text_file"]),
    ("matches", &["players", "records", "game", "search", "mcts", "storage", "atomic_write", "text_file", "date"]),
    ("selfplay", &["mcts", "nn", "game", "records", "storage", "allocator"]),
    (
        "train",
        &[
            "selfplay",
            "matches",
            "players",
            "nn",
            "nnue",
            "search",
            "mcts",
            "game",
            "storage",
            "atomic_write",
            "text_file",
            "date",
        ],
    ),
    ("engine", &["players", "search", "game"]),
    ("play", &["players", "records", "search", "game", "atomic_write"]),
    // The web server offers the nets of the runs in a folder (`train::trained_nets`).
    (
        "web",
        &["play", "train", "players", "records", "nn", "nnue", "search", "game", "atomic_write", "text_file", "date"],
    ),
];

/// A module's path from the crate root (`["train", "start"]`); empty for the root.
type ModulePath = Vec<String>;

/// The modules of `src/` and their files.
struct Crate {
    src: PathBuf,
    files: BTreeMap<ModulePath, PathBuf>,
    /// Each module's code, comments and literals left out.
    code: BTreeMap<ModulePath, String>,
}

impl Crate {
    fn read() -> Crate {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut paths = Vec::new();
        rust_files(&src, &mut paths);
        let mut files = BTreeMap::new();
        for file in paths {
            let relative = file.strip_prefix(&src).unwrap();
            let mut module: ModulePath = relative.iter().map(|part| part.to_str().unwrap().to_string()).collect();
            let last = module.pop().unwrap();
            match last.as_str() {
                "mod.rs" | "lib.rs" => {}
                // The binary's root and its commands: `cli`, above every layer.
                "main.rs" => module.push("cli".to_string()),
                name => module.push(name.strip_suffix(".rs").unwrap().to_string()),
            }
            files.insert(module, file);
        }
        // A file's unit tests (an inline `mod tests` at its end, where `super` is the file)
        // are left out: what they use is no dependency of the code.
        let read = |file: &PathBuf| {
            let text = fs::read_to_string(file).unwrap();
            code(text.split("#[cfg(test)]\nmod ").next().unwrap())
        };
        let code = files.iter().map(|(module, file)| (module.clone(), read(file))).collect();
        Crate { src, files, code }
    }

    /// The file defining `path` (absolute, from the crate root): the deepest module on
    /// it, or the child a `mod.rs` re-exports the next name from.
    fn resolve(&self, path: &[String]) -> Option<&ModulePath> {
        let depth = (0..=path.len()).rev().find(|&n| self.files.contains_key(&path[..n]))?;
        let (module, _) = self.files.get_key_value(&path[..depth])?;
        let Some(name) = path.get(depth) else { return Some(module) };
        for target in reexports(&self.code[module], module) {
            if target.last() == Some(name) && target != path {
                if let Some(found) = self.resolve(&target) {
                    return Some(found);
                }
            }
        }
        Some(module)
    }

    /// The files each file uses (itself left out).
    fn edges(&self) -> BTreeMap<&ModulePath, BTreeSet<&ModulePath>> {
        let mut edges = BTreeMap::new();
        for module in self.files.keys() {
            let used: BTreeSet<&ModulePath> = crate_paths(&self.code[module], module)
                .iter()
                .filter_map(|path| self.resolve(path))
                .filter(|target| *target != module)
                .collect();
            edges.insert(module, used);
        }
        edges
    }

    fn display(&self, module: &ModulePath) -> String {
        self.files[module].strip_prefix(&self.src).unwrap().display().to_string()
    }
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

/// `text` without its comments and the contents of its string and char literals (raw
/// strings included).
fn code(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let after_ident = i > 0 && ident_char(chars[i - 1]);
        if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == 'r' && !after_ident && matches!(chars.get(i + 1), Some('"' | '#')) {
            let hashes = chars[i + 1..].iter().take_while(|&&c| c == '#').count();
            let close: Vec<char> = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
            i += 2 + hashes;
            while i < chars.len() && !chars[i..].starts_with(&close) {
                i += 1;
            }
            i += close.len();
            out.push_str("\"\"");
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' && chars.get(i + 1) == Some(&'\\') {
            // '\n', '\'', '\u{…}'
            i += 3;
            while i < chars.len() && chars[i] != '\'' {
                i += 1;
            }
            i += 1;
        } else if c == '\'' && chars.get(i + 2) == Some(&'\'') {
            i += 3;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// Whether `c` may be part of an identifier.
fn ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The paths a `{…}` group or a plain path at the start of `text` names (segments, the
/// group's `self` as the path before it), and the length read.
fn path_tree(text: &[char]) -> (Vec<Vec<String>>, usize) {
    let mut i = 0;
    let skip_space = |i: &mut usize| {
        while *i < text.len() && text[*i].is_whitespace() {
            *i += 1;
        }
    };
    let mut prefix = Vec::new();
    loop {
        skip_space(&mut i);
        if text.get(i) == Some(&'{') {
            i += 1;
            let mut paths = Vec::new();
            loop {
                skip_space(&mut i);
                match text.get(i) {
                    Some('}') | None => return (paths, i + 1),
                    Some(',') => i += 1,
                    _ => {
                        let (inner, read) = path_tree(&text[i..]);
                        i += read.max(1);
                        for path in inner {
                            let mut full = prefix.clone();
                            full.extend(path.into_iter().filter(|segment| segment != "self"));
                            paths.push(full);
                        }
                    }
                }
            }
        }
        let start = i;
        while i < text.len() && ident_char(text[i]) {
            i += 1;
        }
        if i > start {
            prefix.push(text[start..i].iter().collect());
        }
        if text.get(i) == Some(&':') && text.get(i + 1) == Some(&':') {
            i += 2;
        } else {
            return (vec![prefix], i);
        }
    }
}

/// `path` as written in `module` (starting with `crate`, `self`, one or more `super`,
/// or, with `relative`, a child's name) from the crate root; `None` for another crate's.
fn absolute(path: &[String], module: &ModulePath, relative: bool) -> Option<Vec<String>> {
    let mut base = module.clone();
    let mut rest = path;
    match rest.first().map(String::as_str) {
        Some("crate") => {
            base.clear();
            rest = &rest[1..];
        }
        Some("self") => rest = &rest[1..],
        Some("super") => {
            while rest.first().map(String::as_str) == Some("super") {
                base.pop();
                rest = &rest[1..];
            }
        }
        _ if relative => {}
        _ => return None,
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

/// The paths from the crate root that `text`, the code of `module`, names with
/// `crate::`, `super::` or `self::`.
fn crate_paths(text: &str, module: &ModulePath) -> Vec<Vec<String>> {
    let chars: Vec<char> = text.chars().collect();
    let mut paths = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let boundary = i == 0 || !(ident_char(chars[i - 1]) || chars[i - 1] == ':');
        let starts_path = boundary
            && ["crate::", "super::", "self::"]
                .iter()
                .any(|word| chars[i..].starts_with(&word.chars().collect::<Vec<_>>()));
        if !starts_path {
            i += 1;
            continue;
        }
        let (tree, read) = path_tree(&chars[i..]);
        paths.extend(tree.iter().filter_map(|path| absolute(path, module, false)));
        i += read.max(1);
    }
    paths
}

/// The paths from the crate root that `text`, the code of `module`, re-exports (`pub
/// use child::{A, b::C}`, `pub use crate::x::D`).
fn reexports(text: &str, module: &ModulePath) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    for (at, _) in text.match_indices("pub use ") {
        let rest: Vec<char> = text[at + "pub use ".len()..].chars().collect();
        let (tree, _) = path_tree(&rest);
        paths.extend(tree.iter().filter_map(|path| absolute(path, module, true)));
    }
    paths
}

/// The top-level module of a module path; `cli` for the binary's files and the root.
fn top(module: &ModulePath) -> &str {
    module.first().map_or("cli", String::as_str)
}

#[test]
fn every_dependency_between_modules_points_down() {
    let krate = Crate::read();
    let mut wrong = Vec::new();
    for (from, targets) in krate.edges() {
        let module = top(from);
        if module == "cli" {
            continue;
        }
        let Some((_, allowed)) = ALLOWED.iter().find(|(name, _)| *name == module) else {
            wrong.push(format!("{}: module `{module}` has no place in the layers", krate.display(from)));
            continue;
        };
        for target in targets {
            let used = top(target);
            if used != module && !allowed.contains(&used) {
                wrong.push(format!("{}: `{module}` uses `{used}` ({})", krate.display(from), krate.display(target)));
            }
        }
    }
    assert!(wrong.is_empty(), "dependencies against the layering:\n{}", wrong.join("\n"));
}

#[test]
fn no_two_files_use_each_other() {
    let krate = Crate::read();
    let edges = krate.edges();
    let mut circles = Vec::new();
    for (from, targets) in &edges {
        for target in targets {
            if from < target && edges.get(target).is_some_and(|back| back.contains(from)) {
                circles.push(format!("{} ↔ {}", krate.display(from), krate.display(target)));
            }
        }
    }
    assert!(circles.is_empty(), "files that use each other:\n{}", circles.join("\n"));
}

#[test]
fn grouped_nested_and_relative_paths_are_read_outside_comments_and_strings() {
    let module: ModulePath = vec!["train".into(), "start".into()];
    let text = code(
        "use crate::{nn::{Net, NetConfig}, game::Status};\n/// See [`crate::web`].\n\
         let x = \"crate::play\"; // crate::search\nuse super::super::storage::{self, Kind};\n\
         use super::run::bar; use other_crate::records;",
    );
    let paths = crate_paths(&text, &module);
    let names: Vec<String> = paths.iter().map(|path| path.join("::")).collect();
    assert_eq!(
        names,
        ["nn::Net", "nn::NetConfig", "game::Status", "storage", "storage::Kind", "train::run::bar"],
        "{paths:?}"
    );
}

#[test]
fn a_game_file_using_storage_is_caught() {
    let text = code("use crate::storage::read;");
    let module: ModulePath = vec!["game".into(), "xiangqi".into(), "fen".into()];
    let krate = Crate::read();
    let target = krate.resolve(&crate_paths(&text, &module)[0]).unwrap();
    assert_eq!(top(target), "storage");
    let (_, allowed) = ALLOWED.iter().find(|(name, _)| *name == "game").unwrap();
    assert!(!allowed.contains(&"storage"));
}

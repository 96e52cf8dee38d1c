//! Embeds the page: lists every file under `web/` in `$OUT_DIR/assets.rs`, which
//! `src/web/assets.rs` includes, so that `serve` needs nothing beside the binary.

use std::path::{Path, PathBuf};
use std::{env, fs};

fn main() {
    println!("cargo:rerun-if-changed=web");
    // Read when run, not baked in when built: a worktree sharing the target directory
    // reuses this script, which must embed its own web/.
    let root = Path::new(&env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR")).join("web");
    let mut files = Vec::new();
    collect(&root, &mut files);
    files.sort();
    let mut out = String::from("&[\n");
    for path in files {
        let name = path.strip_prefix(&root).expect("a file under web/").to_string_lossy().replace('\\', "/");
        out.push_str(&format!("    ({name:?}, include_bytes!({:?})),\n", path.to_string_lossy()));
    }
    out.push_str("]\n");
    let target = Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("assets.rs");
    fs::write(target, out).expect("cannot write the list of embedded page files");
}

/// Every file below `dir` (none when it does not exist).
fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, files);
        } else {
            files.push(path);
        }
    }
}

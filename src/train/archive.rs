//! The tar archive a snapshot is: a run directory's files at their paths there, packed
//! into one file and unpacked into another directory. Unpacking refuses any path that is
//! not a top-level file or a file in one of the named folders, so a snapshot cannot write
//! outside the run it restores.

use std::io::Read;
use std::path::{Component, Path, PathBuf};

/// A file of a run directory: its path there and its bytes.
pub type RunFile = (PathBuf, Vec<u8>);

/// The archive of `files`, in their order.
pub fn pack(files: &[RunFile]) -> std::io::Result<Vec<u8>> {
    let mut archive = tar::Builder::new(Vec::new());
    for (name, bytes) in files {
        let mut header = tar::Header::new_gnu();
        header.set_size(bytes.len() as u64);
        header.set_mode(0o644);
        archive.append_data(&mut header, name, bytes.as_slice())?;
    }
    archive.into_inner()
}

/// The files of the archive `bytes`, in their order; each must be a top-level file or a
/// file in one of `folders`.
pub fn unpack(bytes: &[u8], folders: &[&str]) -> Result<Vec<RunFile>, String> {
    let broken = |e: std::io::Error| format!("not a snapshot ({e})");
    let mut files = Vec::new();
    let mut archive = tar::Archive::new(bytes);
    for entry in archive.entries().map_err(broken)? {
        let mut entry = entry.map_err(broken)?;
        let name = entry.path().map_err(broken)?.into_owned();
        if !is_run_file(&name, folders) {
            return Err(format!("not a snapshot (it holds `{}`)", name.display()));
        }
        let mut content = Vec::new();
        entry.read_to_end(&mut content).map_err(|e| format!("truncated ({e})"))?;
        files.push((name, content));
    }
    Ok(files)
}

/// Whether `name` is a top-level file or a file in one of `folders`, never a path that
/// climbs out.
fn is_run_file(name: &Path, folders: &[&str]) -> bool {
    let parts: Vec<_> = name.components().collect();
    match parts.as_slice() {
        [Component::Normal(_)] => true,
        [Component::Normal(folder), Component::Normal(_)] => folders.iter().any(|f| folder == f),
        _ => false,
    }
}

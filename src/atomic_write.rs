//! Writing files so that nothing already written is ever lost or half-written: a
//! temporary file in the same directory, flushed to disk, then renamed over the target.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

/// Tells temporary files of one process apart.
static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// Replaces the file at `path` with `contents` so that a reader, or a crash at any moment,
/// sees either the old file or the new one whole, never a part.
pub fn write_atomically(path: &Path, contents: &str) -> io::Result<()> {
    write_atomically_with(path, |file| file.write_all(contents.as_bytes()))
}

/// Like [`write_atomically`], with the contents written by `write` into the open
/// temporary file.
///
/// The temporary file (`.NAME.tmp-PID-N`, in the same directory so that the rename stays
/// within one file system) is flushed to disk (`fsync`) and renamed over `path`, then the
/// directory entry is flushed (on Unix; a file system that cannot is not an error). On
/// failure — a full disk, say — the temporary file is removed and `path` is untouched.
pub fn write_atomically_with(path: &Path, write: impl FnOnce(&mut File) -> io::Result<()>) -> io::Result<()> {
    check_replaceable(path)?;
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, format!("`{}` names no file", path.display())))?;
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let temp = dir.join(format!(
        ".{}.tmp-{}-{}",
        name.to_string_lossy(),
        std::process::id(),
        TEMP_COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let written = (|| {
        let mut file = OpenOptions::new().write(true).create_new(true).open(&temp)?;
        write(&mut file)?;
        file.sync_all()?;
        drop(file);
        fs::rename(&temp, path)
    })();
    if written.is_err() {
        let _ = fs::remove_file(&temp);
        return written;
    }
    sync_directory(dir);
    Ok(())
}

/// Checks that a new file may be renamed over `path`: nothing is there, or a file, or a
/// symbolic link (replaced, not followed). A directory is refused, and so is a device such
/// as `/dev/null`, a pipe or a socket, which the rename would replace with a plain file.
pub fn check_replaceable(path: &Path) -> io::Result<()> {
    let why = match fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => "it is a directory, not a file",
        Ok(meta) if !meta.is_file() && !meta.file_type().is_symlink() => {
            "it is not a regular file (a device, pipe or socket), and will not be replaced"
        }
        _ => return Ok(()),
    };
    Err(io::Error::new(io::ErrorKind::InvalidInput, why))
}

/// Flushes a directory's entries (a rename in it) to disk, where the platform allows.
fn sync_directory(dir: &Path) {
    #[cfg(unix)]
    if let Ok(handle) = fs::File::open(dir) {
        let _ = handle.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
}

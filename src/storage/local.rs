//! Files on this machine's disk: written through a temporary file renamed into place
//! ([`crate::atomic`]), whose name starts with `.` and so is never listed.

use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::{Entry, Kind, Storage};
use crate::atomic_write::write_atomically_with;

/// The local disk; a location is a path, or a `file://` URL of one.
pub(super) struct LocalDisk;

/// The path a location names: itself, or a `file://` URL's path.
fn path(location: &Path) -> PathBuf {
    match location.to_str().and_then(|text| text.strip_prefix("file://")) {
        Some(path) => PathBuf::from(path),
        None => location.to_path_buf(),
    }
}

impl Storage for LocalDisk {
    fn read(&self, location: &Path, limit: u64) -> io::Result<Vec<u8>> {
        let mut bytes = Vec::new();
        File::open(path(location))?.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
        Ok(bytes)
    }

    fn write(&self, location: &Path, bytes: &[u8]) -> io::Result<()> {
        write_atomically_with(&path(location), |file| file.write_all(bytes))
    }

    fn list(&self, dir: &Path) -> io::Result<Vec<Entry>> {
        let mut files = Vec::new();
        for entry in fs::read_dir(path(dir))? {
            let entry = entry?;
            let name = entry.file_name().to_string_lossy().into_owned();
            // A file removed between listing and looking is simply not there.
            let Ok(metadata) = entry.metadata() else { continue };
            if name.starts_with('.') || !metadata.is_file() {
                continue;
            }
            let modified = metadata.modified().unwrap_or(SystemTime::UNIX_EPOCH);
            files.push(Entry { name, size: metadata.len(), modified });
        }
        Ok(files)
    }

    fn kind(&self, location: &Path) -> io::Result<Kind> {
        match fs::metadata(path(location)) {
            Ok(metadata) if metadata.is_dir() => Ok(Kind::Dir),
            Ok(_) => Ok(Kind::File),
            Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(Kind::Missing),
            Err(error) => Err(error),
        }
    }

    fn create_dir(&self, dir: &Path) -> io::Result<()> {
        fs::create_dir_all(path(dir))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_url_is_its_path_and_temporary_files_are_not_listed() {
        let dir = std::env::temp_dir().join(format!("xiangqi-zero-local-disk-{}", std::process::id()));
        let url = PathBuf::from(format!("file://{}", dir.display()));
        LocalDisk.create_dir(&url.join("games")).unwrap();
        LocalDisk.write(&url.join("games/a.npz"), b"whole").unwrap();
        fs::write(dir.join("games/.a.npz.tmp-1-0"), b"half").unwrap();
        assert_eq!(fs::read(dir.join("games/a.npz")).unwrap(), b"whole");
        assert_eq!(LocalDisk.read(&url.join("games/a.npz"), 2).unwrap(), b"who");
        let listed: Vec<_> =
            LocalDisk.list(&url.join("games")).unwrap().into_iter().map(|e| (e.name, e.size)).collect();
        assert_eq!(listed, [("a.npz".to_string(), 5)]);
        assert_eq!(LocalDisk.kind(&url.join("games")).unwrap(), Kind::Dir);
        assert_eq!(LocalDisk.kind(&url.join("none")).unwrap(), Kind::Missing);
        assert_eq!(LocalDisk.list(&url.join("none")).unwrap_err().kind(), io::ErrorKind::NotFound);
        fs::remove_dir_all(&dir).unwrap();
    }
}

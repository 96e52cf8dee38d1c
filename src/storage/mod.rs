//! Where files live: on the local disk, or in an object store — Amazon S3 and the servers
//! that speak its protocol (MinIO, moto), Google Cloud Storage, Azure Blob Storage — named
//! by a URL: `s3://bucket/prefix`, `gs://bucket/prefix`, `az://container/prefix`, and
//! `file:///absolute/path` for the local disk. A location is carried as a path either way,
//! so joining names onto a run directory's root works alike; only this module looks at
//! which one it is ([`Storage`], one implementation for each).
//!
//! - Every file is written whole: a reader sees the old contents or the new, never a part
//!   (on disk a temporary file renamed over the target, in an object store one upload), and
//!   a file still being written is never listed.
//! - An object store's credentials, region and endpoint come from the environment
//!   variables its own tools read (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`,
//!   `AWS_REGION`, `AWS_ENDPOINT_URL` with `AWS_ALLOW_HTTP=true` for a server without TLS;
//!   `GOOGLE_SERVICE_ACCOUNT`; `AZURE_STORAGE_ACCOUNT_NAME`, `AZURE_STORAGE_ACCOUNT_KEY`).
//! - A network error is retried with exponential backoff for up to
//!   [`RETRY_SECONDS`] seconds (`XZ_STORAGE_RETRY_SECONDS` sets another bound), then
//!   returned as one line.
//!
//! Every function answers an [`io::Error`], `NotFound` for a file that is not there, so a
//! caller handles a missing object as it handles a missing file.

mod local;
mod object;

use std::io;
use std::path::Path;
use std::sync::Arc;
use std::time::SystemTime;

pub use object::RETRY_SECONDS;

/// A file as listed.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// Its name in the directory listed.
    pub name: String,
    /// Its length in bytes.
    pub size: u64,
    /// When it was last written.
    pub modified: SystemTime,
}

/// What a location names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Nothing.
    Missing,
    /// A file (on disk: anything but a directory).
    File,
    /// A directory (in an object store: a prefix some object's name continues).
    Dir,
}

/// One place files are kept; each method takes a whole location (a path, or a URL of
/// the implementation's store).
trait Storage: Send + Sync {
    /// The file's bytes, or its first `limit + 1` bytes when it is longer than `limit`.
    fn read(&self, location: &Path, limit: u64) -> io::Result<Vec<u8>>;

    /// Replaces the file with `bytes`, whole.
    fn write(&self, location: &Path, bytes: &[u8]) -> io::Result<()>;

    /// The files directly in the directory `dir`, leaving out files still being written.
    fn list(&self, dir: &Path) -> io::Result<Vec<Entry>>;

    /// What `location` names.
    fn kind(&self, location: &Path) -> io::Result<Kind>;

    /// Makes the directory `dir` and its parents where directories exist.
    fn create_dir(&self, dir: &Path) -> io::Result<()>;
}

/// The bytes of the file at `location`.
pub fn read(location: &Path) -> io::Result<Vec<u8>> {
    storage(location)?.read(location, u64::MAX)
}

/// The bytes of the file at `location`, or its first `limit + 1` bytes when it is longer
/// than `limit` (so that a caller can refuse it without reading a device that never ends).
pub fn read_at_most(location: &Path, limit: u64) -> io::Result<Vec<u8>> {
    storage(location)?.read(location, limit)
}

/// Replaces the file at `location` with `bytes`, so that a reader, or a crash at any
/// moment, sees either the old file or the new one whole, never a part.
pub fn write(location: &Path, bytes: &[u8]) -> io::Result<()> {
    storage(location)?.write(location, bytes)
}

/// The files directly in the directory `dir`, files still being written left out. A
/// directory not there is an error on disk; in an object store, where a directory is only
/// a prefix of names, it lists nothing.
pub fn list(dir: &Path) -> io::Result<Vec<Entry>> {
    storage(dir)?.list(dir)
}

/// What `location` names: nothing, a file or a directory.
pub fn kind(location: &Path) -> io::Result<Kind> {
    storage(location)?.kind(location)
}

/// Makes the directory `dir` (and its parents) on disk; in an object store, where
/// directories are only the prefixes of names, nothing.
pub fn create_dir(dir: &Path) -> io::Result<()> {
    storage(dir)?.create_dir(dir)
}

/// Where a location is, from its text.
enum Place<'a> {
    /// On this machine (a path, or a `file://` URL of one).
    Local,
    /// In the bucket (or container) `bucket` of the store `scheme`.
    Object { scheme: &'a str, bucket: &'a str },
}

/// The URL schemes of the object stores, as the error for another one lists them.
const SCHEMES: &str = "s3://, gs://, az:// or file://";

/// Where `location` is: a URL `SCHEME://…` names an object store (or, `file://`, the
/// local disk); anything else is a path.
fn place(location: &Path) -> io::Result<Place<'_>> {
    let Some((scheme, rest)) = location.to_str().and_then(|text| text.split_once("://")) else {
        return Ok(Place::Local);
    };
    let invalid = |why: String| io::Error::new(io::ErrorKind::InvalidInput, why);
    match scheme {
        "file" if rest.starts_with('/') => Ok(Place::Local),
        "file" => Err(invalid(format!("`{}`: a file:// URL names an absolute path (file:///…)", location.display()))),
        "s3" | "gs" | "az" => match rest.split('/').next() {
            Some(bucket) if !bucket.is_empty() => Ok(Place::Object { scheme, bucket }),
            _ => Err(invalid(format!("`{}`: no bucket after {scheme}://", location.display()))),
        },
        _ if scheme.chars().all(|c| c.is_ascii_alphanumeric()) => {
            Err(invalid(format!("`{}`: not a storage URL this program reads ({SCHEMES})", location.display())))
        }
        _ => Ok(Place::Local),
    }
}

/// The storage `location` is in.
fn storage(location: &Path) -> io::Result<Arc<dyn Storage>> {
    match place(location)? {
        Place::Local => Ok(Arc::new(local::LocalDisk)),
        Place::Object { scheme, bucket } => Ok(object::bucket(scheme, bucket)?),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_name_object_stores_and_everything_else_is_a_path() {
        for text in ["checkpoints/tiny", "/tmp/odd: name//x", "file:///tmp/run/state.json"] {
            assert!(matches!(place(Path::new(text)), Ok(Place::Local)), "{text} is on this machine");
        }
        for (text, store) in [("s3://bucket/runs/tiny", "s3"), ("gs://bucket", "gs"), ("az://box/run", "az")] {
            match place(Path::new(text)) {
                Ok(Place::Object { scheme, bucket }) => {
                    assert_eq!((scheme, bucket), (store, text[5..].split('/').next().unwrap()))
                }
                _ => panic!("{text} is in an object store"),
            }
        }
    }

    #[test]
    fn a_url_of_another_scheme_or_without_a_bucket_is_refused_in_one_line() {
        for (location, needle) in [
            ("http://host/run", "not a storage URL this program reads (s3://, gs://, az:// or file://)"),
            ("s3:///run", "no bucket after s3://"),
            ("file://relative/run", "names an absolute path"),
        ] {
            let error = read(Path::new(location)).unwrap_err();
            assert_eq!(error.kind(), io::ErrorKind::InvalidInput, "{location}");
            assert!(error.to_string().contains(needle), "{location}: {error}");
        }
    }
}

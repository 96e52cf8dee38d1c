//! Files in an object store's bucket, through Apache Arrow's `object_store` crate: one
//! client per bucket, built from the environment once and kept, on a small runtime of
//! this module's own, so that callers stay synchronous.
//!
//! An object is written by one upload (`PUT`), which the store makes visible whole or
//! not at all: a writer killed mid-upload leaves nothing. A "directory" is a prefix of
//! names ending in `/`.

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, SystemTime};

use object_store::aws::AmazonS3Builder;
use object_store::azure::MicrosoftAzureBuilder;
use object_store::gcp::GoogleCloudStorageBuilder;
use object_store::path::Path as Key;
use object_store::{BackoffConfig, GetOptions, ObjectStore, PutOptions, PutPayload, RetryConfig};
use tokio::runtime::Runtime;

use super::{Entry, Kind, Storage};

/// How long a request is retried, in seconds, before its error is returned (unless
/// `XZ_STORAGE_RETRY_SECONDS` says otherwise).
pub const RETRY_SECONDS: u64 = 120;

/// One bucket of one store.
pub(super) struct Bucket {
    /// `s3://bucket`: what every location in it starts with.
    root: String,
    store: Arc<dyn ObjectStore>,
}

/// The bucket `bucket` of the store `scheme` (`s3`, `gs` or `az`), its client built on first
/// use from the environment.
pub(super) fn bucket(scheme: &str, bucket: &str) -> io::Result<Arc<Bucket>> {
    static BUCKETS: OnceLock<Mutex<HashMap<String, Arc<Bucket>>>> = OnceLock::new();
    let root = format!("{scheme}://{bucket}");
    let mut buckets = BUCKETS.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    if let Some(known) = buckets.get(&root) {
        return Ok(Arc::clone(known));
    }
    // The TLS library's cryptography: ring, installed once for the process (an error
    // only says that one is installed already).
    let _ = rustls::crypto::ring::default_provider().install_default();
    let built = match scheme {
        "s3" => AmazonS3Builder::from_env().with_url(&root).with_retry(retry()).build().map(|s| Arc::new(s) as _),
        "gs" => {
            GoogleCloudStorageBuilder::from_env().with_url(&root).with_retry(retry()).build().map(|s| Arc::new(s) as _)
        }
        _ => MicrosoftAzureBuilder::from_env().with_url(&root).with_retry(retry()).build().map(|s| Arc::new(s) as _),
    };
    let store = built.map_err(|e| io::Error::other(format!("{root}: {}", one_line(&e))))?;
    let bucket = Arc::new(Bucket { root: root.clone(), store });
    buckets.insert(root, Arc::clone(&bucket));
    Ok(bucket)
}

/// Exponential backoff from 0.1 s to 15 s between tries, for the time
/// `XZ_STORAGE_RETRY_SECONDS` (default [`RETRY_SECONDS`]) allows.
fn retry() -> RetryConfig {
    let seconds = std::env::var("XZ_STORAGE_RETRY_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(RETRY_SECONDS);
    RetryConfig { backoff: BackoffConfig::default(), max_retries: 30, retry_timeout: Duration::from_secs(seconds) }
}

impl Bucket {
    /// The object name of `location`, which is in this bucket.
    fn key(&self, location: &Path) -> io::Result<Key> {
        let text = location.to_str().unwrap_or_default();
        let name = text.strip_prefix(&self.root).unwrap_or(text).trim_matches('/');
        Key::parse(name).map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, format!("`{text}`: {}", one_line(&e))))
    }
}

impl Storage for Bucket {
    fn read(&self, location: &Path, limit: u64) -> io::Result<Vec<u8>> {
        let key = self.key(location)?;
        let store = Arc::clone(&self.store);
        run(async move {
            let mut options = GetOptions::default();
            if limit < u64::MAX {
                let head = store.get_opts(&key, GetOptions { head: true, ..GetOptions::default() }).await?;
                if head.meta.size > limit {
                    options.range = Some((0..limit + 1).into());
                }
            }
            store.get_opts(&key, options).await?.bytes().await
        })
        .map(|bytes| bytes.to_vec())
    }

    fn write(&self, location: &Path, bytes: &[u8]) -> io::Result<()> {
        let key = self.key(location)?;
        let store = Arc::clone(&self.store);
        let payload = PutPayload::from(bytes.to_vec());
        run(async move { store.put_opts(&key, payload, PutOptions::default()).await }).map(|_| ())
    }

    fn list(&self, dir: &Path) -> io::Result<Vec<Entry>> {
        let prefix = self.key(dir)?;
        let store = Arc::clone(&self.store);
        let listed = run(async move { store.list_with_delimiter(Some(&prefix)).await })?;
        Ok(listed
            .objects
            .into_iter()
            .filter_map(|meta| {
                let name = meta.location.filename()?.to_string();
                Some(Entry { name, size: meta.size, modified: SystemTime::from(meta.last_modified) })
            })
            .collect())
    }

    fn kind(&self, location: &Path) -> io::Result<Kind> {
        let key = self.key(location)?;
        let store = Arc::clone(&self.store);
        run(async move {
            // (The bucket's root is no object: a request for it would ask for the bucket.)
            if !key.as_ref().is_empty() {
                match store.get_opts(&key, GetOptions { head: true, ..GetOptions::default() }).await {
                    Ok(_) => return Ok(Kind::File),
                    Err(object_store::Error::NotFound { .. }) => {}
                    Err(error) => return Err(error),
                }
            }
            let listed = store.list_with_delimiter(Some(&key)).await?;
            let empty = listed.objects.is_empty() && listed.common_prefixes.is_empty();
            Ok(if empty { Kind::Missing } else { Kind::Dir })
        })
    }

    fn create_dir(&self, _dir: &Path) -> io::Result<()> {
        Ok(())
    }
}

/// Runs `request` to its end on this module's runtime (from a thread of its own when the
/// caller is itself on a runtime, which cannot block), its error as an [`io::Error`].
fn run<T: Send>(request: impl Future<Output = object_store::Result<T>> + Send) -> io::Result<T> {
    static RUNTIME: OnceLock<Result<Runtime, String>> = OnceLock::new();
    let runtime = RUNTIME
        .get_or_init(|| {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build();
            runtime.map_err(|e| format!("cannot start the object store's runtime: {e}"))
        })
        .as_ref()
        .map_err(|why| io::Error::other(why.clone()))?;
    let result = if tokio::runtime::Handle::try_current().is_ok() {
        std::thread::scope(|scope| scope.spawn(|| runtime.block_on(request)).join())
            .map_err(|_| io::Error::other("the object store's request failed"))?
    } else {
        runtime.block_on(request)
    };
    result.map_err(|error| match error {
        object_store::Error::NotFound { .. } => io::Error::new(io::ErrorKind::NotFound, "no such object"),
        error => io::Error::other(one_line(&error)),
    })
}

/// An error and its causes on one line, each cause once.
fn one_line(error: &dyn std::error::Error) -> String {
    let mut line = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let text = cause.to_string();
        if !line.contains(&text) {
            line += &format!(": {text}");
        }
        source = cause.source();
    }
    line.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A bucket in memory, where the store's own behaviour is the same as a server's.
    fn memory() -> Bucket {
        Bucket { root: "s3://test".to_string(), store: Arc::new(object_store::memory::InMemory::new()) }
    }

    #[test]
    fn objects_are_written_read_listed_and_told_from_prefixes() {
        let bucket = memory();
        let at = |key: &str| std::path::PathBuf::from(format!("s3://test/run/{key}"));
        assert_eq!(bucket.kind(&at("")).unwrap(), Kind::Missing);
        assert_eq!(bucket.read(&at("state.json"), u64::MAX).unwrap_err().kind(), io::ErrorKind::NotFound);
        bucket.write(&at("state.json"), b"{}").unwrap();
        bucket.write(&at("games/gen0001-a.npz"), b"shard").unwrap();
        bucket.write(&at("games/deeper/x.npz"), b"not directly in games/").unwrap();
        assert_eq!(bucket.read(&at("state.json"), u64::MAX).unwrap(), b"{}");
        assert_eq!(bucket.read(&at("games/gen0001-a.npz"), 2).unwrap(), b"sha", "limit + 1 bytes of a longer one");
        assert_eq!(bucket.kind(&at("")).unwrap(), Kind::Dir);
        assert_eq!(bucket.kind(&at("games")).unwrap(), Kind::Dir);
        assert_eq!(bucket.kind(&at("state.json")).unwrap(), Kind::File);
        let names: Vec<_> = bucket.list(&at("games")).unwrap().into_iter().map(|e| (e.name, e.size)).collect();
        assert_eq!(names, [("gen0001-a.npz".to_string(), 5)]);
        assert!(bucket.list(&at("nothing")).unwrap().is_empty());
    }

    #[test]
    fn a_request_from_inside_a_runtime_still_completes() {
        let bucket = memory();
        let location = Path::new("s3://test/x");
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        runtime.block_on(async { bucket.write(location, b"inside").unwrap() });
        assert_eq!(bucket.read(location, u64::MAX).unwrap(), b"inside");
    }
}

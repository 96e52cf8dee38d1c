//! The replay window: the newest samples of the run's `games/` directory, as many as
//! [`TrainSettings::window_size`] allows for the samples written so far.
//!
//! Shards (`*.npz`, from this machine or any other sharing the directory, on disk or in an
//! object store; files still being written are never listed) are ordered newest first, by
//! the generation in their name's `genNNNN-` prefix, then by modification time. Each
//! shard's sample count is read once; the samples of the shards in the window stay in
//! memory between refreshes and those that fall out are dropped, so a refresh lists the
//! shards and reads only new ones. A corrupt or
//! truncated shard is skipped with a warning naming it, never an error that stops training.

use std::collections::HashMap;
use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use ndarray::Array1;
use ndarray_npy::NpzReader;

use super::TrainSettings;
use crate::selfplay::{read_shard, SampleShape, Samples};
use crate::storage;

/// The games directory could not be listed.
#[derive(Debug, thiserror::Error)]
#[error("cannot list the shards in `{}`: {why}", dir.display())]
pub struct WindowError {
    /// The directory.
    pub dir: PathBuf,
    /// What went wrong.
    pub why: String,
}

/// What a shard file was when last looked at, and what was read of it.
struct Known {
    /// Modification time and size: a change means the file was replaced.
    stamp: (SystemTime, u64),
    /// The sample count, `None` for a shard that could not be read.
    count: Option<u64>,
    /// The samples, while the shard is in the window.
    samples: Option<Samples>,
}

/// A shard file as listed.
struct Listed {
    name: String,
    /// From the name's `genNNNN-` prefix.
    generation: u64,
    modified: SystemTime,
    stamp: (SystemTime, u64),
}

/// What a [`Window::refresh`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct WindowUpdate {
    /// Samples in readable shards that were not there at the previous refresh.
    pub new_samples: u64,
    /// Samples in all readable shards (`N` of the window's formula).
    pub total_samples: u64,
    /// Samples now in the window.
    pub window_samples: u64,
    /// Shards whose samples were read by this refresh.
    pub read: usize,
    /// One line per shard skipped as unreadable (each also printed on stderr, once).
    pub warnings: Vec<String>,
}

/// The replay window over one games directory.
pub struct Window {
    dir: PathBuf,
    shape: SampleShape,
    known: HashMap<String, Known>,
    /// The shards in the window, newest first.
    shards: Vec<String>,
    /// `ends[i]`: samples in `shards[..=i]`.
    ends: Vec<usize>,
    total_samples: u64,
}

impl Window {
    /// An empty window over the shards in `dir`, whose samples have `shape`.
    pub fn new(dir: &Path, shape: SampleShape) -> Window {
        Window {
            dir: dir.to_path_buf(),
            shape,
            known: HashMap::new(),
            shards: Vec::new(),
            ends: Vec::new(),
            total_samples: 0,
        }
    }

    /// Samples in the window.
    pub fn len(&self) -> usize {
        self.ends.last().copied().unwrap_or(0)
    }

    /// Whether the window holds no sample.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The shards in the window, newest first.
    pub fn shards(&self) -> &[String] {
        &self.shards
    }

    /// Sample `index` (below [`Window::len`]): its shard's samples and its index there.
    pub fn sample(&self, index: usize) -> (&Samples, usize) {
        let shard = self.ends.partition_point(|&end| end <= index);
        let start = if shard == 0 { 0 } else { self.ends[shard - 1] };
        let samples = self.known[&self.shards[shard]].samples.as_ref().expect("a shard in the window is in memory");
        (samples, index - start)
    }

    /// Looks at the directory again: counts new shards, takes the newest until the window
    /// for all samples written is full, reads those not in memory and drops the rest.
    pub fn refresh(&mut self, settings: &TrainSettings) -> Result<WindowUpdate, WindowError> {
        let mut warnings = Vec::new();
        let mut listed = self.list()?;
        listed.sort_by(|a, b| (b.generation, b.modified, &b.name).cmp(&(a.generation, a.modified, &a.name)));
        self.known.retain(|name, _| listed.iter().any(|shard| shard.name == *name));
        for shard in &listed {
            if self.known.get(&shard.name).is_some_and(|known| known.stamp == shard.stamp) {
                continue;
            }
            let path = self.dir.join(&shard.name);
            let count = count_samples(&path).map_err(|why| warnings.push(skipped(&path, &why))).ok();
            self.known.insert(shard.name.clone(), Known { stamp: shard.stamp, count, samples: None });
        }
        let previous = self.total_samples;
        self.total_samples = self.known.values().filter_map(|known| known.count).sum();

        let wanted = settings.window_size(self.total_samples);
        let (mut shards, mut ends, mut read, mut taken) = (Vec::new(), Vec::new(), 0, 0u64);
        for Listed { name, .. } in &listed {
            let known = self.known.get_mut(name).expect("every listed shard is known");
            if taken >= wanted || known.count.is_none() {
                known.samples = None;
                continue;
            }
            if known.samples.is_none() {
                match read_shard(&self.dir.join(name), self.shape) {
                    Ok(samples) => {
                        known.samples = Some(samples);
                        read += 1;
                    }
                    Err(error) => {
                        warnings.push(skipped(&self.dir.join(name), &error.to_string()));
                        self.total_samples -= known.count.take().unwrap_or(0);
                        continue;
                    }
                }
            }
            let len = known.samples.as_ref().map_or(0, Samples::len);
            taken += len as u64;
            shards.push(name.clone());
            ends.push(ends.last().copied().unwrap_or(0) + len);
        }
        self.shards = shards;
        self.ends = ends;
        Ok(WindowUpdate {
            new_samples: self.total_samples.saturating_sub(previous),
            total_samples: self.total_samples,
            window_samples: taken,
            read,
            warnings,
        })
    }

    /// The shard files of the directory.
    fn list(&self) -> Result<Vec<Listed>, WindowError> {
        let files = storage::list(&self.dir).map_err(|e| WindowError { dir: self.dir.clone(), why: e.to_string() })?;
        Ok(files
            .into_iter()
            .filter(|file| file.name.ends_with(".npz"))
            .map(|file| Listed {
                generation: generation(&file.name),
                modified: file.modified,
                stamp: (file.modified, file.size),
                name: file.name,
            })
            .collect())
    }
}

/// The generation in a shard name's `genNNNN-` prefix (0 without one).
fn generation(name: &str) -> u64 {
    name.strip_prefix("gen")
        .and_then(|rest| rest.split_once('-'))
        .and_then(|(digits, _)| digits.parse().ok())
        .unwrap_or(0)
}

/// The sample count of the shard at `path`, from its `policyTargetsCountN` array alone.
fn count_samples(path: &Path) -> Result<u64, String> {
    let bytes = storage::read(path).map_err(|e| e.to_string())?;
    let mut npz = NpzReader::new(Cursor::new(bytes)).map_err(|e| format!("not an npz file ({e})"))?;
    let counts: Array1<u16> =
        npz.by_name("policyTargetsCountN").map_err(|e| format!("array `policyTargetsCountN`: {e}"))?;
    Ok(counts.len() as u64)
}

/// Prints and returns the warning for a skipped shard.
fn skipped(path: &Path, why: &str) -> String {
    let why = why.strip_prefix(&format!("cannot read the shard `{}`: ", path.display())).unwrap_or(why);
    let warning = format!("warning: skipping the shard `{}`: {why}", path.display());
    eprintln!("{warning}");
    warning
}

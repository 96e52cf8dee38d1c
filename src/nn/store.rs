//! Saving and loading a net as safetensors (readable by numpy and PyTorch), with its
//! game and shape in the file's metadata, so a net of another game or shape is refused
//! with an error naming the file and the mismatch.

use std::collections::HashMap;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use burn::store::{ModuleSnapshot, SafetensorsStore};
use burn::tensor::Device;

use super::model::{Net, NetConfig};
use super::Encoding;

/// Why a net could not be saved or loaded: one line naming the file.
#[derive(Debug, thiserror::Error)]
pub enum NetError {
    /// Writing the file failed.
    #[error("cannot write the net `{}`: {why}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        why: String,
    },
    /// The file is missing, unreadable or not a net of ours.
    #[error("cannot read the net `{}`: {why}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        why: String,
    },
    /// The file holds a net of another game or shape than the one asked for.
    #[error("the net `{}` is {found}, expected {expected}", path.display())]
    Mismatch {
        /// The file.
        path: PathBuf,
        /// What the file holds.
        found: String,
        /// What was asked for.
        expected: String,
    },
}

/// The metadata key of the game's name.
const GAME: &str = "xiangqi-zero.game";
/// The metadata keys of the shape's sizes, in `NetConfig` order.
const SIZES: [&str; 6] = ["planes", "height", "width", "policy_size", "blocks", "channels"];

/// The largest size a file may give (a net is built from them before its tensors are read).
const MAX_SIZE: usize = 4096;

/// The sizes of `config` in `SIZES` order.
fn sizes(config: &NetConfig) -> [usize; 6] {
    [config.planes, config.height, config.width, config.policy_size, config.blocks, config.channels]
}

impl Net {
    /// Writes the net to `path` (atomically: a temp file renamed into place).
    pub fn save(&self, path: &Path) -> Result<(), NetError> {
        let mut store = SafetensorsStore::from_file(path).overwrite(true).metadata(GAME, self.config.game);
        for (key, size) in SIZES.iter().zip(sizes(&self.config)) {
            store = store.metadata(format!("xiangqi-zero.{key}"), size.to_string());
        }
        self.save_into(&mut store).map_err(|e| NetError::Write { path: path.to_path_buf(), why: e.to_string() })
    }

    /// Reads a net of game `G` from `path` onto `device`. With `expected`, the file's
    /// shape must be that one; without, the net takes the file's shape.
    pub fn load<G: Encoding>(path: &Path, expected: Option<NetConfig>, device: &Device) -> Result<Net, NetError> {
        let (game, found) = read_sizes(path)?;
        let mismatch =
            |found: String, expected: String| NetError::Mismatch { path: path.to_path_buf(), found, expected };
        if game != G::NAME {
            return Err(mismatch(format!("a {game} net"), format!("a {} net", G::NAME)));
        }
        let config = NetConfig { game: G::NAME, ..NetConfig::new::<G>(found[4], found[5]) };
        if sizes(&config) != found {
            let [planes, height, width, policy, ..] = found;
            let found = format!("for {planes} planes of {height}×{width} and {policy} policy labels");
            let want = format!("{} planes of {}×{} and {} labels", G::PLANES, G::HEIGHT, G::WIDTH, G::POLICY_SIZE);
            return Err(mismatch(found, want));
        }
        if let Some(expected) = expected.filter(|expected| *expected != config) {
            return Err(mismatch(config.to_string(), expected.to_string()));
        }
        let mut net = Net::new(config, device);
        net.load_from(&mut SafetensorsStore::from_file(path))
            .map_err(|e| NetError::Read { path: path.to_path_buf(), why: e.to_string() })?;
        Ok(net)
    }
}

/// The game and sizes (`SIZES` order) recorded in the metadata of the safetensors file
/// at `path`, read from its header alone.
fn read_sizes(path: &Path) -> Result<(String, [usize; 6]), NetError> {
    let error = |why: String| NetError::Read { path: path.to_path_buf(), why };
    let metadata = read_metadata(path).map_err(error)?;
    let field =
        |key: &str| metadata.get(key).ok_or_else(|| error(format!("no `{key}` in its metadata: not a net of ours")));
    let game = field(GAME)?.clone();
    let mut sizes = [0; 6];
    for (size, key) in sizes.iter_mut().zip(SIZES) {
        let key = format!("xiangqi-zero.{key}");
        let text = field(&key)?;
        *size = text
            .parse()
            .ok()
            .filter(|size| (1..=MAX_SIZE).contains(size))
            .ok_or_else(|| error(format!("`{key}` is `{text}`, not a size from 1 to {MAX_SIZE}")))?;
    }
    Ok((game, sizes))
}

/// The `__metadata__` of a safetensors file: an 8-byte little-endian header length, then
/// the JSON header.
fn read_metadata(path: &Path) -> Result<HashMap<String, String>, String> {
    /// Larger headers are not ours (ours are a few kilobytes).
    const MAX_HEADER: u64 = 1 << 24;
    let mut file = File::open(path).map_err(|e| e.to_string())?;
    let mut length = [0u8; 8];
    file.read_exact(&mut length).map_err(|_| "too short for a safetensors file".to_string())?;
    let length = u64::from_le_bytes(length);
    if length > MAX_HEADER {
        return Err(format!("not a safetensors file (header of {length} bytes)"));
    }
    let mut header = vec![0u8; length as usize];
    file.read_exact(&mut header).map_err(|_| "truncated safetensors header".to_string())?;
    #[derive(serde::Deserialize)]
    struct Header {
        #[serde(rename = "__metadata__", default)]
        metadata: HashMap<String, String>,
    }
    let header: Header =
        serde_json::from_slice(&header).map_err(|e| format!("not a safetensors file (bad header: {e})"))?;
    Ok(header.metadata)
}

//! Saving and loading a net as safetensors (readable by numpy and PyTorch), with its
//! game, shape and encoding version in the file's metadata ([`super::info`]), so a net of
//! another game, shape or encoding is refused with an error naming the file and the
//! mismatch.

use std::path::Path;

use burn::store::{ModuleSnapshot, SafetensorsStore};
use burn::tensor::Device;

use super::info::{NetInfo, Provenance, ENCODING_VERSION};
use super::model::{Net, NetConfig};
use super::net_error::NetError;
use super::Encoding;
use crate::storage;

impl Net {
    /// Writes the net to `path` (a path or an object store's URL; whole, never a part),
    /// with its game, shape and the current encoding version.
    pub fn save(&self, path: &Path) -> Result<(), NetError> {
        self.save_with(path, Provenance::default())
    }

    /// [`Net::save`], recording where the net comes from as well.
    pub fn save_with(&self, path: &Path, provenance: Provenance) -> Result<(), NetError> {
        let failed = |why: String| NetError::Write { path: path.to_path_buf(), why };
        let mut store = SafetensorsStore::from_bytes(None);
        for (key, value) in NetInfo::new(self.config, provenance).metadata() {
            store = store.metadata(key, value);
        }
        self.save_into(&mut store).map_err(|e| failed(e.to_string()))?;
        let bytes = store.get_bytes().map_err(|e| failed(e.to_string()))?;
        storage::write(path, &bytes).map_err(|e| failed(e.to_string()))
    }

    /// Reads a net of game `G` from `path` (a path or an object store's URL) onto
    /// `device`. With `expected`, the file's shape must be that one; without, the net takes
    /// the file's shape. A file of another game or encoding version is refused (one without
    /// a version is taken as current).
    pub fn load<G: Encoding>(path: &Path, expected: Option<NetConfig>, device: &Device) -> Result<Net, NetError> {
        Net::from_bytes::<G>(path, NetInfo::read_file(path)?, expected, device)
    }

    /// [`Net::load`] of `bytes`, the whole net file `path` names (in errors).
    pub fn from_bytes<G: Encoding>(
        path: &Path,
        bytes: Vec<u8>,
        expected: Option<NetConfig>,
        device: &Device,
    ) -> Result<Net, NetError> {
        let info = NetInfo::parse(path, &bytes)?;
        let mismatch =
            |found: String, expected: String| NetError::Mismatch { path: path.to_path_buf(), found, expected };
        let found = info.config;
        if found.game != G::NAME {
            return Err(mismatch(format!("a {} net", found.game), format!("a {} net", G::NAME)));
        }
        if let Some(version) = info.encoding_version.filter(|&version| version != ENCODING_VERSION) {
            return Err(mismatch(format!("of encoding version {version}"), format!("version {ENCODING_VERSION}")));
        }
        let config = NetConfig::new::<G>(found.blocks, found.channels)
            .with_count_value(found.count_value)
            .with_policy_head(found.policy_head)
            .with_reply_policy(found.reply_policy)
            .with_soft_policy(found.soft_policy);
        if config != found {
            let found = format!(
                "for {} planes of {}×{} and {} policy labels",
                found.planes, found.height, found.width, found.policy_size
            );
            let want = format!("{} planes of {}×{} and {} labels", G::PLANES, G::HEIGHT, G::WIDTH, G::POLICY_SIZE);
            return Err(mismatch(found, want));
        }
        if let Some(expected) = expected.filter(|expected| *expected != config) {
            return Err(mismatch(config.to_string(), expected.to_string()));
        }
        let mut net = Net::new(config, device);
        net.load_from(&mut SafetensorsStore::from_bytes(Some(bytes)))
            .map_err(|e| NetError::Read { path: path.to_path_buf(), why: e.to_string() })?;
        Ok(net)
    }
}

//! The optimiser (SGD with momentum or Adam, weight decay included) behind one type, and
//! its state in a file beside the model.
//!
//! burn keys an optimiser's state by the ids of the model's parameters, which are fresh
//! for a net loaded from a file. The state file therefore records, beside burn's own
//! burnpack bytes, every parameter's path and id in the model's order; loading gives the
//! loaded net's parameters those ids back. The file is `MAGIC`, a little-endian `u64`
//! header length, the JSON header (with a checksum of the rest), then the burnpack bytes,
//! written atomically.

use std::path::{Path, PathBuf};

use burn::module::{Module, ModuleMapper, ModuleVisitor, Param, ParamId};
use burn::optim::decay::WeightDecayConfig;
use burn::optim::momentum::MomentumConfig;
use burn::optim::{AdamConfig, GradientsParams, ModuleOptimizer, SgdConfig};
use burn::tensor::{Bytes, Tensor};
use serde::{Deserialize, Serialize};

use super::settings::{OptimizerKind, TrainSettings};
use crate::nn::Net;
use crate::storage;

/// The first bytes of a state file.
const MAGIC: &[u8; 8] = b"XQZOPT1\n";

/// Why an optimiser state could not be saved or loaded: one line naming the file.
#[derive(Debug, thiserror::Error)]
pub enum OptimizerError {
    /// Writing failed (the file is then absent or as it was).
    #[error("cannot write the optimizer state `{}`: {why}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        why: String,
    },
    /// The file is missing, corrupt, or the state of another optimiser or net.
    #[error("cannot read the optimizer state `{}`: {why}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        why: String,
    },
}

/// The state file's header.
#[derive(Serialize, Deserialize)]
struct Header {
    /// The optimiser the state belongs to.
    optimizer: OptimizerKind,
    /// Every parameter's path and id, in the model's order.
    params: Vec<(String, u64)>,
    /// FNV-1a of the burnpack bytes (burnpack checks its structure, not its data).
    checksum: u64,
}

/// The 64-bit FNV-1a hash of `bytes`.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3))
}

/// The training optimiser: burn's SGD (Nesterov momentum) or Adam, with the settings'
/// weight decay.
#[derive(Clone)]
pub struct Optimizer {
    kind: OptimizerKind,
    inner: ModuleOptimizer,
}

impl Optimizer {
    /// A fresh optimiser (no state yet) as `settings` ask.
    pub fn new(settings: &TrainSettings) -> Optimizer {
        let decay = (settings.weight_decay > 0.0).then(|| WeightDecayConfig::new(settings.weight_decay as f32));
        let inner = match settings.optimizer {
            OptimizerKind::Sgd => SgdConfig::new()
                .with_momentum(Some(
                    MomentumConfig::new().with_momentum(settings.momentum).with_dampening(0.0).with_nesterov(true),
                ))
                .with_weight_decay(decay)
                .init(),
            OptimizerKind::Adam => AdamConfig::new().with_weight_decay(decay).init(),
        };
        Optimizer { kind: settings.optimizer, inner }
    }

    /// One step on `net` with `grads` at learning rate `lr`; returns the updated net.
    pub fn step(&mut self, lr: f64, net: Net, grads: GradientsParams) -> Net {
        self.inner.step(lr, net, grads)
    }

    /// Writes the state, for the parameters of `net`, to `path` (whole).
    pub fn save(&self, net: &Net, path: &Path) -> Result<(), OptimizerError> {
        let error = |why: String| OptimizerError::Write { path: path.to_path_buf(), why };
        let mut ids = ParamIds::default();
        net.visit(&mut ids);
        let state = self.inner.into_bytes().map_err(|e| error(e.to_string()))?;
        let header = Header { optimizer: self.kind, params: ids.params, checksum: fnv1a(&state) };
        let header = serde_json::to_vec(&header).map_err(|e| error(e.to_string()))?;
        let bytes = [&MAGIC[..], &(header.len() as u64).to_le_bytes(), &header, &state].concat();
        storage::write(path, &bytes).map_err(|e| error(e.to_string()))
    }

    /// Reads the state at `path` into a fresh optimiser as `settings` ask, for `net`
    /// (of the shape the state was saved with); returns the optimiser and `net` with the
    /// parameter ids the state refers to.
    pub fn load(settings: &TrainSettings, net: Net, path: &Path) -> Result<(Optimizer, Net), OptimizerError> {
        let error = |why: String| OptimizerError::Read { path: path.to_path_buf(), why };
        let bytes = storage::read(path).map_err(|e| error(e.to_string()))?;
        let rest = bytes.strip_prefix(MAGIC).ok_or_else(|| error("not an optimizer state of ours".into()))?;
        let (length, rest) = rest.split_first_chunk::<8>().ok_or_else(|| error("truncated header".into()))?;
        let length = usize::try_from(u64::from_le_bytes(*length)).unwrap_or(usize::MAX);
        if length > rest.len() {
            return Err(error("truncated header".into()));
        }
        let (header, state) = rest.split_at(length);
        let header: Header = serde_json::from_slice(header).map_err(|e| error(format!("bad header ({e})")))?;
        if fnv1a(state) != header.checksum {
            return Err(error("corrupt or truncated state (checksum mismatch)".into()));
        }
        if header.optimizer != settings.optimizer {
            let name = |kind: OptimizerKind| format!("{kind:?}").to_lowercase();
            let (found, wanted) = (name(header.optimizer), name(settings.optimizer));
            return Err(error(format!("it holds {found} state, the settings ask for {wanted}")));
        }
        let mut ids = ParamIds::default();
        net.visit(&mut ids);
        let expected: Vec<&String> = ids.params.iter().map(|(path, _)| path).collect();
        let found: Vec<&String> = header.params.iter().map(|(path, _)| path).collect();
        if expected != found {
            return Err(error(format!(
                "it is for a net of {} parameters, not this one of {}",
                found.len(),
                expected.len()
            )));
        }
        let optimizer = Optimizer::new(settings);
        let state = Bytes::from_bytes_vec(state.to_vec());
        let inner = optimizer.inner.from_bytes(state).map_err(|e| error(format!("bad state ({e})")))?;
        let net = net.map(&mut SetIds { ids: header.params.into_iter().map(|(_, id)| id).collect(), next: 0 });
        Ok((Optimizer { inner, ..optimizer }, net))
    }
}

/// Collects every float parameter's path and id, in the model's order.
#[derive(Default)]
struct ParamIds {
    path: Vec<String>,
    params: Vec<(String, u64)>,
}

impl ModuleVisitor for ParamIds {
    fn enter_module(&mut self, name: &str, _container_type: &str) {
        self.path.push(name.to_string());
    }

    fn exit_module(&mut self, _name: &str, _container_type: &str) {
        self.path.pop();
    }

    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        self.params.push((self.path.join("."), param.id.val()));
    }
}

/// Gives the float parameters the ids `ids`, in the model's order.
struct SetIds {
    ids: Vec<u64>,
    next: usize,
}

impl ModuleMapper for SetIds {
    fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
        let (_, value, mapper) = param.consume();
        let id = ParamId::from(self.ids[self.next]);
        self.next += 1;
        Param::from_mapped_value(id, value, mapper)
    }
}

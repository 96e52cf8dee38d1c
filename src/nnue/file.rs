//! An NNUE file: the quantized net as safetensors (numpy and PyTorch read it), its
//! tensors named by layer, with what a reader needs in the metadata — the format and
//! its version, the features, the layers' widths, the quantization and where the net
//! comes from. A file of another format, version, feature set or shape is refused with
//! the reason.

use std::collections::HashMap;
use std::path::Path;

use safetensors::tensor::{Dtype, TensorView};
use safetensors::SafeTensors;

use super::dense::DenseWeights;
use super::features::{FEATURES, KING_BUCKETS};
use super::net::{Nnue, FEATURE_SCALE, WEIGHT_SCALE};
use super::shape::{CENTIPAWNS_PER_UNIT, L1, L2, L3};

/// The metadata's `format`.
const FORMAT: &str = "xiangqi-zero-nnue";
/// The file layout's version.
const VERSION: &str = "1";

/// The metadata's keys, in the order `export --info` prints them.
const METADATA_KEYS: [&str; 6] = ["format", "version", "features", "layers", "quantization", "provenance"];

/// The features' description, as the metadata records it.
fn features_text() -> String {
    format!(
        "half-ka: {KING_BUCKETS} general buckets, mirrored left-right, 14 pieces × 90 squares ({FEATURES} per side)"
    )
}

/// A tensor of `data`, whose size matches `shape`.
fn view(dtype: Dtype, shape: Vec<usize>, data: &[u8]) -> TensorView<'_> {
    TensorView::new(dtype, shape, data).expect("the sizes match")
}

/// Whether the file at `path` is an NNUE's (its metadata says so); `false` for any other
/// file and for one that cannot be read.
pub fn is_nnue_file(path: &Path) -> bool {
    std::fs::read(path).is_ok_and(|bytes| {
        SafeTensors::read_metadata(&bytes).is_ok_and(|(_, header)| {
            header.metadata().as_ref().and_then(|m| m.get("format")).is_some_and(|format| format == FORMAT)
        })
    })
}

impl Nnue {
    /// What its file records, a line each: the format, features, layers, quantization and
    /// provenance (as `export --info` prints it).
    pub fn describe(&self) -> String {
        let metadata = self.metadata();
        METADATA_KEYS.iter().map(|key| format!("{key}: {}\n", metadata.get(*key).map_or("", String::as_str))).collect()
    }

    /// The metadata its file records, under [`METADATA_KEYS`].
    fn metadata(&self) -> HashMap<String, String> {
        let values = [
            FORMAT.to_string(),
            VERSION.to_string(),
            features_text(),
            format!("{FEATURES}→{L1} per side, 2×{L1}→{L2}→{L3}→1, plus {FEATURES}→1 per side (PSQT)"),
            format!(
                "feature int16 ×{FEATURE_SCALE}; hidden int8 ×{WEIGHT_SCALE}, bias and PSQT int32 ×{}; output f32; \
                 the output is a logit, ×{CENTIPAWNS_PER_UNIT} centipawns",
                FEATURE_SCALE * WEIGHT_SCALE
            ),
            self.provenance.clone(),
        ];
        METADATA_KEYS.iter().map(|key| key.to_string()).zip(values).collect()
    }

    /// The net as the bytes of its file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let feature_weights: Vec<u8> = self.feature_weights.iter().flatten().flat_map(|w| w.to_le_bytes()).collect();
        let feature_bias: Vec<u8> = self.feature_bias.iter().flat_map(|w| w.to_le_bytes()).collect();
        let i8_bytes = |weights: &DenseWeights| weights.rows().iter().map(|&w| w as u8).collect::<Vec<u8>>();
        let i32_bytes = |bias: &[i32]| bias.iter().flat_map(|b| b.to_le_bytes()).collect::<Vec<u8>>();
        let (hidden1, hidden2) = (i8_bytes(&self.hidden1), i8_bytes(&self.hidden2));
        let (hidden1_bias, hidden2_bias) = (i32_bytes(&self.hidden1_bias), i32_bytes(&self.hidden2_bias));
        let output: Vec<u8> =
            self.output_weights.iter().chain([&self.output_bias]).flat_map(|w| w.to_le_bytes()).collect();
        let psqt = i32_bytes(&self.psqt_weights);
        let tensors = [
            ("feature.weight", view(Dtype::I16, vec![FEATURES, L1], &feature_weights)),
            ("feature.bias", view(Dtype::I16, vec![L1], &feature_bias)),
            ("hidden1.weight", view(Dtype::I8, vec![L2, 2 * L1], &hidden1)),
            ("hidden1.bias", view(Dtype::I32, vec![L2], &hidden1_bias)),
            ("hidden2.weight", view(Dtype::I8, vec![L3, L2], &hidden2)),
            ("hidden2.bias", view(Dtype::I32, vec![L3], &hidden2_bias)),
            ("output.weight_bias", view(Dtype::F32, vec![L3 + 1], &output)),
            ("psqt.weight", view(Dtype::I32, vec![FEATURES], &psqt)),
        ];
        safetensors::serialize(tensors, Some(self.metadata())).expect("the tensors serialize")
    }

    /// The net of a file's `bytes`; `path` names it in errors.
    pub fn from_bytes(path: &Path, bytes: &[u8]) -> Result<Nnue, String> {
        let fail = |why: String| format!("{}: not an NNUE of this version ({why})", path.display());
        let file = SafeTensors::deserialize(bytes).map_err(|e| fail(e.to_string()))?;
        let (_, header) = SafeTensors::read_metadata(bytes).map_err(|e| fail(e.to_string()))?;
        let metadata = header.metadata().clone().unwrap_or_default();
        let field = |key: &str| metadata.get(key).cloned().unwrap_or_default();
        if field("format") != FORMAT {
            return Err(fail(format!("its format is `{}`, not `{FORMAT}`", field("format"))));
        }
        if field("version") != VERSION || field("features") != features_text() {
            return Err(fail(format!("version {} with features `{}`", field("version"), field("features"))));
        }
        let tensor = |name: &str, dtype: Dtype, shape: &[usize]| -> Result<&[u8], String> {
            let view = file.tensor(name).map_err(|e| fail(e.to_string()))?;
            if view.dtype() != dtype || view.shape() != shape {
                return Err(fail(format!("{name} is {:?} {:?}, not {dtype:?} {shape:?}", view.dtype(), view.shape())));
            }
            Ok(view.data())
        };
        let i16s = |data: &[u8]| data.chunks_exact(2).map(|b| i16::from_le_bytes([b[0], b[1]])).collect::<Vec<_>>();
        let i32s = |data: &[u8]| {
            data.chunks_exact(4).map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect::<Vec<_>>()
        };
        let i8s = |data: &[u8]| data.iter().map(|&b| b as i8).collect::<Vec<_>>();
        let feature_weights = i16s(tensor("feature.weight", Dtype::I16, &[FEATURES, L1])?);
        let feature_bias = i16s(tensor("feature.bias", Dtype::I16, &[L1])?);
        let hidden1 = i8s(tensor("hidden1.weight", Dtype::I8, &[L2, 2 * L1])?);
        let hidden1_bias = i32s(tensor("hidden1.bias", Dtype::I32, &[L2])?);
        let hidden2 = i8s(tensor("hidden2.weight", Dtype::I8, &[L3, L2])?);
        let hidden2_bias = i32s(tensor("hidden2.bias", Dtype::I32, &[L3])?);
        let output: Vec<f32> = tensor("output.weight_bias", Dtype::F32, &[L3 + 1])?
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        let psqt_weights = i32s(tensor("psqt.weight", Dtype::I32, &[FEATURES])?);
        Ok(Nnue {
            feature_weights: feature_weights.chunks_exact(L1).map(|row| row.try_into().expect("L1 wide")).collect(),
            feature_bias: feature_bias.try_into().expect("checked shape"),
            hidden1: DenseWeights::from_rows(&hidden1, 2 * L1),
            hidden1_bias: hidden1_bias.try_into().expect("checked shape"),
            hidden2: DenseWeights::from_rows(&hidden2, L2),
            hidden2_bias: hidden2_bias.try_into().expect("checked shape"),
            output_weights: output[..L3].try_into().expect("checked shape"),
            output_bias: output[L3],
            psqt_weights,
            provenance: field("provenance"),
        })
    }

    /// Reads the net in the file at `path`.
    pub fn load(path: &Path) -> Result<Nnue, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Nnue::from_bytes(path, &bytes)
    }

    /// Writes the net to `path`, whole (through a temporary file and a rename).
    pub fn save(&self, path: &Path) -> Result<(), String> {
        crate::atomic_write::write_atomically_with(path, |file| std::io::Write::write_all(file, &self.to_bytes()))
            .map_err(|e| format!("{}: {e}", path.display()))
    }
}

//! Sample shards: [`Samples`] as a compressed `.npz` file that numpy opens directly
//! (`numpy.load(path)`), with KataGo's array names where the meaning is KataGo's:
//!
//! | array | type, shape | holds |
//! |---|---|---|
//! | `binaryInputNCHWPacked` | u8 `[N, planes, ceil(cells/8)]` | each plane's cells as bits (little-endian within a byte) |
//! | `globalInputNC` | f32 `[N, planes]` | each plane's value where its bit is clear |
//! | `globalTargetsNC` | f32 `[N, 9]` | outcome win/draw/loss, root value win/draw/loss, full search (0/1), ply, the opponent's reply's label + 1 (0: none) |
//! | `policyTargetsCountN` | u16 `[N]` | policy entries per sample |
//! | `policyTargetsLabel` | u16 `[M]` | the entries' labels, sample after sample |
//! | `policyTargetsProb` | f32 `[M]` | the entries' probabilities |
//! | `gameCount` | u64 `[1]` | the games the samples come from (a game may leave none) |
//!
//! A shard written before `gameCount` counts one game per sample of ply 0, which was
//! exact while every game's first move was a sample; one written before the reply column
//! (`[N, 8]` targets) is read with no reply.
//!
//! Shards are written whole ([`crate::storage`]: a temporary name renamed, or one upload);
//! reading checks every shape and value, so a corrupt or truncated file is an error naming
//! it, never a panic.

use std::io::Cursor;
use std::path::{Path, PathBuf};

use ndarray::{Array1, Array2, Array3};
use ndarray_npy::{NpzReader, NpzWriter};

use super::samples::{SampleShape, Samples, TARGET_COLUMNS};
use crate::storage;

/// Why a shard could not be written or read: one line naming the file.
#[derive(Debug, thiserror::Error)]
pub enum ShardError {
    /// Writing failed (the file is then absent or as it was).
    #[error("cannot write the shard `{}`: {why}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        why: String,
    },
    /// The file is missing, unreadable, truncated or not a shard of this game.
    #[error("cannot read the shard `{}`: {why}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        why: String,
    },
}

/// The array holding a shard's number of games.
const GAME_COUNT: &str = "gameCount";

/// Writes `samples` to `path` (a path or an object store's URL), whole.
pub fn write_shard(path: &Path, samples: &Samples) -> Result<(), ShardError> {
    let error = |why: String| ShardError::Write { path: path.to_path_buf(), why };
    let SampleShape { planes, .. } = samples.shape();
    let n = samples.len();
    let bytes = samples.shape().plane_bytes();
    let packed =
        Array3::from_shape_vec((n, planes, bytes), samples.packed.clone()).map_err(|e| error(e.to_string()))?;
    let globals = Array2::from_shape_vec((n, planes), samples.globals.clone()).map_err(|e| error(e.to_string()))?;
    let targets =
        Array2::from_shape_vec((n, TARGET_COLUMNS), samples.targets.clone()).map_err(|e| error(e.to_string()))?;
    let mut npz = NpzWriter::new_compressed(Cursor::new(Vec::new()));
    let encoded = (|| {
        npz.add_array("binaryInputNCHWPacked", &packed)?;
        npz.add_array("globalInputNC", &globals)?;
        npz.add_array("globalTargetsNC", &targets)?;
        npz.add_array("policyTargetsCountN", &Array1::from(samples.counts.clone()))?;
        npz.add_array("policyTargetsLabel", &Array1::from(samples.labels.clone()))?;
        npz.add_array("policyTargetsProb", &Array1::from(samples.probs.clone()))?;
        npz.add_array(GAME_COUNT, &Array1::from(vec![samples.games]))?;
        npz.finish()
    })();
    let bytes = encoded.map_err(|e| error(e.to_string()))?.into_inner();
    storage::write(path, &bytes).map_err(|e| error(e.to_string()))
}

/// Reads the shard at `path` (a path or an object store's URL), whose samples must have
/// `shape`.
pub fn read_shard(path: &Path, shape: SampleShape) -> Result<Samples, ShardError> {
    let error = |why: String| ShardError::Read { path: path.to_path_buf(), why };
    let bytes = storage::read(path).map_err(|e| error(e.to_string()))?;
    let mut npz = NpzReader::new(Cursor::new(bytes)).map_err(|e| error(format!("not an npz file ({e})")))?;
    let packed: Array3<u8> = read_array(&mut npz, "binaryInputNCHWPacked").map_err(error)?;
    let globals: Array2<f32> = read_array(&mut npz, "globalInputNC").map_err(error)?;
    let targets: Array2<f32> = read_array(&mut npz, "globalTargetsNC").map_err(error)?;
    let counts: Array1<u16> = read_array(&mut npz, "policyTargetsCountN").map_err(error)?;
    let labels: Array1<u16> = read_array(&mut npz, "policyTargetsLabel").map_err(error)?;
    let probs: Array1<f32> = read_array(&mut npz, "policyTargetsProb").map_err(error)?;

    let n = counts.len();
    let expect = |name: &str, found: &[usize], wanted: &[usize]| {
        if found == wanted {
            Ok(())
        } else {
            Err(error(format!("`{name}` has shape {found:?}, expected {wanted:?}")))
        }
    };
    expect("binaryInputNCHWPacked", packed.shape(), &[n, shape.planes, shape.plane_bytes()])?;
    expect("globalInputNC", globals.shape(), &[n, shape.planes])?;
    // Shards from before the reply column have one column fewer: no reply.
    let targets = if targets.shape() == [n, TARGET_COLUMNS - 1] {
        let mut padded = Array2::zeros((n, TARGET_COLUMNS));
        padded.slice_mut(ndarray::s![.., ..TARGET_COLUMNS - 1]).assign(&targets);
        padded
    } else {
        targets
    };
    expect("globalTargetsNC", targets.shape(), &[n, TARGET_COLUMNS])?;
    let entries: usize = counts.iter().map(|&c| usize::from(c)).sum();
    expect("policyTargetsLabel", labels.shape(), &[entries])?;
    expect("policyTargetsProb", probs.shape(), &[entries])?;
    if let Some(label) = labels.iter().find(|&&label| usize::from(label) >= shape.policy_size) {
        return Err(error(format!("policy label {label} is beyond the game's {} labels", shape.policy_size)));
    }
    let finite = |values: &[f32]| values.iter().all(|v| v.is_finite() && *v >= 0.0);
    let (globals, targets, probs) =
        (globals.into_raw_vec_and_offset().0, targets.into_raw_vec_and_offset().0, probs.to_vec());
    if !finite(&globals) || !finite(&targets) || !finite(&probs) {
        return Err(error("a negative or non-finite value".to_string()));
    }
    let mut replies = targets.chunks_exact(TARGET_COLUMNS).map(|columns| columns[TARGET_COLUMNS - 1]);
    if let Some(reply) = replies.find(|&reply| reply >= shape.policy_size as f32 + 1.0) {
        return Err(error(format!("reply label {} is beyond the game's {} labels", reply - 1.0, shape.policy_size)));
    }
    let mut starts = Vec::with_capacity(n + 1);
    starts.push(0);
    for &count in &counts {
        starts.push(starts.last().copied().unwrap_or(0) + usize::from(count));
    }
    let mut samples = Samples::new(shape);
    samples.packed = packed.into_raw_vec_and_offset().0;
    samples.globals = globals;
    samples.targets = targets;
    samples.counts = counts.to_vec();
    samples.labels = labels.to_vec();
    samples.probs = probs;
    samples.starts = starts;
    let has_count =
        npz.names().map_err(|e| error(e.to_string()))?.iter().any(|name| name.trim_end_matches(".npy") == GAME_COUNT);
    samples.games = if has_count {
        let count: Array1<u64> = read_array(&mut npz, GAME_COUNT).map_err(error)?;
        expect(GAME_COUNT, count.shape(), &[1])?;
        count[0]
    } else {
        (0..n).filter(|&i| samples.targets(i).ply == 0).count() as u64
    };
    Ok(samples)
}

/// Array `name` of a shard, in standard layout.
fn read_array<A, D>(npz: &mut NpzReader<Cursor<Vec<u8>>>, name: &str) -> Result<ndarray::Array<A, D>, String>
where
    A: ndarray_npy::ReadableElement + Clone,
    D: ndarray::Dimension,
{
    let array: ndarray::Array<A, D> = npz.by_name(name).map_err(|e| format!("array `{name}`: {e}"))?;
    Ok(array.as_standard_layout().into_owned())
}

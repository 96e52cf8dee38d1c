//! Exporting a trained net: one self-contained safetensors file with the weights and
//! everything needed to use and trace them — game, shape, encoding version, the run, its
//! generation and hours of training, the code's commit, the rules' help it plays with,
//! export date and the training config. The nets that ship (`assets/nets/`) are made so.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use burn::tensor::Device;

use super::config::{Config, ConfigError};
use super::{read_metrics, MetricsError, RunDir, RunDirError};
use crate::date::utc_timestamp;
use crate::game::banqi::Banqi;
use crate::game::xiangqi::Xiangqi;
use crate::game::Game;
use crate::mcts::PlaySettings;
use crate::nn::{onnx, Net, NetError, NetInfo};
use crate::storage::{self, Kind};
use crate::text_file::read_text;

/// Why a net could not be exported: one line naming the file.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The net could not be read or written.
    #[error(transparent)]
    Net(#[from] NetError),
    /// The run directory could not be read.
    #[error(transparent)]
    RunDir(#[from] RunDirError),
    /// The run's training config could not be read.
    #[error("the run's training config: {0}")]
    Config(#[from] ConfigError),
    /// The run's metrics could not be read.
    #[error(transparent)]
    Metrics(#[from] MetricsError),
    /// A generation was asked of a net file rather than a run directory.
    #[error("`{}` is a net file: a generation is chosen from a run directory", .0.display())]
    GenerationOfFile(PathBuf),
}

/// The file format `export` writes.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum NetFormat {
    /// Our own net file: safetensors with the net's metadata, which every command reads.
    #[default]
    Safetensors,
    /// An ONNX model ([`crate::nn::onnx`]), for ONNX Runtime and other programs.
    Onnx,
}

/// What `export` wrote: the file's metadata and the net itself.
#[derive(Debug)]
pub struct Exported {
    /// What the written file records.
    pub info: NetInfo,
    /// The net, as read from the checkpoint.
    pub net: Net,
}

/// Exports the net of `checkpoint` — a run directory (its net of `generation`, else its
/// newest) or a net file, on disk or in an object store — to `out` (written whole), and
/// returns what `out` now records, with the net. Where it comes from is read from the run
/// directory (for a net file, the one it lies in when it is a run's
/// `models/genNNNN.safetensors`):
/// the generation, the training config, the run's name in it, the hours of training
/// (`metrics.jsonl`) and the rules' help the net was trained with, which it plays with;
/// else from the file's own metadata. The settings it plays best with are `play`'s where
/// it gives them (measured ones, such as a `cpuct`), the others as just read. The commit
/// recorded, the code that trained it, is `commit` when given, else the one the file
/// records, else `default_commit()` (the code exporting it). `format` is the file's
/// format.
pub fn export(
    checkpoint: &Path,
    generation: Option<u32>,
    play: PlaySettings,
    commit: Option<String>,
    default_commit: impl FnOnce() -> Option<String>,
    out: &Path,
    format: NetFormat,
) -> Result<Exported, ExportError> {
    let kind =
        storage::kind(checkpoint).map_err(|e| RunDirError { path: checkpoint.to_path_buf(), why: e.to_string() })?;
    let (net_file, run) = match (kind, generation) {
        (Kind::Dir, Some(generation)) => {
            let run = RunDir::new(checkpoint);
            (run.model(generation), Some((run, generation)))
        }
        (Kind::Dir, None) => {
            let run = RunDir::new(checkpoint);
            let (generation, file) = run.newest_model()?;
            (file, Some((run, generation)))
        }
        (_, Some(_)) => return Err(ExportError::GenerationOfFile(checkpoint.to_path_buf())),
        (_, None) => (checkpoint.to_path_buf(), run_of(checkpoint)),
    };
    let info = NetInfo::read(&net_file)?;
    let mut provenance = info.provenance;
    if let Some((run, generation)) = run {
        provenance.generation = Some(generation);
        let hours = read_metrics(&run.metrics())?.iter().rev().find(|m| m.generation == generation).map(|m| m.hours);
        provenance.hours = hours.or((generation == 0).then_some(0.0));
        let path = run.config();
        match read_text(&path) {
            Ok(text) => {
                let (config, _removed_keys) = Config::parse(&text, &path.display().to_string())?;
                provenance.run = Some(config.name.clone());
                provenance.play = Some(PlaySettings::of(&config.search.for_play(0)));
                provenance.training_config = Some(text);
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(RunDirError { path, why: e.to_string() }.into()),
        }
    }
    if play != PlaySettings::default() {
        provenance.play = Some(play.or(provenance.play.unwrap_or_default()));
    }
    provenance.commit = commit.or(provenance.commit).or_else(default_commit);
    provenance.exported = Some(utc_timestamp(SystemTime::now()));
    let device = Device::flex();
    let net = match info.config.game {
        Xiangqi::NAME => Net::load::<Xiangqi>(&net_file, None, &device)?,
        _ => Net::load::<Banqi>(&net_file, None, &device)?,
    };
    match format {
        NetFormat::Safetensors => {
            net.save_with(out, provenance)?;
            Ok(Exported { info: NetInfo::read(out)?, net })
        }
        NetFormat::Onnx => {
            let info = NetInfo::new(net.config, provenance);
            storage::write(out, &onnx::model(&net, &info))
                .map_err(|e| NetError::Write { path: out.to_path_buf(), why: e.to_string() })?;
            Ok(Exported { info, net })
        }
    }
}

/// The run directory and generation of a net file named like a run's nets
/// (`RUN/models/genNNNN.safetensors`).
fn run_of(file: &Path) -> Option<(RunDir, u32)> {
    let generation: u32 = file.file_stem()?.to_str()?.strip_prefix("gen")?.parse().ok()?;
    let run = RunDir::new(file.parent()?.parent()?);
    (run.model(generation) == file).then_some((run, generation))
}

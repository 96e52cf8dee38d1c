//! What a net file says about itself: the metadata of its safetensors header — the game,
//! the shape, the encoding version, and for an exported net where it comes from — read
//! and checked from the header alone, before any tensor is.

use std::collections::HashMap;
use std::fmt;
use std::io;
use std::path::Path;

use super::model::{NetConfig, PolicyHead};
use super::net_error::NetError;
use super::Encoding;
use crate::game::banqi::Banqi;
use crate::game::xiangqi::Xiangqi;
use crate::game::Game;
use crate::mcts::PlaySettings;
use crate::storage;

/// The version of the input planes and policy labels the nets are trained on: bump it
/// whenever an encoder changes, so that older nets are refused rather than misread.
pub const ENCODING_VERSION: u32 = 1;

/// The metadata key of the game's name.
const GAME: &str = "xiangqi-zero.game";
/// The metadata keys of the shape's sizes, in `NetConfig` order.
const SIZES: [&str; 6] = [
    "xiangqi-zero.planes",
    "xiangqi-zero.height",
    "xiangqi-zero.width",
    "xiangqi-zero.policy_size",
    "xiangqi-zero.blocks",
    "xiangqi-zero.channels",
];
/// The metadata key of [`NetConfig::count_value`] (`1` when set; absent in older nets).
const COUNT_VALUE: &str = "xiangqi-zero.count_value";
/// The metadata key of [`NetConfig::policy_head`] (`attention`; absent for the dense head).
const POLICY_HEAD: &str = "xiangqi-zero.policy_head";
/// The metadata key of [`NetConfig::reply_policy`] (`1` when set; absent otherwise).
const REPLY_POLICY: &str = "xiangqi-zero.reply_policy";
/// The metadata key of [`NetConfig::soft_policy`] (`1` when set; absent otherwise).
const SOFT_POLICY: &str = "xiangqi-zero.soft_policy";
/// The metadata key of the encoding version.
const ENCODING: &str = "xiangqi-zero.encoding_version";
/// The metadata keys of an exported net's provenance.
const GENERATION: &str = "xiangqi-zero.generation";
const EXPORTED: &str = "xiangqi-zero.exported";
const TRAINING_CONFIG: &str = "xiangqi-zero.config";
const RUN: &str = "xiangqi-zero.run";
const HOURS: &str = "xiangqi-zero.hours";
const COMMIT: &str = "xiangqi-zero.commit";
const PLAY: &str = "xiangqi-zero.play";

/// The largest size a file may give (a net is built from them before its tensors are read).
const MAX_SIZE: usize = 4096;
/// Larger headers are not ours (ours are a few kilobytes, a training config included).
const MAX_HEADER: u64 = 1 << 24;

/// Where an exported net comes from (all `None` in the nets `train` writes).
#[derive(Clone, PartialEq, Debug, Default)]
pub struct Provenance {
    /// The name of the training config (and run) it comes from.
    pub run: Option<String>,
    /// The training generation it is the net of.
    pub generation: Option<u32>,
    /// The hours the run had trained when it made this generation.
    pub hours: Option<f64>,
    /// The git commit of the code that trained it.
    pub commit: Option<String>,
    /// The settings it plays best with (the rules' help it was trained with, and an
    /// exploration constant where one was measured better), those a `net` spec takes
    /// where it gives none.
    pub play: Option<PlaySettings>,
    /// When it was exported (UTC, ISO 8601: `2025-01-31T12:00:00Z`).
    pub exported: Option<String>,
    /// The TOML config it was trained with.
    pub training_config: Option<String>,
}

impl Provenance {
    /// Where the net comes from, in a line of what is recorded: `generation 40 of the run
    /// xiangqi-long, 1.9 hours of training, code at e7eb654`.
    pub fn origin(&self) -> String {
        let generation = self.generation.map_or("a net".to_string(), |g| format!("generation {g}"));
        let mut parts = vec![match &self.run {
            Some(run) => format!("{generation} of the run {run}"),
            None => generation,
        }];
        parts.extend(self.hours.map(|hours| format!("{hours:.1} hours of training")));
        parts.extend(self.commit.as_ref().map(|commit| format!("code at {commit}")));
        parts.join(", ")
    }
}

/// The metadata of a net file.
#[derive(Clone, PartialEq, Debug)]
pub struct NetInfo {
    /// The game and shape.
    pub config: NetConfig,
    /// The encoding version it was trained on (`None`: not recorded, taken as the current one).
    pub encoding_version: Option<u32>,
    /// Where it comes from.
    pub provenance: Provenance,
}

impl NetInfo {
    /// The metadata of a net of shape `config` written now: the current encoding version
    /// and `provenance`.
    pub fn new(config: NetConfig, provenance: Provenance) -> NetInfo {
        NetInfo { config, encoding_version: Some(ENCODING_VERSION), provenance }
    }

    /// Reads the metadata of the net file at `path` (a path or an object store's URL),
    /// checking that the file is a whole safetensors file (its length is the one its
    /// header gives) and one of our nets.
    pub fn read(path: &Path) -> Result<NetInfo, NetError> {
        NetInfo::parse(path, &NetInfo::read_file(path)?)
    }

    /// The bytes of the net file at `path`.
    pub(super) fn read_file(path: &Path) -> Result<Vec<u8>, NetError> {
        storage::read(path).map_err(|e| {
            let why = match e.kind() {
                io::ErrorKind::IsADirectory => {
                    "it is a directory, not a net file (for a run directory: its models/genNNNN.safetensors)"
                        .to_string()
                }
                _ => e.to_string(),
            };
            NetError::Read { path: path.to_path_buf(), why }
        })
    }

    /// The metadata of `bytes`, the net file at `path` (named in errors), checked as
    /// [`NetInfo::read`] says.
    pub fn parse(path: &Path, bytes: &[u8]) -> Result<NetInfo, NetError> {
        let error = |why: String| NetError::Read { path: path.to_path_buf(), why };
        let metadata = read_metadata(bytes).map_err(error)?;
        let field = |key: &str| {
            metadata.get(key).ok_or_else(|| error(format!("no `{key}` in its metadata: not a net of ours")))
        };
        let game = field(GAME)?;
        let (game, label_cells) = [(Xiangqi::NAME, Xiangqi::label_cells()), (Banqi::NAME, Banqi::label_cells())]
            .into_iter()
            .find(|(known, _)| known == game)
            .ok_or_else(|| error(format!("a net of an unknown game `{game}`")))?;
        let policy_head = match metadata.get(POLICY_HEAD).map(String::as_str) {
            None | Some("dense") => PolicyHead::Dense,
            Some("attention") => PolicyHead::Attention,
            Some(other) => return Err(error(format!("`{POLICY_HEAD}` is `{other}`, not `dense` or `attention`"))),
        };
        let mut sizes = [0; 6];
        for (size, key) in sizes.iter_mut().zip(SIZES) {
            let text = field(key)?;
            *size = text
                .parse()
                .ok()
                .filter(|size| (1..=MAX_SIZE).contains(size))
                .ok_or_else(|| error(format!("`{key}` is `{text}`, not a size from 1 to {MAX_SIZE}")))?;
        }
        let [planes, height, width, policy_size, blocks, channels] = sizes;
        let number = |key: &str| {
            metadata
                .get(key)
                .map(|text| text.parse::<u32>().map_err(|_| error(format!("`{key}` is `{text}`, not a number"))))
                .transpose()
        };
        Ok(NetInfo {
            config: NetConfig {
                game,
                planes,
                height,
                width,
                policy_size,
                blocks,
                channels,
                count_value: metadata.get(COUNT_VALUE).is_some_and(|flag| flag == "1"),
                policy_head,
                reply_policy: metadata.get(REPLY_POLICY).is_some_and(|flag| flag == "1"),
                soft_policy: metadata.get(SOFT_POLICY).is_some_and(|flag| flag == "1"),
                label_cells,
            },
            encoding_version: number(ENCODING)?,
            provenance: Provenance {
                run: metadata.get(RUN).cloned(),
                generation: number(GENERATION)?,
                hours: metadata
                    .get(HOURS)
                    .map(|text| text.parse::<f64>().map_err(|_| error(format!("`{HOURS}` is `{text}`, not a number"))))
                    .transpose()?,
                commit: metadata.get(COMMIT).cloned(),
                play: metadata
                    .get(PLAY)
                    .map(|text| PlaySettings::from_recorded(text).map_err(|why| error(format!("`{PLAY}`: {why}"))))
                    .transpose()?,
                exported: metadata.get(EXPORTED).cloned(),
                training_config: metadata.get(TRAINING_CONFIG).cloned(),
            },
        })
    }

    /// The metadata entries to write.
    pub(super) fn metadata(&self) -> Vec<(&'static str, String)> {
        let c = &self.config;
        let sizes = [c.planes, c.height, c.width, c.policy_size, c.blocks, c.channels];
        let mut entries = vec![(GAME, c.game.to_string())];
        entries.extend(SIZES.into_iter().zip(sizes.map(|size| size.to_string())));
        if c.count_value {
            entries.push((COUNT_VALUE, "1".to_string()));
        }
        if c.policy_head == PolicyHead::Attention {
            entries.push((POLICY_HEAD, "attention".to_string()));
        }
        if c.reply_policy {
            entries.push((REPLY_POLICY, "1".to_string()));
        }
        if c.soft_policy {
            entries.push((SOFT_POLICY, "1".to_string()));
        }
        entries.extend(self.encoding_version.map(|version| (ENCODING, version.to_string())));
        let p = &self.provenance;
        entries.extend(p.run.clone().map(|run| (RUN, run)));
        entries.extend(p.generation.map(|generation| (GENERATION, generation.to_string())));
        entries.extend(p.hours.map(|hours| (HOURS, hours.to_string())));
        entries.extend(p.commit.clone().map(|commit| (COMMIT, commit)));
        entries.extend(p.play.map(|play| (PLAY, play.to_string())));
        entries.extend(p.exported.clone().map(|date| (EXPORTED, date)));
        entries.extend(p.training_config.clone().map(|config| (TRAINING_CONFIG, config)));
        entries
    }
}

impl fmt::Display for NetInfo {
    /// One `key: value` line each, the training config last, indented.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = &self.config;
        writeln!(f, "game: {}", c.game)?;
        writeln!(f, "shape: {} blocks × {} channels", c.blocks, c.channels)?;
        if c.count_value {
            writeln!(f, "value: also from the input planes' piece counts")?;
        }
        writeln!(f, "input: {} planes of {}×{}; policy: {} labels", c.planes, c.height, c.width, c.policy_size)?;
        if c.policy_head == PolicyHead::Attention {
            writeln!(f, "policy head: attention (each move from its squares' query and key)")?;
        }
        if c.reply_policy {
            writeln!(f, "reply policy: the opponent's reply predicted in training (play does not read it)")?;
        }
        if c.soft_policy {
            writeln!(f, "soft policy: the search's policy flattened (to the power 1/4) learnt in training (play does not read it)")?;
        }
        match self.encoding_version {
            Some(version) => writeln!(f, "encoding version: {version}")?,
            None => writeln!(f, "encoding version: not recorded (taken as {ENCODING_VERSION})")?,
        }
        let unknown = || "unknown".to_string();
        let p = &self.provenance;
        writeln!(f, "run: {}", p.run.clone().unwrap_or_else(unknown))?;
        writeln!(f, "generation: {}", p.generation.map_or_else(unknown, |g| g.to_string()))?;
        writeln!(f, "hours of training: {}", p.hours.map_or_else(unknown, |hours| format!("{hours:.2}")))?;
        writeln!(f, "trained by commit: {}", p.commit.clone().unwrap_or_else(unknown))?;
        match p.play {
            Some(play) if play.to_string().is_empty() => writeln!(f, "plays best with: net (no rules' help)")?,
            Some(play) => writeln!(f, "plays best with: net({play})")?,
            None => writeln!(f, "plays best with: not recorded")?,
        }
        writeln!(f, "exported: {}", p.exported.clone().unwrap_or_else(unknown))?;
        match &p.training_config {
            Some(config) => {
                writeln!(f, "training config:")?;
                config.lines().try_for_each(|line| writeln!(f, "    {line}"))
            }
            None => writeln!(f, "training config: unknown"),
        }
    }
}

/// The `__metadata__` of the safetensors file `bytes` (an 8-byte little-endian header
/// length, the JSON header, then the tensors' bytes), once the file's length is checked
/// against the tensors' offsets.
fn read_metadata(bytes: &[u8]) -> Result<HashMap<String, String>, String> {
    let length = bytes.len() as u64;
    let (header_length, rest) =
        bytes.split_first_chunk::<8>().ok_or_else(|| "too short for a safetensors file".to_string())?;
    let header_length = u64::from_le_bytes(*header_length);
    if header_length > MAX_HEADER {
        return Err(format!("not a safetensors file (header of {header_length} bytes)"));
    }
    let header = rest.get(..header_length as usize).ok_or_else(|| "truncated safetensors header".to_string())?;
    let header: HashMap<String, serde_json::Value> =
        serde_json::from_slice(header).map_err(|e| format!("not a safetensors file (bad header: {e})"))?;
    let mut metadata = HashMap::new();
    let mut data_end = 0u64;
    for (name, entry) in header {
        let bad = |what: &str| format!("corrupt safetensors header ({what} of `{name}`)");
        if name == "__metadata__" {
            metadata = serde_json::from_value(entry).map_err(|_| bad("not text"))?;
            continue;
        }
        let offsets = entry.get("data_offsets").and_then(|o| serde_json::from_value::<[u64; 2]>(o.clone()).ok());
        let [start, end] = offsets.ok_or_else(|| bad("no data offsets"))?;
        if start > end {
            return Err(bad("offsets out of order"));
        }
        data_end = data_end.max(end);
    }
    let expected = 8 + header_length + data_end;
    if length != expected {
        let what = if length < expected { "truncated" } else { "corrupt" };
        return Err(format!("{what}: {length} bytes where its header accounts for {expected}"));
    }
    Ok(metadata)
}

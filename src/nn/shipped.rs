//! The nets that ship: `assets/nets/<game>.safetensors`, embedded in the binary, so that a
//! fresh clone plays its net (`play --black net`) with no other file; and where a net
//! player's net comes from — a file, or the shipped net of the game played.

use std::fmt;
use std::path::PathBuf;

use burn::tensor::Device;

use super::info::NetInfo;
use super::model::Net;
use super::net_error::NetError;
use super::Encoding;
use crate::game::banqi::Banqi;
use crate::game::xiangqi::Xiangqi;
use crate::game::Game;

/// The net that ships for the game named `game` (`xiangqi`, `banqi`), as its file's
/// bytes; `None` for a game none ships for.
pub fn shipped_net(game: &str) -> Option<&'static [u8]> {
    match game {
        Xiangqi::NAME => Some(include_bytes!("../../assets/nets/xiangqi.safetensors")),
        Banqi::NAME => Some(include_bytes!("../../assets/nets/banqi.safetensors")),
        _ => None,
    }
}

/// Where a net player's net is read from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetSource {
    /// A net file (a path or an object store's URL).
    File(PathBuf),
    /// The net shipped in the binary for the game played.
    Shipped,
}

impl NetSource {
    /// The net of game `G` and what its file records, on the flex device.
    pub fn load<G: Encoding>(&self) -> Result<(Net, NetInfo), NetError> {
        self.load_onto::<G>(&Device::flex())
    }

    /// The net of game `G` and what its file records, on `device`.
    pub fn load_onto<G: Encoding>(&self, device: &Device) -> Result<(Net, NetInfo), NetError> {
        let (path, bytes) = match self {
            NetSource::File(path) => (path.clone(), NetInfo::read_file(path)?),
            NetSource::Shipped => {
                let path = PathBuf::from(format!("(the shipped {} net)", G::NAME));
                let bytes = shipped_net(G::NAME).ok_or_else(|| NetError::Read {
                    path: path.clone(),
                    why: format!("no net ships for {} yet: name a net file, `net:FILE`", G::NAME),
                })?;
                (path, bytes.to_vec())
            }
        };
        let info = NetInfo::parse(&path, &bytes)?;
        Ok((Net::from_bytes::<G>(&path, bytes, None, device)?, info))
    }
}

impl fmt::Display for NetSource {
    /// How a spec ends for this net: `:PATH`, or nothing for the shipped net.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetSource::File(path) => write!(f, ":{}", path.display()),
            NetSource::Shipped => Ok(()),
        }
    }
}

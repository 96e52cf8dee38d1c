//! Why a net file could not be written or read.

use std::path::PathBuf;

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

//! Reading a text file a user names without trusting its size: a path to `/dev/zero`, or a
//! huge file given by mistake, gets a one-line error instead of a read that never ends.
//! The file may be in an object store ([`crate::storage`]).

use std::io;
use std::path::Path;

/// The longest text file read whole (configs, game records, opening lists), in bytes.
pub const MAX_TEXT_BYTES: u64 = 64 << 20;

/// The text of the file at `path`; an error when it cannot be read, is not UTF-8, or is
/// longer than [`MAX_TEXT_BYTES`].
pub fn read_text(path: &Path) -> io::Result<String> {
    let bytes = crate::storage::read_at_most(path, MAX_TEXT_BYTES)?;
    if bytes.len() as u64 > MAX_TEXT_BYTES {
        return Err(io::Error::other(format!(
            "longer than {} MiB: not a file this command reads",
            MAX_TEXT_BYTES >> 20
        )));
    }
    String::from_utf8(bytes).map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "it did not contain valid UTF-8"))
}

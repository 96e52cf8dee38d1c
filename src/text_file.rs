//! Reading a text file a user names without trusting its size: a path to `/dev/zero`, or a
//! huge file given by mistake, gets a one-line error instead of a read that never ends.

use std::io::{self, Read};
use std::path::Path;

/// The longest text file read whole (configs, game records, opening lists), in bytes.
pub const MAX_TEXT_BYTES: u64 = 64 << 20;

/// The text of the file at `path`; an error when it cannot be read, is not UTF-8, or is
/// longer than [`MAX_TEXT_BYTES`].
pub fn read_text(path: &Path) -> io::Result<String> {
    let mut text = String::new();
    std::fs::File::open(path)?.take(MAX_TEXT_BYTES + 1).read_to_string(&mut text)?;
    if text.len() as u64 > MAX_TEXT_BYTES {
        return Err(io::Error::other(format!(
            "longer than {} MiB: not a file this command reads",
            MAX_TEXT_BYTES >> 20
        )));
    }
    Ok(text)
}

//! Labelled positions, the NNUE's training data: a board, the score our search gave it
//! and the game's result, both from the side to move's view; kept as 48-byte records
//! (the 90 squares at four bits each, the side to move and the result, the score).

use std::io::{Read, Write};
use std::path::Path;

use crate::game::xiangqi::{Board, Color, Piece, Square};

/// Bytes per record.
pub const RECORD_BYTES: usize = 48;

/// A position with its labels.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct LabelledPosition {
    /// The position.
    pub board: Board,
    /// The search's score for the side to move, in centipawns.
    pub score: i16,
    /// The game's result for the side to move: 1 won, 0 drawn, −1 lost.
    pub result: i8,
}

impl LabelledPosition {
    /// The record's bytes.
    pub fn to_record(&self) -> [u8; RECORD_BYTES] {
        let mut record = [0u8; RECORD_BYTES];
        for (sq, piece) in self.board.pieces() {
            let code = piece.index() as u8 + 1;
            record[sq.index() / 2] |= if sq.index() % 2 == 0 { code } else { code << 4 };
        }
        record[45] = (self.board.side_to_move() == Color::Black) as u8 | ((self.result + 1) as u8) << 1;
        record[46..48].copy_from_slice(&self.score.to_le_bytes());
        record
    }

    /// The position of a record, or why it is none.
    pub fn from_record(record: &[u8; RECORD_BYTES]) -> Result<LabelledPosition, String> {
        let mut pieces = Vec::with_capacity(32);
        for index in 0..90 {
            let code = (record[index / 2] >> (4 * (index % 2))) & 15;
            if code != 0 {
                let piece = Piece::from_index(code as usize - 1).ok_or("a bad piece code")?;
                pieces.push((Square::new(index as u8), piece));
            }
        }
        let side = if record[45] & 1 == 1 { Color::Black } else { Color::Red };
        let result = ((record[45] >> 1) & 3) as i8 - 1;
        if !(-1..=1).contains(&result) {
            return Err("a bad result".into());
        }
        let board = Board::new(&pieces, side)?;
        Ok(LabelledPosition { board, score: i16::from_le_bytes([record[46], record[47]]), result })
    }
}

/// Appends `positions` to the file at `path` (created if missing).
pub fn append(path: &Path, positions: &[LabelledPosition]) -> Result<(), String> {
    let bytes: Vec<u8> = positions.iter().flat_map(|p| p.to_record()).collect();
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut file| file.write_all(&bytes))
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// Cuts the file at `path` to its first `records` positions: those past them (or a partial
/// record) go. A file that holds no more, or none, is left as it is.
pub fn truncate(path: &Path, records: u64) -> Result<(), String> {
    let fail = |e: std::io::Error| format!("{}: {e}", path.display());
    let keep = records * RECORD_BYTES as u64;
    match std::fs::metadata(path) {
        Ok(meta) if meta.len() > keep => {
            std::fs::OpenOptions::new().write(true).open(path).and_then(|file| file.set_len(keep)).map_err(fail)
        }
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(fail(e)),
    }
}

/// Every position in the file at `path`; a file whose length is not whole records, or a
/// record that is no legal position, is refused naming it.
pub fn read(path: &Path) -> Result<Vec<LabelledPosition>, String> {
    let fail = |why: String| format!("{}: {why}", path.display());
    let mut bytes = Vec::new();
    std::fs::File::open(path).and_then(|mut file| file.read_to_end(&mut bytes)).map_err(|e| fail(e.to_string()))?;
    if !bytes.len().is_multiple_of(RECORD_BYTES) {
        return Err(fail(format!("{} bytes is not a whole number of {RECORD_BYTES}-byte records", bytes.len())));
    }
    bytes
        .chunks_exact(RECORD_BYTES)
        .enumerate()
        .map(|(i, record)| {
            LabelledPosition::from_record(record.try_into().expect("whole records"))
                .map_err(|why| fail(format!("record {i}: {why}")))
        })
        .collect()
}

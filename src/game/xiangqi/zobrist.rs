//! Zobrist keys: a random 64-bit key per (piece, square) and one for Black to move.
//! The hash of a position is the XOR of the keys of what is on the board.

use crate::game::splitmix::splitmix64;

use super::{Color, Piece, Square};

const fn build_keys() -> ([[u64; 90]; 14], u64) {
    let mut keys = [[0u64; 90]; 14];
    let mut state = 0x5851_F42D_4C95_7F2D;
    let mut p = 0;
    while p < 14 {
        let mut s = 0;
        while s < 90 {
            let (next, key) = splitmix64(state);
            state = next;
            keys[p][s] = key;
            s += 1;
        }
        p += 1;
    }
    let (_, side) = splitmix64(state);
    (keys, side)
}

static KEYS: ([[u64; 90]; 14], u64) = build_keys();

/// The key of `piece` standing on `sq`.
#[inline]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    KEYS.0[piece.index()][sq.index()]
}

/// The key XORed in when Black is to move.
#[inline]
pub fn side_key(side: Color) -> u64 {
    match side {
        Color::Red => 0,
        Color::Black => KEYS.1,
    }
}

//! Zobrist keys. A position's hash is the XOR of a key per (face-up piece, square), a key
//! per face-down square, a key per (piece, hidden count) for the pool, a key when Black
//! is to move, one while the colours are undecided, and one for the square of a piece
//! in the middle of a chain capture. A flip awaiting its outcome adds a key of its own.

use crate::game::splitmix::splitmix64;

use super::{Color, Piece, Pool, Square};

/// All the keys, drawn from one SplitMix64 stream.
struct Keys {
    /// Per piece index (0–13) and 14 for a face-down piece, per square.
    squares: [[u64; 32]; 15],
    /// Per piece index and hidden count (0–5); the key for a count of 0 is 0.
    pool: [[u64; 6]; 14],
    /// Per square: the chain-capture piece stands here.
    chain: [u64; 32],
    /// Per square: a flip of this square awaits its outcome.
    pending: [u64; 32],
    black: u64,
    undecided: u64,
}

static KEYS: Keys = {
    let mut state = 0xB4A9_1D3C_57E2_8F60;
    let mut keys =
        Keys { squares: [[0; 32]; 15], pool: [[0; 6]; 14], chain: [0; 32], pending: [0; 32], black: 0, undecided: 0 };
    let mut i = 0;
    while i < 15 * 32 + 14 * 5 + 32 + 32 + 2 {
        let (next, key) = splitmix64(state);
        state = next;
        match i {
            0..480 => keys.squares[i / 32][i % 32] = key,
            480..550 => keys.pool[(i - 480) / 5][(i - 480) % 5 + 1] = key,
            550..582 => keys.chain[i - 550] = key,
            582..614 => keys.pending[i - 582] = key,
            614 => keys.black = key,
            _ => keys.undecided = key,
        }
        i += 1;
    }
    keys
};

/// The key of face-up `piece` on `sq`.
#[inline]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    KEYS.squares[piece.index()][sq.index()]
}

/// The key of a face-down piece on `sq`.
#[inline]
pub fn hidden_key(sq: Square) -> u64 {
    KEYS.squares[14][sq.index()]
}

/// The pool's part of the hash for `count` hidden `piece`s.
#[inline]
pub fn pool_count_key(piece: Piece, count: u8) -> u64 {
    KEYS.pool[piece.index()][count as usize]
}

/// The whole pool's part of the hash.
pub fn pool_key(pool: Pool) -> u64 {
    Piece::ALL.iter().fold(0, |key, &piece| key ^ pool_count_key(piece, pool.count(piece)))
}

/// The side-to-move part: a key for Black, none for Red, another before the first flip.
#[inline]
pub fn side_key(side: Option<Color>) -> u64 {
    match side {
        Some(Color::Red) => 0,
        Some(Color::Black) => KEYS.black,
        None => KEYS.undecided,
    }
}

/// The key of a chain capture going on from `sq`.
#[inline]
pub fn chain_key(sq: Square) -> u64 {
    KEYS.chain[sq.index()]
}

/// The key of a flip of `sq` awaiting its outcome.
#[inline]
pub fn pending_key(sq: Square) -> u64 {
    KEYS.pending[sq.index()]
}

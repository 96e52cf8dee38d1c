//! The net's inputs: every piece on the board seen from one side's general ("HalfKA", as
//! Stockfish and Pikafish call it). Each side sees the board from its own back rank
//! (Black's ranks counted from its side), mirrored left-right when its general stands
//! right of the middle file, so a general on d- and f-files shares weights; its
//! general's square in the palace after that mirror picks one of six buckets (three
//! ranks, two files), and within a bucket a feature is a piece (its own or the other
//! side's, of seven kinds) on one of the 90 squares. A move changes two or three
//! features of each side, except a move of that side's own general, which changes its
//! bucket (or mirror) and so all of them.

use crate::game::xiangqi::{Board, Color, Piece, Square};

/// The general's buckets: its palace square after the mirror (ranks 0–2, files d–e).
pub const KING_BUCKETS: usize = 6;
/// Pieces told apart: the side's own seven kinds, then the other side's seven.
pub const PIECE_KINDS: usize = 14;
/// Features of one side's view: bucket × piece × square.
pub const FEATURES: usize = KING_BUCKETS * PIECE_KINDS * 90;
/// At most this many features are active in one side's view (32 pieces).
pub const MAX_ACTIVE: usize = 32;

/// One side's view of a board: whose it is, its general's bucket, whether it is mirrored.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct View {
    side: Color,
    bucket: usize,
    mirrored: bool,
}

impl View {
    /// `side`'s view of `board`.
    #[inline]
    pub fn of(board: &Board, side: Color) -> View {
        let king = orient(board.king(side), side);
        let file = king.file() as usize;
        let mirrored = file > 4;
        let bucket = (king.rank() as usize) * 2 + file.min(8 - file) - 3;
        View { side, bucket, mirrored }
    }

    /// The feature of `piece` standing on `sq`, in `0..FEATURES`.
    #[inline]
    pub fn feature(self, piece: Piece, sq: Square) -> usize {
        let sq = orient(sq, self.side);
        let sq = if self.mirrored { sq.mirror() } else { sq };
        let relative = if piece.color() == self.side { 0 } else { 7 } + piece.kind() as usize - 1;
        feature_index(self.bucket, relative, sq)
    }

    /// The features active on `board` in this view, one per piece.
    pub fn active(self, board: &Board) -> impl Iterator<Item = usize> + '_ {
        board.pieces().map(move |(sq, piece)| self.feature(piece, sq))
    }
}

/// The feature of the piece `relative` (the side's own kinds 0–6, the other side's 7–13)
/// on `sq` (as the side sees the board) in `bucket`.
#[inline]
pub fn feature_index(bucket: usize, relative: usize, sq: Square) -> usize {
    (bucket * PIECE_KINDS + relative) * 90 + sq.index()
}

/// `sq` seen from `side`'s back rank: Black's ranks counted from its own side.
#[inline]
fn orient(sq: Square, side: Color) -> Square {
    match side {
        Color::Red => sq,
        Color::Black => Square::new((9 - sq.rank()) * 9 + sq.file()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::xiangqi::Kind;

    #[test]
    fn the_start_is_the_same_to_both_sides() {
        let board = Board::start();
        let mut red: Vec<_> = View::of(&board, Color::Red).active(&board).collect();
        let mut black: Vec<_> = View::of(&board, Color::Black).active(&board).collect();
        red.sort();
        black.sort();
        assert_eq!(red, black);
        assert_eq!(red.len(), 32);
        assert!(red.iter().all(|&f| f < FEATURES));
    }

    #[test]
    fn generals_on_mirrored_files_share_features() {
        let red_king = Piece::new(Color::Red, Kind::King);
        let black_king = Piece::new(Color::Black, Kind::King);
        let pieces = [(Square::parse("d0").unwrap(), red_king), (Square::parse("e9").unwrap(), black_king)];
        let left = Board::new(&pieces, Color::Red).unwrap();
        let right = left.mirror();
        let rook = Piece::new(Color::Black, Kind::Rook);
        let (a, b) = (View::of(&left, Color::Red), View::of(&right, Color::Red));
        assert_eq!(a.feature(rook, Square::parse("a5").unwrap()), b.feature(rook, Square::parse("i5").unwrap()));
        assert_ne!(a.feature(rook, Square::parse("a5").unwrap()), a.feature(rook, Square::parse("i5").unwrap()));
    }

    #[test]
    fn every_palace_square_is_its_own_bucket_up_to_the_mirror() {
        let mut buckets = std::collections::BTreeSet::new();
        for name in ["d0", "e0", "f0", "d1", "e1", "f1", "d2", "e2", "f2"] {
            // The other general off this one's file (generals may not face each other).
            let theirs = if name.starts_with('d') { "f9" } else { "d9" };
            let pieces = [
                (Square::parse(name).unwrap(), Piece::new(Color::Red, Kind::King)),
                (Square::parse(theirs).unwrap(), Piece::new(Color::Black, Kind::King)),
            ];
            let board = Board::new(&pieces, Color::Red).unwrap();
            buckets.insert(View::of(&board, Color::Red).bucket);
        }
        assert_eq!(buckets.len(), KING_BUCKETS);
    }
}

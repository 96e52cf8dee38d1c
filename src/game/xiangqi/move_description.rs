//! A move as players describe it, rather than by its squares: which piece moves (its
//! kind, its file counted from the mover's own right, and its place among identical
//! pieces on that file), which way it goes, and the figure that ends the description.
//! WXF and Chinese notation are two spellings of this one description
//! ([`super::wxf`], [`super::chinese`]); docs/notation.md has the rules with examples.

use super::{Board, Color, Kind, Move, MoveList, Piece, Square};

/// Which way a piece moves, seen from its own side.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Direction {
    /// Towards the opponent (WXF `+`, 进).
    Forward,
    /// Towards its own side (WXF `-`, 退).
    Backward,
    /// Along its rank (WXF `.` or `=`, 平).
    Sideways,
}

/// Where a piece stands among the pieces of its side and kind on its file.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Standing {
    /// Its file, 1–9 counted from its own side's right.
    pub file: u8,
    /// How many pieces of its side and kind stand on that file and are told apart by
    /// place: 1 for advisors and elephants, which are always named by their file.
    pub count: u8,
    /// Its place among them: 0 for the one furthest forward.
    pub place: u8,
    /// Whether it is a soldier on one of two or more files that each hold several of its
    /// side's soldiers: notation then names the file as well as the place.
    pub paired_files: bool,
}

/// A move described: the piece's kind and standing, the direction and the last figure.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Description {
    /// The kind of piece that moves.
    pub kind: Kind,
    /// Where it stands before the move.
    pub standing: Standing,
    /// Which way it goes.
    pub direction: Direction,
    /// The file it arrives on (1–9, mover's numbering) for sideways moves and for
    /// advisors, elephants and horses; otherwise the number of ranks it travels.
    pub figure: u8,
}

/// How a text picks one of several pieces on a file.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Place {
    /// WXF `+`: the front one of two or three, the second from the front of four or five.
    Front,
    /// WXF `-`: the rear one of two or three, the second from the rear of four or five.
    Rear,
    /// The middle one of three or five (WXF repeats the file digit; Chinese 中).
    Middle,
    /// The `n`-th from the front, from 1 (Chinese 前 is the first, 一 to 五; WXF `++`).
    Nth(u8),
    /// The one furthest back (Chinese 后; WXF `--`).
    Last,
}

impl Place {
    /// The place (0 = front) this designates among `count` pieces on a file, if any.
    fn index(self, count: u8) -> Option<u8> {
        let index = match self {
            _ if count < 2 => return None,
            Place::Front => u8::from(count >= 4),
            Place::Rear => count - 1 - u8::from(count >= 4),
            Place::Middle if count % 2 == 1 => count / 2,
            Place::Middle => return None,
            Place::Nth(n) => n.checked_sub(1)?,
            Place::Last => count - 1,
        };
        (index < count).then_some(index)
    }
}

/// What a WXF or Chinese text names, before it is matched against the position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Named {
    /// The kind of piece.
    pub kind: Kind,
    /// The file it names (1–9, mover's numbering), if the text gives one.
    pub file: Option<u8>,
    /// Its place among pieces on one file, if the text gives one.
    pub place: Option<Place>,
    /// Which way it goes.
    pub direction: Direction,
    /// The last figure, 1–9.
    pub figure: u8,
}

impl Named {
    /// Whether a piece of the named kind standing so answers to the text. A file alone
    /// names the only piece on it, or the middle one of an odd number of soldiers; where
    /// the rules ask for a place but the text gives only a file, each piece on it
    /// answers and the position decides (a move only one of them can make is accepted).
    fn answers(&self, standing: Standing) -> bool {
        let file_fits = self.file.is_none_or(|file| file == standing.file);
        file_fits
            && match self.place {
                Some(place) => place.index(standing.count) == Some(standing.place),
                None => standing.count.is_multiple_of(2) || standing.place * 2 + 1 == standing.count,
            }
    }
}

/// A file's number, 1–9, counted from the right of `color`'s side of the board.
pub fn file_number(sq: Square, color: Color) -> u8 {
    match color {
        Color::Red => Square::FILES - sq.file(),
        Color::Black => sq.file() + 1,
    }
}

impl Board {
    /// How `mv`, a move of the side to move, is described; `None` when no piece of the
    /// side to move stands on its from-square.
    pub(crate) fn describe(&self, mv: Move) -> Option<Description> {
        let piece = self.piece_at(mv.from).filter(|p| p.color() == self.side_to_move())?;
        let color = piece.color();
        let ahead = forward_distance(mv.from, mv.to, color);
        let direction = match ahead {
            0 => Direction::Sideways,
            d if d > 0 => Direction::Forward,
            _ => Direction::Backward,
        };
        let by_file = matches!(piece.kind(), Kind::Advisor | Kind::Elephant | Kind::Horse);
        let figure = if by_file || direction == Direction::Sideways {
            file_number(mv.to, color)
        } else {
            ahead.unsigned_abs() as u8
        };
        Some(Description { kind: piece.kind(), standing: self.standing(mv.from, piece), direction, figure })
    }

    /// The standing of `piece`, which stands on `sq`.
    fn standing(&self, sq: Square, piece: Piece) -> Standing {
        let file = file_number(sq, piece.color());
        if matches!(piece.kind(), Kind::Advisor | Kind::Elephant) {
            return Standing { file, count: 1, place: 0, paired_files: false };
        }
        let on_file = self.alike_on_file(sq.file(), piece);
        let count = on_file.len() as u8;
        let place = on_file.iter().filter(|&&other| forward_distance(sq, other, piece.color()) > 0).count() as u8;
        let paired_files = piece.kind() == Kind::Pawn
            && count >= 2
            && (0..Square::FILES).filter(|&f| self.alike_on_file(f, piece).len() >= 2).count() >= 2;
        Standing { file, count, place, paired_files }
    }

    /// The squares of file `file` (0–8) that hold `piece`.
    fn alike_on_file(&self, file: u8, piece: Piece) -> Vec<Square> {
        (0..Square::RANKS as i32)
            .filter_map(|rank| Square::from_coords(file as i32, rank))
            .filter(|&sq| self.piece_at(sq) == Some(piece))
            .collect()
    }

    /// The legal move that `named` describes, or why there is none: no such piece, no
    /// such legal move, or more than one.
    pub(crate) fn resolve(&self, named: &Named) -> Result<Move, String> {
        let piece = Piece::new(self.side_to_move(), named.kind);
        let mut legal = MoveList::new();
        self.legal_moves(&mut legal);
        let origins: Vec<Square> = Square::all()
            .filter(|&sq| self.piece_at(sq) == Some(piece) && named.answers(self.standing(sq, piece)))
            .collect();
        if origins.is_empty() {
            return Err(match (named.file, named.place) {
                (Some(file), None) => format!("no {} on file {file}", piece.name()),
                _ => format!("no {} stands in that place", piece.name()),
            });
        }
        let fits: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|mv| origins.contains(&mv.from))
            .filter(|&mv| self.describe(mv).is_some_and(|d| d.direction == named.direction && d.figure == named.figure))
            .collect();
        match fits.as_slice() {
            [] => Err(format!("the {} has no such legal move", piece.name())),
            [mv] => Ok(*mv),
            [first, second, ..] => Err(format!("ambiguous: it names both {first} and {second}")),
        }
    }
}

/// How many ranks `to` lies ahead of `from` for `color` (negative when behind).
fn forward_distance(from: Square, to: Square, color: Color) -> i32 {
    let ranks = to.rank() as i32 - from.rank() as i32;
    match color {
        Color::Red => ranks,
        Color::Black => -ranks,
    }
}

//! WXF notation, the World Xiangqi Federation's ASCII spelling of a move's description:
//! `C2.5`, `H8+7`, `R+-1`. Four characters: the piece letter (`K A E H R C P`), the
//! origin file 1–9 from the mover's right (or `+`/`-` for the front or rear of two
//! identical pieces on one file), the direction (`+` forward, `-` backward, `.` or `=`
//! sideways) and the last figure. Soldiers have their own rules for three or more on a
//! file and for two files of paired soldiers; docs/notation.md gives them with examples.

use super::move_description::{Description, Direction, Named, Place};
use super::Kind;

/// The WXF text of a description.
pub fn write(description: &Description) -> String {
    let standing = description.standing;
    let letter = letter(description.kind);
    let file = digit(standing.file);
    let (place, count) = (standing.place, standing.count);
    let (first, last) = (place == 0, place + 1 == count);
    // Front `+`, rear `-`, the middle one by its file.
    let mark = if first {
        '+'
    } else if last {
        '-'
    } else {
        file
    };
    let origin = match count {
        1 => [letter, file],
        _ if standing.paired_files => [file, mark],
        2 | 3 => [letter, mark],
        _ if first || last => [mark, mark],
        _ if place == 1 => [letter, '+'],
        _ if place + 2 == count => [letter, '-'],
        _ => [letter, file],
    };
    let direction = match description.direction {
        Direction::Forward => '+',
        Direction::Backward => '-',
        Direction::Sideways => '.',
    };
    [origin[0], origin[1], direction, digit(description.figure)].into_iter().collect()
}

/// Reads WXF text, in either case, `=` or `.` for sideways; `None` if it is not WXF.
pub fn read(text: &str) -> Option<Named> {
    let chars: Vec<char> = text.trim().chars().map(|c| c.to_ascii_uppercase()).collect();
    let [piece, origin, direction, figure] = chars[..] else {
        return None;
    };
    let file_of = |c: char| c.to_digit(10).filter(|d| (1..=9).contains(d)).map(|d| d as u8);
    let (kind, file, place) = match (piece, origin) {
        ('+', '+') => (Kind::Pawn, None, Some(Place::Nth(1))),
        ('-', '-') => (Kind::Pawn, None, Some(Place::Last)),
        (file, mark) if file_of(file).is_some() => {
            let place = match mark {
                '+' => Place::Front,
                '-' => Place::Rear,
                same if same == file => Place::Middle,
                _ => return None,
            };
            (Kind::Pawn, file_of(file), Some(place))
        }
        (letter, mark) => {
            let kind = Kind::from_letter(letter)?;
            match mark {
                '+' => (kind, None, Some(Place::Front)),
                '-' => (kind, None, Some(Place::Rear)),
                file => (kind, Some(file_of(file)?), None),
            }
        }
    };
    let direction = match direction {
        '+' => Direction::Forward,
        '-' => Direction::Backward,
        '.' | '=' => Direction::Sideways,
        _ => return None,
    };
    Some(Named { kind, file, place, direction, figure: file_of(figure)? })
}

/// The WXF letter of a kind.
fn letter(kind: Kind) -> char {
    match kind {
        Kind::King => 'K',
        Kind::Advisor => 'A',
        Kind::Elephant => 'E',
        Kind::Horse => 'H',
        Kind::Rook => 'R',
        Kind::Cannon => 'C',
        Kind::Pawn => 'P',
    }
}

/// The digit of a number 1–9.
fn digit(number: u8) -> char {
    char::from_digit(number.into(), 10).expect("a figure is a single digit")
}

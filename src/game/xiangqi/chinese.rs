//! Chinese notation: the same description as WXF in characters, `炮二平五`, `马8进7`,
//! `前车退1`. Red's files and figures are Chinese numerals, Black's Arabic digits; 进
//! forward, 退 backward, 平 sideways; 前/中/后 before the piece for pieces sharing a
//! file. Written in simplified characters; read in simplified or traditional ones, with
//! either kind of numeral, ASCII or full-width digits, for either side.

use super::move_description::{Description, Direction, Named, Place};
use super::{Color, Kind};

/// Chinese numerals one to nine.
const NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// The Chinese text of a description of a move by `color`.
pub fn write(description: &Description, color: Color) -> String {
    let standing = description.standing;
    let number = |n: u8| match color {
        Color::Red => NUMERALS[usize::from(n) - 1],
        Color::Black => char::from_digit(n.into(), 10).expect("a figure is a single digit"),
    };
    let piece = piece(description.kind, color);
    let (place, count) = (standing.place, standing.count);
    let front_middle_rear = if place == 0 {
        '前'
    } else if place + 1 == count {
        '后'
    } else {
        '中'
    };
    let origin: String = if count == 1 {
        [piece, number(standing.file)].into_iter().collect()
    } else if standing.paired_files {
        [front_middle_rear, number(standing.file)].into_iter().collect()
    } else if count <= 3 {
        [front_middle_rear, piece].into_iter().collect()
    } else {
        [NUMERALS[usize::from(place)], piece].into_iter().collect()
    };
    let direction = match description.direction {
        Direction::Forward => '进',
        Direction::Backward => '退',
        Direction::Sideways => '平',
    };
    format!("{origin}{direction}{}", number(description.figure))
}

/// Reads Chinese text; `None` if it is not a move in Chinese notation.
pub fn read(text: &str) -> Option<Named> {
    let tokens: Vec<Token> = text.trim().chars().filter(|c| !c.is_whitespace()).map(token).collect::<Option<_>>()?;
    let [origin, second, Token::Direction(direction), Token::Number(figure)] = tokens[..] else {
        return None;
    };
    let (kind, file, place) = match (origin, second) {
        (Token::Piece(kind), Token::Number(file)) => (kind, Some(file), None),
        (Token::Place(place), Token::Piece(kind)) => (kind, None, Some(place)),
        (Token::Number(nth @ 1..=5), Token::Piece(kind)) => (kind, None, Some(Place::Nth(nth))),
        (Token::Place(place), Token::Number(file)) => (Kind::Pawn, Some(file), Some(place)),
        _ => return None,
    };
    Some(Named { kind, file, place, direction, figure })
}

/// One character of a Chinese move.
#[derive(Clone, Copy)]
enum Token {
    Piece(Kind),
    Number(u8),
    Place(Place),
    Direction(Direction),
}

/// What a character means, in any of the spellings read.
fn token(c: char) -> Option<Token> {
    if let Some(i) = NUMERALS.iter().position(|&n| n == c) {
        return Some(Token::Number(i as u8 + 1));
    }
    let ascii = match c {
        '１'..='９' => char::from_u32(c as u32 - '１' as u32 + '1' as u32)?,
        _ => c,
    };
    if let Some(n) = ascii.to_digit(10).filter(|&n| n >= 1) {
        return Some(Token::Number(n as u8));
    }
    Some(match c {
        '帅' | '帥' | '将' | '將' => Token::Piece(Kind::King),
        '仕' | '士' => Token::Piece(Kind::Advisor),
        '相' | '象' => Token::Piece(Kind::Elephant),
        '马' | '馬' | '傌' => Token::Piece(Kind::Horse),
        '车' | '車' | '俥' => Token::Piece(Kind::Rook),
        '炮' | '砲' => Token::Piece(Kind::Cannon),
        '兵' | '卒' => Token::Piece(Kind::Pawn),
        '前' => Token::Place(Place::Nth(1)),
        '中' => Token::Place(Place::Middle),
        '后' | '後' => Token::Place(Place::Last),
        '进' | '進' => Token::Direction(Direction::Forward),
        '退' => Token::Direction(Direction::Backward),
        '平' => Token::Direction(Direction::Sideways),
        _ => return None,
    })
}

/// The simplified character of a piece of `kind` and `color`.
fn piece(kind: Kind, color: Color) -> char {
    let red = color == Color::Red;
    match kind {
        Kind::King if red => '帅',
        Kind::King => '将',
        Kind::Advisor if red => '仕',
        Kind::Advisor => '士',
        Kind::Elephant if red => '相',
        Kind::Elephant => '象',
        Kind::Horse => '马',
        Kind::Rook => '车',
        Kind::Cannon => '炮',
        Kind::Pawn if red => '兵',
        Kind::Pawn => '卒',
    }
}

//! FEN: `rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1`.
//! Rows from rank 9 down to rank 0; upper case is Red; `H`/`E` read as horse/elephant;
//! side `w` or `r` for Red, `b` for Black; then `- -`, the plies since the last capture
//! and the move number. Only the board and the side are required.

use super::{Board, Color, Piece, Square};

/// The start position.
pub const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// What a FEN holds beside the board.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Counters {
    /// Plies since the last capture.
    pub since_capture: u32,
    /// The move number, starting at 1 and counting up after each Black move.
    pub move_number: u32,
}

/// Reads a FEN (`startpos` is the start position); the error says what is wrong.
pub fn parse(text: &str) -> Result<(Board, Counters), String> {
    let text = text.trim();
    if text == "startpos" {
        return parse(START);
    }
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() < 2 || fields.len() > 6 {
        return Err(format!("expected 2 to 6 fields, found {}", fields.len()));
    }
    let pieces = parse_placement(fields[0])?;
    let side = match fields[1] {
        "w" | "r" => Color::Red,
        "b" => Color::Black,
        other => return Err(format!("side to move must be `w`, `r` or `b`, not `{other}`")),
    };
    for field in fields.iter().take(4).skip(2) {
        if *field != "-" {
            return Err(format!("fields 3 and 4 must be `-`, not `{field}`"));
        }
    }
    let number = |index: usize, default: u32| -> Result<u32, String> {
        match fields.get(index) {
            None => Ok(default),
            Some(field) => field.parse().map_err(|_| format!("`{field}` is not a move counter")),
        }
    };
    let counters = Counters { since_capture: number(4, 0)?, move_number: number(5, 1)?.max(1) };
    Ok((Board::new(&pieces, side)?, counters))
}

fn parse_placement(placement: &str) -> Result<Vec<(Square, Piece)>, String> {
    let rows: Vec<&str> = placement.split('/').collect();
    if rows.len() != 10 {
        return Err(format!("the board needs 10 rows separated by `/`, found {}", rows.len()));
    }
    let mut pieces = Vec::new();
    for (row, text) in rows.iter().enumerate() {
        let rank = 9 - row as i32;
        let mut file = 0;
        for c in text.chars() {
            if let Some(run) = c.to_digit(10).filter(|&d| d > 0) {
                file += run as i32;
            } else if let Some(piece) = Piece::from_letter(c) {
                if let Some(sq) = Square::from_coords(file, rank) {
                    pieces.push((sq, piece));
                }
                file += 1;
            } else {
                return Err(format!("unexpected character `{c}` in the board"));
            }
            if file > 9 {
                return Err(format!("row `{text}` (rank {rank}) is longer than 9 files"));
            }
        }
        if file != 9 {
            return Err(format!("row `{text}` (rank {rank}) has {file} files, not 9"));
        }
    }
    Ok(pieces)
}

/// Writes the FEN of `board` with its counters.
pub fn write(board: &Board, counters: Counters) -> String {
    let mut text = String::with_capacity(90);
    for rank in (0..10).rev() {
        let mut empty = 0;
        for file in 0..9 {
            let sq = Square::from_coords(file, rank).expect("on the board");
            match board.piece_at(sq) {
                Some(piece) => {
                    if empty > 0 {
                        text.push(char::from_digit(empty, 10).expect("a digit"));
                        empty = 0;
                    }
                    text.push(piece.letter());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            text.push(char::from_digit(empty, 10).expect("a digit"));
        }
        if rank > 0 {
            text.push('/');
        }
    }
    let side = if board.side_to_move() == Color::Red { 'w' } else { 'b' };
    format!("{text} {side} - - {} {}", counters.since_capture, counters.move_number)
}

impl Board {
    /// The start position, Red to move.
    pub fn start() -> Board {
        parse(START).expect("the start FEN is valid").0
    }
}

//! State text, five fields:
//! `XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX - KGGMMRRNNCCPPPPPkggmmrrnnccppppp 0 0`.
//! Rows from rank 8 down to rank 1, files a–d in each; letters `K G M R N C P`
//! (General, Advisor, Elephant, Chariot, Horse, Cannon, Soldier; upper case Red, lower
//! case Black), `X` face-down, digits for runs of empty squares; then the colour to move
//! (`r`, `b`, or `-` before the first flip); the hidden pool as letters (`-` when empty);
//! the plies since the last flip or capture; the plies played. The player to move is
//! `First` when the plies played are even. In the chain-capture variant a sixth field,
//! the square of the piece in the middle of a chain capture, may follow.

use super::{Board, Cell, Color, Piece, Pool, Square};
use crate::game::Player;

/// The start: every piece face-down, colours undecided.
pub const START: &str = "XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX - KGGMMRRNNCCPPPPPkggmmrrnnccppppp 0 0";

/// What the state text holds beside the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Counters {
    /// Plies since the last flip or capture.
    pub since_progress: u32,
    /// Plies played since the start of the game.
    pub plies: u32,
}

/// Reads state text (`startpos` is the start) into a board with the chain-capture
/// variant on or off; the error says what is wrong.
pub fn parse(text: &str, chain_rule: bool) -> Result<(Board, Counters), String> {
    let text = text.trim();
    if text == "startpos" {
        return parse(START, chain_rule);
    }
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() != 5 && !(chain_rule && fields.len() == 6) {
        return Err(format!(
            "expected 5 fields (board, colour to move, hidden pool, two counters), found {}",
            fields.len()
        ));
    }
    let cells = parse_board(fields[0])?;
    let side = match fields[1] {
        "r" => Some(Color::Red),
        "b" => Some(Color::Black),
        "-" => None,
        other => return Err(format!("colour to move must be `r`, `b` or `-`, not `{other}`")),
    };
    let pool = Pool::parse(fields[2])?;
    let counter = |field: &str, what: &str| -> Result<u32, String> {
        match field.parse() {
            Ok(n) if field.bytes().all(|b| b.is_ascii_digit()) => Ok(n),
            _ => Err(format!("`{field}` is not a count of {what}")),
        }
    };
    let counters = Counters {
        since_progress: counter(fields[3], "plies since the last flip or capture")?,
        plies: counter(fields[4], "plies played")?,
    };
    let mover = if counters.plies.is_multiple_of(2) { Player::First } else { Player::Second };
    let mut board = Board::new(&cells, pool, side, mover, chain_rule)?;
    if let Some(field) = fields.get(5) {
        let sq = Square::parse(field).ok_or_else(|| format!("`{field}` is not a chain-capture square"))?;
        board.set_chain(sq)?;
    }
    Ok((board, counters))
}

fn parse_board(placement: &str) -> Result<[Cell; 32], String> {
    let rows: Vec<&str> = placement.split('/').collect();
    if rows.len() != 8 {
        return Err(format!("the board needs 8 rows separated by `/`, found {}", rows.len()));
    }
    let mut cells = [Cell::Empty; 32];
    for (row, text) in rows.iter().enumerate() {
        let rank = 7 - row as i32;
        let mut file = 0;
        for c in text.chars() {
            let cell = match c {
                '1'..='4' => None,
                'X' => Some(Cell::Hidden),
                _ => Some(Cell::Piece(
                    Piece::from_letter(c).ok_or_else(|| format!("unexpected character `{c}` in the board"))?,
                )),
            };
            match cell {
                None => file += c as i32 - '0' as i32,
                Some(cell) => {
                    if let Some(sq) = Square::from_coords(file, rank) {
                        cells[sq.index()] = cell;
                    }
                    file += 1;
                }
            }
            if file > 4 {
                return Err(format!("row `{text}` (rank {}) is longer than 4 files", rank + 1));
            }
        }
        if file != 4 {
            return Err(format!("row `{text}` (rank {}) has {file} files, not 4", rank + 1));
        }
    }
    Ok(cells)
}

/// Writes the state text of `board` with its counters (and the chain square, if any).
pub fn write(board: &Board, counters: Counters) -> String {
    let mut text = String::with_capacity(80);
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..4 {
            let sq = Square::from_coords(file, rank).expect("on the board");
            let letter = match board.cell(sq) {
                Cell::Empty => {
                    empty += 1;
                    continue;
                }
                Cell::Hidden => 'X',
                Cell::Piece(piece) => piece.letter(),
            };
            if empty > 0 {
                text.push(char::from_digit(empty, 10).expect("a digit"));
                empty = 0;
            }
            text.push(letter);
        }
        if empty > 0 {
            text.push(char::from_digit(empty, 10).expect("a digit"));
        }
        if rank > 0 {
            text.push('/');
        }
    }
    let side = board.side_to_move().map_or('-', Color::letter);
    text = format!("{text} {side} {} {} {}", board.pool(), counters.since_progress, counters.plies);
    if let Some(sq) = board.chain_square() {
        text = format!("{text} {sq}");
    }
    text
}

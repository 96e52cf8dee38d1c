//! Banqi at the table: the 4×8 board with face-down pieces, seats named First and Second
//! until the first flip gives them colours, and each flip's reveal.

use super::glyph::{hanzi, Role};
use super::grid::{Cell, Grid, Ink};
use super::{Style, View};
use crate::game::banqi::{self, Banqi, Color, Kind, Move, Piece, Square};
use crate::game::Player as Seat;

impl View for Banqi {
    const MOVE_HELP: &'static str =
        "from-square then to-square, files a–d and ranks 1–8 (b3b4); a flip names its square twice (b3b3)";

    fn draw(&self, last: Option<Move>, style: Style) -> String {
        let rows = (0..Square::RANKS as i32)
            .rev()
            .map(|rank| {
                let cells = (0..Square::FILES as i32)
                    .filter_map(|file| Square::from_coords(file, rank))
                    .map(|sq| {
                        let marked = last.is_some_and(|mv| mv.from == sq || mv.to == sq);
                        match self.board().cell(sq) {
                            banqi::Cell::Piece(piece) => {
                                Cell { letter: piece.letter(), glyph: glyph(piece), ink: ink(piece), marked }
                            }
                            banqi::Cell::Hidden => Cell { letter: 'X', glyph: '〇', ink: Ink::Hidden, marked },
                            banqi::Cell::Empty => Cell { letter: '.', glyph: '・', ink: Ink::Empty, marked },
                        }
                    })
                    .collect();
                ((rank + 1).to_string(), cells)
            })
            .collect();
        Grid { files: "abcd", rows, divider: None }.draw(style)
    }

    fn seat_name(&self, seat: Seat) -> String {
        let name = match seat {
            Seat::First => "First",
            Seat::Second => "Second",
        };
        match self.color_of(seat) {
            Some(color) => format!("{name} ({})", color_name(color)),
            None => name.to_string(),
        }
    }

    fn alert(&self) -> Option<String> {
        None
    }

    fn reveal(&self, mv: Move, outcome: Piece, style: Style) -> String {
        let shown = match style {
            Style::Plain => outcome.letter(),
            Style::Terminal => glyph(outcome),
        };
        format!("{} flips: {shown} ({})", mv.from, color_name(outcome.color()))
    }
}

/// `red` or `black`.
fn color_name(color: Color) -> &'static str {
    match color {
        Color::Red => "red",
        Color::Black => "black",
    }
}

fn ink(piece: Piece) -> Ink {
    match piece.color() {
        Color::Red => Ink::Red,
        Color::Black => Ink::Black,
    }
}

/// The Chinese character of a Banqi piece.
fn glyph(piece: Piece) -> char {
    let role = match piece.kind() {
        Kind::General => Role::General,
        Kind::Advisor => Role::Advisor,
        Kind::Elephant => Role::Elephant,
        Kind::Chariot => Role::Chariot,
        Kind::Horse => Role::Horse,
        Kind::Cannon => Role::Cannon,
        Kind::Soldier => Role::Soldier,
    };
    hanzi(piece.color() == Color::Red, role)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::play::style::strip_escapes;

    const STATE: &str = "X3/4/4/4/4/4/4/K2p r P 0 2";

    #[test]
    fn plain_board_shows_face_down_face_up_and_empty_squares() {
        let game = Banqi::from_text(STATE).unwrap();
        let expected = "  a b c d\n8 X . . . 8\n7 . . . . 7\n6 . . . . 6\n5 . . . . 5\n4 . . . . 4\n3 . . . . 3\n\
                        2 . . . . 2\n1 K . . p 1\n  a b c d\n";
        assert_eq!(game.draw(None, Style::Plain), expected);
    }

    #[test]
    fn terminal_board_and_reveal_use_chinese_characters() {
        let mut game = Banqi::from_text(STATE).unwrap();
        let text = strip_escapes(&game.draw(None, Style::Terminal));
        assert_eq!(text.lines().nth(1), Some("8 〇 ・ ・ ・ 8"));
        assert_eq!(text.lines().nth(8), Some("1 帥 ・ ・ 卒 1"));
        let flip = game.parse_move("a8a8").unwrap();
        game.play(flip);
        let pawn = Piece::new(Color::Red, Kind::Soldier);
        game.apply_outcome(pawn);
        assert_eq!(game.reveal(flip, pawn, Style::Terminal), "a8 flips: 兵 (red)");
        assert_eq!(game.reveal(flip, pawn, Style::Plain), "a8 flips: P (red)");
    }

    #[test]
    fn seats_get_their_colours_from_the_first_flip() {
        let mut game = Banqi::start();
        assert_eq!(game.seat_name(Seat::First), "First");
        game.play(game.parse_move("b3b3").unwrap());
        game.apply_outcome(Piece::new(Color::Black, Kind::Horse));
        assert_eq!(game.seat_name(Seat::First), "First (black)");
        assert_eq!(game.seat_name(Seat::Second), "Second (red)");
    }
}

//! Xiangqi at the table: the 9×10 board with its river, Red's and Black's seats, check.

use super::glyph::{hanzi, Role};
use super::grid::{Cell, Grid, Ink};
use super::{Style, View};
use crate::game::xiangqi::{Color, Kind, Move, Notation, Square, Xiangqi};
use crate::game::{Game, Player as Seat};

impl View for Xiangqi {
    const MOVE_HELP: &'static str = "WXF (C2.5), Chinese (炮二平五) or ICCS squares (h2e2: files a–i from Red's \
         left, ranks 0–9 from Red's side); docs/notation.md has the rules";

    fn move_text(&self, mv: Move, notation: Notation) -> String {
        self.board().move_text(mv, notation)
    }

    fn record_start(&self) -> (String, Vec<String>) {
        (self.start_fen(), self.moves().map(|mv| mv.to_string()).collect())
    }

    fn read_move(&self, text: &str) -> Result<Move, String> {
        self.board().read_move(text, None).map_err(|why| format!("`{text}`: {why}"))
    }

    fn draw(&self, last: Option<Move>, style: Style) -> String {
        let rows = (0..Square::RANKS as i32)
            .rev()
            .map(|rank| {
                let cells = (0..Square::FILES as i32)
                    .filter_map(|file| Square::from_coords(file, rank))
                    .map(|sq| {
                        let marked = last.is_some_and(|mv| mv.from == sq || mv.to == sq);
                        match self.board().piece_at(sq) {
                            Some(piece) => {
                                let red = piece.color() == Color::Red;
                                let ink = if red { Ink::Red } else { Ink::Black };
                                Cell { letter: piece.letter(), glyph: hanzi(red, role(piece.kind())), ink, marked }
                            }
                            None => Cell { letter: '.', glyph: '＋', ink: Ink::Empty, marked },
                        }
                    })
                    .collect();
                (rank.to_string(), cells)
            })
            .collect();
        Grid { files: "abcdefghi", rows, divider: Some((5, "~~~~~ river ~~~~~", "   楚 河          漢 界   ")) }
            .draw(style)
    }

    fn seat_name(&self, seat: Seat) -> String {
        match seat {
            Seat::First => "Red",
            Seat::Second => "Black",
        }
        .to_string()
    }

    fn alert(&self) -> Option<String> {
        (self.in_check() && !self.status().is_over())
            .then(|| format!("{} is in check.", self.seat_name(self.to_move())))
    }

    fn reveal(&self, _mv: Move, outcome: std::convert::Infallible, _style: Style) -> String {
        match outcome {}
    }
}

/// The role of a Xiangqi piece kind.
fn role(kind: Kind) -> Role {
    match kind {
        Kind::King => Role::General,
        Kind::Advisor => Role::Advisor,
        Kind::Elephant => Role::Elephant,
        Kind::Rook => Role::Chariot,
        Kind::Horse => Role::Horse,
        Kind::Cannon => Role::Cannon,
        Kind::Pawn => Role::Soldier,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::style::{strip_escapes, MARKED};

    #[test]
    fn start_position_in_plain_letters() {
        let expected = "  a b c d e f g h i
9 r n b a k a b n r 9
8 . . . . . . . . . 8
7 . c . . . . . c . 7
6 p . p . p . p . p 6
5 . . . . . . . . . 5
  ~~~~~ river ~~~~~
4 . . . . . . . . . 4
3 P . P . P . P . P 3
2 . C . . . . . C . 2
1 . . . . . . . . . 1
0 R N B A K A B N R 0
  a b c d e f g h i
";
        assert_eq!(Xiangqi::start().draw(None, Style::Plain), expected);
    }

    #[test]
    fn terminal_board_uses_chinese_characters_and_marks_the_last_move() {
        let mut game = Xiangqi::start();
        let mv = game.parse_move("h2e2").unwrap();
        game.play(mv);
        let text = game.draw(Some(mv), Style::Terminal);
        let plain = strip_escapes(&text);
        let first_rank = plain.lines().nth(1).unwrap();
        assert_eq!(first_rank, "9 車 馬 象 士 將 士 象 馬 車 9");
        assert_eq!(plain.lines().nth(9).unwrap(), "2 ＋ 炮 ＋ ＋ 炮 ＋ ＋ ＋ ＋ 2");
        assert!(plain.contains("楚 河"));
        // e2 (the cannon) and h2 (now empty) are highlighted, nothing else.
        assert_eq!(text.matches(MARKED).count(), 2);
    }

    #[test]
    fn check_is_announced_for_the_side_to_move() {
        let game = Xiangqi::from_text("4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1").unwrap();
        assert_eq!(game.alert().as_deref(), Some("Black is in check."));
        assert_eq!(Xiangqi::start().alert(), None);
    }
}

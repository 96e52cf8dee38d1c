//! A board as a grid of cells with file letters above and below and rank numbers on both
//! sides, drawn in either style; Xiangqi adds its river between two rows.

use super::style::{paint, Style, BLACK_INK, BOARD, FAINT_INK, HIDDEN_INK, MARKED, RED_INK};

/// What a cell shows.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Ink {
    /// A red piece.
    Red,
    /// A black piece.
    Black,
    /// A face-down piece.
    Hidden,
    /// Nothing.
    Empty,
}

/// One square as drawn.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Cell {
    /// Its character in plain style (a FEN letter, `X` face-down, `.` empty).
    pub letter: char,
    /// Its character on a terminal (a double-width Chinese character or symbol).
    pub glyph: char,
    /// Its colour.
    pub ink: Ink,
    /// Whether the last move left or reached it.
    pub marked: bool,
}

/// A board to draw: file letters left to right, and rows top to bottom with their labels.
pub(crate) struct Grid<'a> {
    /// The file letters, left to right.
    pub files: &'a str,
    /// Each row's label (its rank) and cells, top row first.
    pub rows: Vec<(String, Vec<Cell>)>,
    /// A line drawn after this many rows (the river), with its plain and terminal text.
    pub divider: Option<(usize, &'a str, &'a str)>,
}

impl Grid<'_> {
    /// The board as lines of text, each ending in a newline.
    pub fn draw(&self, style: Style) -> String {
        let label_width = self.rows.iter().map(|(label, _)| label.len()).max().unwrap_or(1);
        let margin = " ".repeat(label_width + 1);
        let gap = if style == Style::Plain { " " } else { "  " };
        let files: Vec<String> = self.files.chars().map(String::from).collect();
        let header = format!("{margin}{}\n", files.join(gap));
        let mut text = header.clone();
        for (index, (label, cells)) in self.rows.iter().enumerate() {
            if let Some((after, plain, terminal)) = self.divider {
                if index == after {
                    let line = match style {
                        Style::Plain => plain.to_string(),
                        Style::Terminal => paint(terminal, &format!("{FAINT_INK};{BOARD}")),
                    };
                    text += &format!("{margin}{line}\n");
                }
            }
            let drawn: Vec<String> = cells.iter().map(|cell| draw_cell(cell, style)).collect();
            let separator = match style {
                Style::Plain => " ".to_string(),
                Style::Terminal => paint(" ", BOARD),
            };
            text += &format!("{label:>label_width$} {} {label}\n", drawn.join(&separator));
        }
        text + &header
    }
}

fn draw_cell(cell: &Cell, style: Style) -> String {
    match style {
        Style::Plain => cell.letter.to_string(),
        Style::Terminal => {
            let ink = match cell.ink {
                Ink::Red => RED_INK,
                Ink::Black => BLACK_INK,
                Ink::Hidden => HIDDEN_INK,
                Ink::Empty => FAINT_INK,
            };
            let ground = if cell.marked { MARKED } else { BOARD };
            paint(&cell.glyph.to_string(), &format!("{ink};{ground}"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(letter: char, ink: Ink, marked: bool) -> Cell {
        Cell { letter, glyph: '＋', ink, marked }
    }

    #[test]
    fn plain_grid_has_labels_on_all_sides_and_the_divider() {
        let grid = Grid {
            files: "ab",
            rows: vec![
                ("1".to_string(), vec![cell('k', Ink::Black, false), cell('.', Ink::Empty, false)]),
                ("0".to_string(), vec![cell('.', Ink::Empty, true), cell('K', Ink::Red, true)]),
            ],
            divider: Some((1, "~~~", "river")),
        };
        assert_eq!(grid.draw(Style::Plain), "  a b\n1 k . 1\n  ~~~\n0 . K 0\n  a b\n");
    }

    #[test]
    fn terminal_cells_are_painted_and_marked_ones_highlighted() {
        let grid = Grid { files: "a", rows: vec![("0".to_string(), vec![cell('K', Ink::Red, true)])], divider: None };
        let text = grid.draw(Style::Terminal);
        assert!(text.contains(&format!("\x1b[{RED_INK};{MARKED}m＋\x1b[0m")), "{text:?}");
        assert!(text.starts_with("  a\n0 "), "{text:?}");
    }
}

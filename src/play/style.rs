//! The two ways of drawing: plain text, or Chinese characters in ANSI colour.

/// How boards and pieces are drawn.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Style {
    /// FEN letters (upper case Red, lower case Black), no escape codes: for pipes,
    /// scripts and tests.
    Plain,
    /// Chinese characters in red and black on a coloured board, the last move
    /// highlighted: for a terminal.
    Terminal,
}

/// ANSI SGR codes of the board's background.
pub(crate) const BOARD: &str = "48;5;223";
/// ANSI SGR codes of the background of the last move's squares.
pub(crate) const MARKED: &str = "48;5;151";
/// ANSI SGR codes of a red piece.
pub(crate) const RED_INK: &str = "1;31";
/// ANSI SGR codes of a black piece.
pub(crate) const BLACK_INK: &str = "1;30";
/// ANSI SGR codes of an empty point and of the board's decorations.
pub(crate) const FAINT_INK: &str = "38;5;137";
/// ANSI SGR codes of a face-down piece.
pub(crate) const HIDDEN_INK: &str = "38;5;94";

/// `text` between the escape that sets `codes` (`;`-joined SGR codes) and a reset.
pub(crate) fn paint(text: &str, codes: &str) -> String {
    format!("\x1b[{codes}m{text}\x1b[0m")
}

/// `text` without its escape sequences: what a terminal shows.
#[cfg(test)]
pub(crate) fn strip_escapes(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            chars.by_ref().find(|&c| c == 'm');
        } else {
            out.push(c);
        }
    }
    out
}

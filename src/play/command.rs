//! What a line typed at the prompt asks for.

/// One line of input.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Command<'a> {
    /// Nothing (a blank line).
    Blank,
    /// `hint`: the engine's suggestion for the side to move.
    Hint,
    /// `undo`: take back the last move (and the engine's reply).
    Undo,
    /// `fen`: print the position's text.
    Fen,
    /// `resign`: the side to move gives up.
    Resign,
    /// `help`: list the commands.
    Help,
    /// `quit`: leave the game unfinished.
    Quit,
    /// Anything else: a move, to be read by the game.
    Move(&'a str),
}

impl<'a> Command<'a> {
    /// Reads a line: a command word (any case), or else the text of a move.
    pub fn parse(line: &'a str) -> Command<'a> {
        let text = line.trim();
        match text.to_ascii_lowercase().as_str() {
            "" => Command::Blank,
            "hint" => Command::Hint,
            "undo" => Command::Undo,
            "fen" => Command::Fen,
            "resign" => Command::Resign,
            "help" | "?" => Command::Help,
            "quit" | "exit" => Command::Quit,
            _ => Command::Move(text),
        }
    }
}

/// The `help` text, with how moves are written in this game.
pub(crate) fn help(move_help: &str) -> String {
    format!(
        "moves: {move_help}\n\
         hint    the engine's suggestion for the side to move\n\
         undo    take back your last move (and the engine's reply to it), not a flip\n\
         fen     print the position as text\n\
         resign  give up the game\n\
         help    this list\n\
         quit    leave the game unfinished\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_in_any_case_and_moves_trimmed() {
        assert_eq!(Command::parse("  Undo \n"), Command::Undo);
        assert_eq!(Command::parse("HINT"), Command::Hint);
        assert_eq!(Command::parse("\n"), Command::Blank);
        assert_eq!(Command::parse(" h2e2\r\n"), Command::Move("h2e2"));
        assert_eq!(Command::parse("undo h2e2"), Command::Move("undo h2e2"));
    }
}

//! The `xiangqi-zero` command line: parses arguments, then calls one function of `cli`.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let command = match cli::Cli::try_parse() {
        Ok(command) => command,
        Err(error) if !error.use_stderr() => {
            // --help and --version.
            let _ = error.print();
            return ExitCode::SUCCESS;
        }
        Err(error) => {
            // One line, without clap's usage block: the message's lines (a list of missing
            // arguments runs over several) joined up to the first blank line.
            let text = error.render().to_string();
            let message: Vec<&str> = text
                .lines()
                .map(str::trim)
                .take_while(|line| !line.is_empty())
                .filter(|l| !l.starts_with("Usage:"))
                .collect();
            eprintln!("{}", if message.is_empty() { "error: bad arguments".to_string() } else { message.join(" ") });
            return ExitCode::from(2);
        }
    };
    match cli::run(command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::from(2)
        }
    }
}

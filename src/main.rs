//! The `xiangqi-zero` command line: parses arguments, then calls one function of `cli`.

mod cli;

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    xiangqi_zero::allocator::keep_freed_memory();
    exit_when_output_fails();
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
            let _ = writeln!(std::io::stderr(), "error: {}", one_line(&error));
            ExitCode::from(2)
        }
    }
}

/// The error and its causes in one line: a cause whose text the line already holds (an
/// error that shows its source in its own message) is not repeated, and line breaks
/// inside a message become spaces.
fn one_line(error: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in error.chain() {
        let text = cause.to_string();
        if line.contains(&text) {
            continue;
        }
        if !line.is_empty() {
            line.push_str(": ");
        }
        line.push_str(&text);
    }
    line.replace("\r\n", " ").replace('\n', " ")
}

/// `println!` panics when standard output cannot be written (a full disk, a closed pipe):
/// say so in one line and exit 2 instead of printing a panic and a stack trace — or, when
/// the reader of a pipe has gone (`| head`), stop silently as a Unix filter killed by
/// SIGPIPE does (exit 141). Files being written are safe: each is written whole or not at
/// all (`atomic`). Every other panic is reported as before.
fn exit_when_output_fails() {
    /// The exit status of a process killed by SIGPIPE, as shells report it.
    const BROKEN_PIPE_EXIT: i32 = 128 + 13;
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if let Some(why) = message.strip_prefix("failed printing to stdout: ") {
            if why.contains("Broken pipe") {
                std::process::exit(BROKEN_PIPE_EXIT);
            }
            let _ = writeln!(std::io::stderr(), "error: cannot write to standard output: {why}");
            std::process::exit(2);
        }
        if message.starts_with("failed printing to stderr") {
            std::process::exit(2);
        }
        report(info);
    }));
}

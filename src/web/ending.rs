//! How a served game ended, as the `state` frame and the database say it.

use super::protocol::Outcome;
use super::table::Table;
use crate::game::Player as Seat;

/// The outcome of a game that `winner` won (`None`: a draw) for `reason` (`checkmate`,
/// `time`, `resignation`, …): the score with Red's first, and a sentence.
pub fn outcome(table: &dyn Table, winner: Option<Seat>, reason: &str) -> Outcome {
    let result = match winner {
        Some(seat) if seat == table.red_seat() => "1-0",
        Some(_) => "0-1",
        None => "1/2-1/2",
    };
    let text = sentence(winner.map(|seat| table.seat_name(seat)), reason);
    Outcome { over: true, result: Some(result.to_string()), reason: Some(reason.to_string()), text: Some(text) }
}

/// The outcome of a game called off before both sides had moved: over, with no result
/// (`*`, as PGN writes an unfinished game's).
pub fn aborted() -> Outcome {
    Outcome {
        over: true,
        result: Some("*".to_string()),
        reason: Some("aborted".to_string()),
        text: Some("Game aborted".to_string()),
    }
}

/// `Red wins by checkmate`, or `Draw by agreement` when there is no `winner`.
pub fn sentence(winner: Option<String>, reason: &str) -> String {
    match winner {
        Some(name) => format!("{name} wins by {}", phrase(reason)),
        None => format!("Draw by {}", phrase(reason)),
    }
}

/// A reason in words.
fn phrase(reason: &str) -> &str {
    match reason {
        "perpetual-check" => "perpetual check",
        "perpetual-chase" => "perpetual chase",
        "no-capture" => "the no-capture rule",
        "no-pieces" => "taking every piece",
        "engine-failure" => "engine failure",
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::web::table::new_table;

    #[test]
    fn sentences_name_the_winner_and_the_reason() {
        let table = new_table("xiangqi", None).unwrap();
        assert_eq!(outcome(&*table, Some(Seat::First), "checkmate").text.unwrap(), "Red wins by checkmate");
        let draw = outcome(&*table, None, "agreement");
        assert_eq!(
            (draw.result.unwrap(), draw.text.unwrap()),
            ("1/2-1/2".to_string(), "Draw by agreement".to_string())
        );
        assert_eq!(outcome(&*table, Some(Seat::Second), "time").result.unwrap(), "0-1");
    }
}

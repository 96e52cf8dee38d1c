//! The end of the game by repetition: hand-built cycles under each rule, the examples
//! of the Asian rules in Fairy-Stockfish's own test suite, and every cycle of
//! `tests/data/xiangqi-repetition-public.jsonl` (rulings by Fairy-Stockfish).

mod common;

use serde::Deserialize;
use xiangqi_zero::game::xiangqi::{Move, RepetitionRule, Rules, Xiangqi};
use xiangqi_zero::game::{EndReason, Game, Player, RepetitionWarning, Status};

/// Plays `moves` from `fen` under `rule`, stopping when the game ends; returns the
/// status and the number of plies played.
fn play(fen: &str, moves: &[String], rule: RepetitionRule) -> (Status, usize) {
    let mut game = Xiangqi::from_fen(fen, Rules { repetition: rule, ..Rules::default() }).unwrap();
    for text in moves {
        if game.status().is_over() {
            break;
        }
        let mv = game.parse_move(text).unwrap_or_else(|e| panic!("{e}"));
        game.play(mv);
    }
    (game.status(), game.plies_played())
}

/// `prefix`, then `cycle` `times` times, as owned strings.
fn cycled(prefix: &[&str], cycle: &[&str], times: usize) -> Vec<String> {
    let mut moves: Vec<String> = prefix.iter().map(|m| m.to_string()).collect();
    for _ in 0..times {
        moves.extend(cycle.iter().map(|m| m.to_string()));
    }
    moves
}

fn win(player: Player, reason: EndReason) -> Status {
    Status::Over { winner: Some(player), reason }
}

const DRAW: Status = Status::Over { winner: None, reason: EndReason::Repetition };
const RED: Player = Player::First;
const BLACK: Player = Player::Second;

// Worked out by hand: the red chariot checks from a8-a9 along rank 9 and back from a9-a8
// along rank 8 while the black general steps d9-d8-d9 out of each check. Red checks with
// every move, Black never.
const RED_CHECKS: &str = "3k5/R8/9/9/9/9/9/9/9/5K3 w - - 0 1";
const RED_CHECKS_CYCLE: [&str; 4] = ["a8a9", "d9d8", "a9a8", "d8d9"];

#[test]
fn one_sided_perpetual_check_loses_under_asian_rules() {
    let moves = cycled(&[], &RED_CHECKS_CYCLE, 3);
    assert_eq!(play(RED_CHECKS, &moves, RepetitionRule::Asian), (win(BLACK, EndReason::PerpetualCheck), 8));
}

#[test]
fn repeater_loses_and_draw_rules() {
    let moves = cycled(&[], &RED_CHECKS_CYCLE, 3);
    // Black's d8d9 at ply 8 makes the third occurrence of the start position.
    assert_eq!(play(RED_CHECKS, &moves, RepetitionRule::RepeaterLoses), (win(RED, EndReason::Repetition), 8));
    assert_eq!(play(RED_CHECKS, &moves, RepetitionRule::Draw), (DRAW, 8));
}

#[test]
fn two_occurrences_do_not_end_the_game() {
    let moves = cycled(&[], &RED_CHECKS_CYCLE, 1);
    assert_eq!(play(RED_CHECKS, &moves, RepetitionRule::Asian), (Status::Ongoing, 4));
}

#[test]
fn both_sides_checking_is_a_draw() {
    // By hand (red cannon e3, general e1, chariot f0; black cannon e8, general f7,
    // chariot f6): e3-f3 checks f7 over the screen f6; f6-e6 leaves the f-file and
    // screens the black cannon against e1; f3-e3 opens the f-file to the red chariot on
    // f0; e6-f6 blocks it and leaves the red cannon e3 as the only screen on the e-file.
    // Every move of both sides gives check (asserted), so the repetition is a draw.
    let fen = "9/4c4/5k3/5r3/9/9/4C4/9/4K4/5R3 w - - 0 1";
    let cycle = ["e3f3", "f6e6", "f3e3", "e6f6"];
    let mut game = Xiangqi::from_text(fen).unwrap();
    for mv in cycle {
        game.play(game.parse_move(mv).unwrap());
        assert!(game.in_check(), "{mv} gives check");
    }
    assert_eq!(play(fen, &cycled(&[], &cycle, 2), RepetitionRule::Asian), (DRAW, 8));
}

#[test]
fn idle_shuffling_is_a_draw_under_asian_rules() {
    // By hand: the generals step forward and back on files that never meet; nothing is
    // attacked, nobody checks.
    let fen = "3k5/9/9/9/9/9/9/9/9/5K3 w - - 0 1";
    let moves = cycled(&[], &["f0f1", "d9d8", "f1f0", "d8d9"], 3);
    assert_eq!(play(fen, &moves, RepetitionRule::Asian), (DRAW, 8));
    assert_eq!(play(fen, &moves, RepetitionRule::RepeaterLoses), (win(RED, EndReason::Repetition), 8));
}

#[test]
fn rook_chasing_an_unprotected_horse_loses() {
    // By hand: the black horse shuttles a9-c8-a9 and the red chariot follows it, a1-c1
    // attacking c8 up the c-file, c1-a1 attacking a9 up the a-file. Nothing can retake
    // on a9 or c8, so every chariot move threatens to win the horse: Red chases.
    let fen = "n3k4/9/9/9/9/9/9/9/R8/5K3 b - - 0 1";
    let moves = cycled(&[], &["a9c8", "a1c1", "c8a9", "c1a1"], 3);
    assert_eq!(play(fen, &moves, RepetitionRule::Asian), (win(BLACK, EndReason::PerpetualChase), 8));
    assert_eq!(play(fen, &moves, RepetitionRule::Draw), (DRAW, 8));
    assert_eq!(play(fen, &moves, RepetitionRule::RepeaterLoses), (win(BLACK, EndReason::Repetition), 8));
}

#[test]
fn rook_attacking_a_protected_horse_is_no_chase() {
    // As above with a black chariot on c9, which guards both c8 (down the file) and a9
    // (along rank 9): the red chariot's attacks threaten nothing, so a draw.
    let fen = "n1r1k4/9/9/9/9/9/9/9/R8/5K3 b - - 0 1";
    let moves = cycled(&[], &["a9c8", "a1c1", "c8a9", "c1a1"], 3);
    assert_eq!(play(fen, &moves, RepetitionRule::Asian), (DRAW, 8));
}

/// A repetition example of the Asian rules from Fairy-Stockfish's test suite
/// (`test.py`, `test_is_optional_game_end`; moves there number ranks 1–10): the result
/// for the side to move after all the moves.
struct Example {
    name: &'static str,
    fen: &'static str,
    prefix: &'static [&'static str],
    cycle: &'static [&'static str],
    times: usize,
    /// 1 = the side to move after the moves wins, −1 loses, 0 draw.
    result: i32,
}

const EXAMPLES: &[Example] = &[
    Example {
        name: "direct chase by cannon",
        fen: "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1",
        prefix: &["c3a3"],
        cycle: &["a8b8", "a3b3", "b8a8", "b3a3"],
        times: 2,
        result: 1,
    },
    Example {
        name: "discovered chase by cannon",
        fen: "2bakabr1/9/9/r1p1p1p2/p7R/P8/9/9/9/CC1AKA3 w - - 0 1",
        prefix: &["a5a6"],
        cycle: &["a7b7", "a6b6", "b7a7", "b6a6"],
        times: 2,
        result: 1,
    },
    Example {
        name: "chase by soldier",
        fen: "2bakabr1/9/9/r1p1p1p2/p7R/P8/9/9/9/1C1AKA3 w - - 0 1",
        prefix: &["a5a6"],
        cycle: &["a7b7", "a6b6", "b7a7", "b6a6"],
        times: 2,
        result: 0,
    },
    Example {
        name: "discovered and anti-discovered chase",
        fen: "5k3/9/9/5C3/5c3/5C3/9/9/5p3/4K4 w - - 0 1",
        prefix: &[],
        cycle: &["f5d5", "f6d6", "d5f5", "d6f6"],
        times: 2,
        result: -1,
    },
    Example {
        name: "mutual chase",
        fen: "4k4/7n1/9/4pR3/9/9/4P4/9/9/4K4 w - - 0 1",
        prefix: &["f7h7"],
        cycle: &["h9f8", "h7h8", "f8g6", "h8g8", "g6i7", "g8g7", "i7h9", "g7h7"],
        times: 2,
        result: 0,
    },
    Example {
        name: "perpetual against intermittent check",
        fen: "9/3kc4/3a5/3P5/9/4p4/9/4K4/9/3C5 w - - 0 1",
        prefix: &[],
        cycle: &["d7e7", "e5d5", "e7d7", "d5e5"],
        times: 2,
        result: 1,
    },
    Example {
        name: "perpetual check by soldier",
        fen: "3k5/9/9/9/9/5p3/9/5p3/5K3/5C3 w - - 0 1",
        prefix: &[],
        cycle: &["f2e2", "f3e3", "e2f2", "e3f3"],
        times: 2,
        result: 1,
    },
    Example {
        name: "perpetual check by cannon",
        fen: "3k5/4P4/4b4/3C5/4c4/9/9/9/9/5K3 w - - 0 1",
        prefix: &[],
        cycle: &["d7e7", "e8g6", "e7d7", "g6e8"],
        times: 2,
        result: 1,
    },
    Example {
        name: "perpetual check by chariot behind cannon",
        fen: "3k5/9/9/9/9/9/9/9/cr1CAK3/9 w - - 0 1",
        prefix: &[],
        cycle: &["d2d4", "b2b4", "d4d2", "b4b2"],
        times: 2,
        result: 1,
    },
    Example {
        name: "perpetual check by horse",
        fen: "4k4/9/4b4/2c2nR2/9/9/9/9/9/3K5 w - - 0 1",
        prefix: &[],
        cycle: &["g7g6", "f7g9", "g6g7", "g9f7"],
        times: 2,
        result: 1,
    },
    Example {
        name: "perpetual check by two horses",
        fen: "3P5/3k5/3nn4/9/9/9/9/9/9/5K3 w - - 0 1",
        prefix: &[],
        cycle: &["d10e10", "d9e9", "e10d10", "e9d9"],
        times: 2,
        result: 1,
    },
    Example {
        name: "perpetual check through the general's file",
        fen: "4ck3/9/9/9/9/2r1R4/9/9/4A4/3AK4 w - - 0 1",
        prefix: &[],
        cycle: &["e5e4", "c5c4", "e4e5", "c4c5"],
        times: 2,
        result: 1,
    },
    Example {
        name: "perpetual check by cannons",
        fen: "4k4/9/9/c1c6/9/r8/9/9/C8/3K5 w - - 0 1",
        prefix: &[],
        cycle: &["a2c2", "a5c5", "c2a2", "c5a5"],
        times: 2,
        result: 1,
    },
    Example {
        name: "mutual perpetual check",
        fen: "9/4c4/3k5/3r5/9/9/4C4/9/4K4/3R5 w - - 0 1",
        prefix: &[],
        cycle: &["e4d4", "d7e7", "d4e4", "e7d7"],
        times: 2,
        result: 0,
    },
    Example {
        name: "mutual perpetual check by soldier and cannon",
        fen: "3k5/6c2/9/7P1/6c2/6P2/9/9/9/5K3 w - - 0 1",
        prefix: &[],
        cycle: &["h7g7", "g6h6", "g7h7", "h6g6"],
        times: 2,
        result: 0,
    },
    Example {
        name: "mutual perpetual check with horses",
        fen: "4ck3/9/9/9/9/2r1R1N2/6N2/9/4A4/3AK4 w - - 0 1",
        prefix: &[],
        cycle: &["e5e4", "c5c4", "e4e5", "c4c5"],
        times: 2,
        result: 0,
    },
    Example {
        name: "mutual perpetual check by cannons",
        fen: "5k3/9/9/c8/9/P1P6/9/2C6/9/3K5 w - - 0 1",
        prefix: &[],
        cycle: &["c3a3", "a7c7", "a3c3", "c7a7"],
        times: 2,
        result: 0,
    },
    Example {
        name: "mutual perpetual check, long cycle",
        fen: "4k4/9/r1r6/9/PPPP5/9/9/9/1C7/5K3 w - - 0 1",
        prefix: &["b2a2"],
        cycle: &["a8b8", "a2c2", "c8d8", "c2b2", "b8a8", "b2d2", "d8c8", "d2a2"],
        times: 2,
        result: 0,
    },
    Example {
        name: "D106: the chariot's attack does not change",
        fen: "3k2b2/4P4/4b4/9/8p/6Bc1/6P1P/3AB4/4pp3/1p1K3R1 w - - 0 1",
        prefix: &[],
        cycle: &["h1h2", "h5h4", "h2h1", "h4h5"],
        times: 2,
        result: 0,
    },
    // D39, which Fairy-Stockfish's suite itself calls controversial: the black chariot
    // on f8 is pinned by the red horse g8 (it is the horse's leg against e9) but may
    // take that horse. Fairy-Stockfish: only Red chases (Red loses). Ours: Black's
    // advisor f9-e8 also cuts the red chariot's guard of g8 along rank 8, so each Black
    // move newly threatens to win the horse; both sides chase, a draw.
    Example {
        name: "D39: chased chariot pinned by horse",
        fen: "2baka1r1/C4rN2/9/1Rp1p4/9/9/4P4/9/4A4/4KA3 w - - 0 1",
        prefix: &["b7b9"],
        cycle: &["f10e9", "b9b10", "e9f10", "b10b9"],
        times: 2,
        result: 0,
    },
    // D39 again: Fairy-Stockfish has only Black chasing (the red chariot d1 is pinned as
    // the black horse's leg). Ours: Red's advisor e1-f0 removes the black cannon's screen,
    // so the horse on c1 loses its only guard and the red chariot (free to take the
    // horse that pins it) newly threatens it with every Red move; both chase, a draw.
    Example {
        name: "D39: pinned chariot",
        fen: "5k3/9/9/9/9/9/7r1/9/2nRA3c/4K4 w - - 0 1",
        prefix: &[],
        cycle: &["e2f1", "h4h2", "f1e2", "h2h4"],
        times: 2,
        result: 0,
    },
    Example {
        name: "creating pins to undermine the root",
        fen: "4k4/4c4/9/4p4/9/9/3rn4/3NR4/4K4/9 b - - 0 1",
        prefix: &[],
        cycle: &["e4g5", "e2f2", "g5e4", "f2e2"],
        times: 2,
        result: -1,
    },
    Example {
        name: "discovered check capture threat by chariot",
        fen: "5k3/9/9/9/9/1N2P1C2/9/4BC3/9/cr1RK4 w - - 0 1",
        prefix: &[],
        cycle: &["b5c3", "b1c1", "c3b5", "c1b1"],
        times: 2,
        result: 1,
    },
    Example {
        name: "pin undermining the root, discovered check by horse",
        fen: "5k3/9/9/9/9/4c4/3n5/3NBA3/4A4/4K4 w - - 0 1",
        prefix: &[],
        cycle: &["e1d1", "e5d5", "d1e1", "d5e5"],
        times: 2,
        result: 1,
    },
    Example {
        name: "pin undermining the root, discovered check by chariot",
        fen: "5k3/9/9/9/9/4c4/3r5/3NB4/4A4/4K4 w - - 0 1",
        prefix: &[],
        cycle: &["e1d1", "e5d5", "d1e1", "d5e5"],
        times: 2,
        result: 1,
    },
    Example {
        name: "x-ray protected discovered check",
        fen: "5k3/9/9/9/9/9/9/9/9/3NK1cr1 w - - 0 1",
        prefix: &[],
        cycle: &["d1c3", "h1h3", "c3d1", "h3h1"],
        times: 2,
        result: 1,
    },
    Example {
        name: "no overprotection by the general",
        fen: "3k5/9/9/3n5/9/9/3r5/9/9/3NK4 w - - 0 1",
        prefix: &[],
        cycle: &["d1c3", "d4c4", "c3d1", "c4d4"],
        times: 2,
        result: 0,
    },
    Example {
        name: "overprotection by the general",
        fen: "3k5/9/9/9/9/9/3r5/9/9/3NK4 w - - 0 1",
        prefix: &[],
        cycle: &["d1c3", "d4c4", "c3d1", "c4d4"],
        times: 2,
        result: 1,
    },
    Example {
        name: "fake protection by cannon",
        fen: "5k3/9/9/9/9/1C7/1r7/9/1C7/4K4 w - - 0 1",
        prefix: &[],
        cycle: &["b5c5", "b4c4", "c5b5", "c4b4"],
        times: 2,
        result: 1,
    },
    Example {
        name: "fake protection by cannon and mutual chase",
        fen: "4ka3/c2R1R2c/4b4/9/9/9/9/9/9/4K4 w - - 0 1",
        prefix: &[],
        cycle: &["f9f7", "f10e9", "f7f9", "e9f10"],
        times: 2,
        result: 0,
    },
];

/// Moves numbered 1–10 by rank, rewritten in our 0–9 convention.
fn from_ranks_one(moves: &[&str]) -> Vec<String> {
    moves.iter().map(|m| Move::parse(m, true).unwrap_or_else(|| panic!("bad move {m}")).to_string()).collect()
}

#[test]
fn asian_rule_examples() {
    let mut failures = Vec::new();
    for example in EXAMPLES {
        let mut moves = from_ranks_one(example.prefix);
        for _ in 0..example.times {
            moves.extend(from_ranks_one(example.cycle));
        }
        let (status, _) = play(example.fen, &moves, RepetitionRule::Asian);
        let game = Xiangqi::from_text(example.fen).unwrap();
        let to_move_after = if moves.len().is_multiple_of(2) { game.to_move() } else { game.to_move().opponent() };
        let expected = match example.result {
            1 => Some(to_move_after),
            -1 => Some(to_move_after.opponent()),
            _ => None,
        };
        match status {
            Status::Over { winner, .. } if winner == expected => {}
            other => failures.push(format!("{}: expected winner {expected:?}, got {other:?}", example.name)),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[derive(Deserialize)]
struct Cycle {
    fen: String,
    moves: Vec<String>,
    checks: Vec<bool>,
    end_ply: usize,
    result: String,
    kind: String,
}

/// Cycles where Fairy-Stockfish rules a perpetual chase and we rule a draw. In each, a
/// piece steps onto a square the enemy chariot already attacks, and the chariot then
/// retreats along the same line, still attacking it. Fairy-Stockfish counts the retreat
/// as a chase (its "new attacks" test drops only the line the chariot moved along and
/// then finds the same attack again as a "discovered" one). The retreat creates no
/// threat that was not there before the move, so by the rule — a chase is a move that
/// creates the threat — it is not a chase, and the side is not chasing on every move.
const RETREAT_ALONG_THE_LINE: [&str; 5] = [
    "2baka3/9/8b/6R2/2p6/P3P4/9/9/5K3/9 w - - 0 23",
    "1rbaka3/9/4b4/p8/2p6/9/P1P3r2/9/4K4/1NBA1A3 w - - 0 13",
    "4ka3/4ac3/b1C6/n5n2/P3P1b1p/9/2ppP4/2N1K4/7N1/R1BA4r b - - 23 52",
    "1rbakabn1/9/7R1/p1p1p1p1p/9/9/PcP1P1P1P/4B4/9/RN1AKAB2 w - - 1 6",
    "3a1k1n1/8r/4bac1b/p7p/2p1p1p2/P4cB2/C1P1P1P2/1r3AN2/3R4R/1NB1KA3 b - - 1 25",
];

#[test]
fn reference_cycles() {
    let cycles: Vec<Cycle> = common::read_jsonl("xiangqi-repetition-public.jsonl");
    let mut failures = Vec::new();
    for cycle in &cycles {
        let mut game = Xiangqi::from_text(&cycle.fen).unwrap();
        let first = game.to_move();
        for (mv, &check) in cycle.moves.iter().zip(&cycle.checks) {
            assert!(!game.status().is_over(), "{}: ended early", cycle.fen);
            game.play(game.parse_move(mv).unwrap());
            assert_eq!(game.in_check(), check, "{}: check after {mv}", cycle.fen);
        }
        let result = if RETREAT_ALONG_THE_LINE.contains(&cycle.fen.as_str()) { "draw" } else { cycle.result.as_str() };
        let expected = match result {
            "win" => Some(first),
            "loss" => Some(first.opponent()),
            _ => None,
        };
        let got = match game.status() {
            Status::Over { winner, .. } => winner,
            Status::Ongoing => panic!("{}: not over after {} plies", cycle.fen, cycle.moves.len()),
        };
        assert_eq!(game.plies_played(), cycle.end_ply);
        if got != expected {
            failures
                .push(format!("{} {:?} [{}]: expected {expected:?} got {got:?}", cycle.fen, cycle.moves, cycle.kind));
        }
    }
    assert!(failures.is_empty(), "{} of {}:\n{}", failures.len(), cycles.len(), failures.join("\n"));
}

/// The warning before a move that lets a repetition end the game against its player, on
/// every cycle of the public file, ruled by our own rules (Asian): the last move of a
/// drawn cycle warns of the draw; where the last mover loses, its move warns; where the
/// last mover wins by the other side's perpetual check or chase, that side is warned one
/// move earlier, that the reply can end it; no move before those warns at all.
#[test]
fn a_move_that_lets_a_repetition_end_the_game_against_its_player_is_warned() {
    let cycles: Vec<Cycle> = common::read_jsonl("xiangqi-repetition-public.jsonl");
    let mut warned = [0; 3];
    for cycle in &cycles {
        let (end, plies) = play(&cycle.fen, &cycle.moves, RepetitionRule::Asian);
        let Status::Over { winner, reason } = end else { panic!("{}: not over", cycle.fen) };
        let mut game = Xiangqi::from_text(&cycle.fen).unwrap();
        for (index, text) in cycle.moves[..plies].iter().enumerate() {
            let mv = game.parse_move(text).unwrap();
            let warning = RepetitionWarning::before(&game, mv);
            let mover = game.to_move();
            let expected = if index + 1 == plies && winner != Some(mover) {
                warned[usize::from(winner.is_some())] += 1;
                Some(RepetitionWarning { reason, loses: winner.is_some(), by_reply: false })
            } else if index + 2 == plies && winner == Some(mover.opponent()) && reason != EndReason::Repetition {
                warned[2] += 1;
                Some(RepetitionWarning { reason, loses: true, by_reply: true })
            } else {
                None
            };
            assert_eq!(warning, expected, "{}: move {} `{text}`", cycle.fen, index + 1);
            game.play(mv);
        }
    }
    // Draws, losses by one's own move, losses by the reply: each kind is in the file.
    assert!(warned.iter().all(|&n| n > 0), "warnings of each kind: {warned:?}");
}

/// The warnings' words, worked out by hand.
#[test]
fn repetition_warnings_say_what_the_move_means() {
    let check = RepetitionWarning { reason: EndReason::PerpetualCheck, loses: true, by_reply: true };
    assert_eq!(
        check.text(),
        "after this move your opponent can repeat the position for the third time: a perpetual check by you, which loses"
    );
    let draw = RepetitionWarning { reason: EndReason::Repetition, loses: false, by_reply: false };
    assert_eq!(draw.text(), "this move repeats the position for the third time: the game is drawn");
}

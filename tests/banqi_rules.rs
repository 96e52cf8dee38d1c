//! Banqi rules on hand-worked positions: every capture rule, the first flip, the hidden
//! pool's outcome distribution, the end conditions and the chain-capture variant.

use rand::rngs::StdRng;
use rand::SeedableRng;
use xiangqi_zero::game::banqi::{Banqi, Color, Kind, Piece, Pool, Rules, Square};
use xiangqi_zero::game::{EndReason, Game, Player, Status};

/// State text with `pieces` (square, letter; `X` for face-down) on an otherwise empty
/// board, `side` to move, `pool` hidden, and the counters.
fn state(pieces: &[(&str, char)], side: char, pool: &str, since: u32, plies: u32) -> String {
    let mut rows = Vec::new();
    for rank in (1..=8).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for file in ['a', 'b', 'c', 'd'] {
            match pieces.iter().find(|(sq, _)| *sq == format!("{file}{rank}")) {
                Some(&(_, letter)) => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    row.push(letter);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    format!("{} {side} {pool} {since} {plies}", rows.join("/"))
}

/// A game with `pieces` and nothing hidden, `side` to move (the `First` player).
fn game(pieces: &[(&str, char)], side: char) -> Banqi {
    let text = state(pieces, side, "-", 0, 10);
    Banqi::from_text(&text).unwrap_or_else(|e| panic!("{e}"))
}

fn legal(game: &Banqi, mv: &str) -> bool {
    game.parse_move(mv).is_ok()
}

fn moves(game: &Banqi) -> Vec<String> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut texts: Vec<String> = moves.iter().map(ToString::to_string).collect();
    texts.sort();
    texts
}

fn over(winner: Option<Player>, reason: EndReason) -> Status {
    Status::Over { winner, reason }
}

#[test]
fn general_cannot_take_soldier_but_soldier_takes_general() {
    let pieces = [("b2", 'K'), ("b3", 'p'), ("d8", 'r'), ("a8", 'P')];
    let red = game(&pieces, 'r');
    assert!(!legal(&red, "b2b3"), "the General cannot take a Soldier");
    assert_eq!(moves(&red), ["a8a7", "a8b8", "b2a2", "b2b1", "b2c2"]);
    let black = game(&pieces, 'b');
    assert!(legal(&black, "b3b2"), "a Soldier takes the General");
    let mut after = black.clone();
    after.play(black.parse_move("b3b2").unwrap());
    assert_eq!(after.board().piece_at(Square::parse("b2").unwrap()), Some(Piece::new(Color::Black, Kind::Soldier)));
}

#[test]
fn equal_ranks_capture_each_other() {
    for letter in ['K', 'G', 'M', 'R', 'N', 'P'] {
        let lower = letter.to_ascii_lowercase();
        let pieces = [("c4", letter), ("c5", lower)];
        assert!(legal(&game(&pieces, 'r'), "c4c5"), "{letter} takes {lower}");
        assert!(legal(&game(&pieces, 'b'), "c5c4"), "{lower} takes {letter}");
    }
    // Two Cannons side by side cannot take each other: no screen.
    let cannons = game(&[("c4", 'C'), ("c5", 'c')], 'r');
    assert!(!legal(&cannons, "c4c5"));
}

#[test]
fn horse_takes_horse_and_lower_but_not_higher() {
    let pieces = [("b4", 'N'), ("b5", 'n'), ("a4", 'c'), ("c4", 'p'), ("b3", 'r')];
    let red = game(&pieces, 'r');
    assert_eq!(moves(&red), ["b4a4", "b4b5", "b4c4"], "Horse takes Horse, Cannon, Soldier; not Chariot");
}

#[test]
fn soldier_cannot_take_cannon_nor_anything_above_but_the_general() {
    let pieces = [("b4", 'P'), ("b5", 'c'), ("a4", 'n'), ("c4", 'g'), ("b3", 'p'), ("d8", 'k')];
    let red = game(&pieces, 'r');
    assert_eq!(moves(&red), ["b4b3"], "only the Soldier is capturable");
    let with_general = game(&[("b4", 'P'), ("b5", 'k')], 'r');
    assert_eq!(moves(&with_general), ["b4a4", "b4b3", "b4b5", "b4c4"]);
}

#[test]
fn the_full_capture_table_by_stepping() {
    // Rows: attacker G A E R H C S; columns: victim G A E R H C S.
    let expected = [
        "111111.", // General: all but the Soldier
        ".111111", // Advisor
        "..11111", // Elephant
        "...1111", // Chariot
        "....111", // Horse
        ".......", // Cannon: never by stepping
        "1.....1", // Soldier: the General and Soldiers
    ];
    for (a, row) in Kind::ALL.iter().zip(expected) {
        for (v, cell) in Kind::ALL.iter().zip(row.chars()) {
            let attacker = Piece::new(Color::Red, *a).letter();
            let victim = Piece::new(Color::Black, *v).letter();
            let position = game(&[("b4", attacker), ("b5", victim)], 'r');
            assert_eq!(legal(&position, "b4b5"), cell == '1', "{attacker} takes {victim}?");
            assert_eq!(a.captures_adjacent(*v), cell == '1');
        }
    }
}

#[test]
fn cannon_jumps_one_face_down_screen_onto_any_rank() {
    let text = state(&[("a1", 'C'), ("a2", 'X'), ("a5", 'k'), ("d8", 'p')], 'r', "P", 0, 10);
    let red = Banqi::from_text(&text).unwrap();
    assert!(legal(&red, "a1a5"), "over a face-down screen, at a distance, onto the General");
    assert_eq!(moves(&red), ["a1a5", "a1b1", "a2a2"]);
    let mut after = red.clone();
    after.play(red.parse_move("a1a5").unwrap());
    assert_eq!(after.board().piece_at(Square::parse("a5").unwrap()), Some(Piece::new(Color::Red, Kind::Cannon)));
}

#[test]
fn cannon_screens_of_either_colour_along_files_and_ranks() {
    // Along rank 3: own screen. Along file b: enemy screen.
    let pieces = [("a3", 'P'), ("b3", 'C'), ("d3", 'm'), ("b4", 'p'), ("b7", 'r')];
    let red = game(&pieces, 'r');
    assert!(legal(&red, "b3b7"), "over an enemy screen");
    let pieces = [("a3", 'g'), ("b3", 'C'), ("c3", 'P'), ("d3", 'm')];
    assert!(legal(&game(&pieces, 'r'), "b3d3"), "over its own piece");
}

#[test]
fn cannon_cannot_capture_adjacent_without_screen_or_over_two() {
    let adjacent = game(&[("a1", 'C'), ("a2", 'r')], 'r');
    assert!(!legal(&adjacent, "a1a2"));
    assert_eq!(moves(&adjacent), ["a1b1"]);
    let no_screen = game(&[("a1", 'C'), ("a4", 'r')], 'r');
    assert!(!legal(&no_screen, "a1a4"));
    let two_screens = game(&[("a1", 'C'), ("a2", 'p'), ("a3", 'P'), ("a4", 'r')], 'r');
    assert!(!legal(&two_screens, "a1a4"), "not over two screens");
    assert!(!legal(&two_screens, "a1a3"), "not onto its own piece");
    let one_screen = game(&[("a1", 'C'), ("a2", 'P'), ("a3", 'p'), ("a4", 'r')], 'r');
    assert_eq!(moves(&one_screen), ["a1a3", "a1b1", "a2a3", "a2b2"], "the first piece beyond the screen only");
    let own = game(&[("a1", 'C'), ("a2", 'p'), ("a3", 'R'), ("d8", 'r')], 'r');
    assert!(!legal(&own, "a1a3"), "not onto its own piece");
}

#[test]
fn nothing_captures_a_face_down_piece() {
    let text = state(&[("b2", 'K'), ("b3", 'X'), ("b1", 'X'), ("b5", 'C'), ("d8", 'p')], 'r', "rk", 0, 10);
    let red = Banqi::from_text(&text).unwrap();
    assert!(!legal(&red, "b2b3"), "the General cannot take a face-down piece");
    assert!(!legal(&red, "b5b1"), "the Cannon cannot jump onto a face-down piece");
    assert_eq!(moves(&red), ["b1b1", "b2a2", "b2c2", "b3b3", "b5a5", "b5b4", "b5b6", "b5c5"]);
}

#[test]
fn first_flip_assigns_colours() {
    let mut start = Banqi::start();
    assert_eq!(start.color_of(Player::First), None);
    assert_eq!(start.to_move(), Player::First);
    start.play(start.parse_move("c3c3").unwrap());
    assert!(start.is_chance());
    assert_eq!(start.to_move(), Player::First);
    let mut black = start.clone();
    black.apply_outcome(Piece::new(Color::Black, Kind::Horse));
    assert_eq!(black.color_of(Player::First), Some(Color::Black));
    assert_eq!(black.color_of(Player::Second), Some(Color::Red));
    assert_eq!(black.to_move(), Player::Second);
    assert_eq!(black.to_text(), "XXXX/XXXX/XXXX/XXXX/XXXX/XXnX/XXXX/XXXX r KGGMMRRNNCCPPPPPkggmmrrnccppppp 0 1");
    let mut red = start;
    red.apply_outcome(Piece::new(Color::Red, Kind::Soldier));
    assert_eq!(red.color_of(Player::First), Some(Color::Red));
    assert_eq!(red.to_text(), "XXXX/XXXX/XXXX/XXXX/XXXX/XXPX/XXXX/XXXX b KGGMMRRNNCCPPPPkggmmrrnnccppppp 0 1");
    // The text says who is who: `b` to move after one ply means First is Red.
    let read = Banqi::from_text(&red.to_text()).unwrap();
    assert_eq!(read.color_of(Player::First), Some(Color::Red));
    assert_eq!(read.to_move(), Player::Second);
}

#[test]
fn outcome_probabilities_are_pool_counts_over_total() {
    let texts = [
        "startpos",
        "XXXX/XXXP/XGXg/XXXX/mXXX/XXKX/XXXX/XXXX b GMMRRNNCCPPPPkgmrrnnccppppp 0 5",
        "XG1M/N1NK/M2m/Pr1m/C3/cp1P/rp2/kg1c r G 7 73",
    ];
    for text in texts {
        let mut game = Banqi::from_text(text).unwrap();
        let pool = game.pool();
        let flip = (0..32).map(|i| Square::from_index(i).unwrap()).find(|sq| game.board().hidden().any(|h| h == *sq));
        game.play(xiangqi_zero::game::banqi::Move::flip(flip.unwrap()));
        let mut outcomes = Vec::new();
        game.chance_outcomes(&mut outcomes);
        assert_eq!(outcomes.len() as u32, pool.kinds());
        let sum: f32 = outcomes.iter().map(|(_, p)| p).sum();
        assert!((sum - 1.0).abs() < 1e-6, "{text}: {sum}");
        for (piece, p) in outcomes {
            let exact = pool.count(piece) as f64 / pool.total() as f64;
            assert!((p as f64 - exact).abs() < 1e-7);
            assert_eq!(pool.probability(piece), exact);
        }
    }
    let full = Pool::FULL;
    assert_eq!(full.total(), 32);
    assert_eq!(full.probability(Piece::new(Color::Red, Kind::Soldier)), 5.0 / 32.0);
    assert_eq!(full.probability(Piece::new(Color::Black, Kind::General)), 1.0 / 32.0);
}

#[test]
fn seeded_sampling_is_reproducible_and_follows_the_counts() {
    let pool = Pool::FULL;
    let draw = |seed| {
        let mut rng = StdRng::seed_from_u64(seed);
        (0..64_000).map(|_| pool.sample(&mut rng).unwrap()).collect::<Vec<_>>()
    };
    let (a, b) = (draw(7), draw(7));
    assert_eq!(a, b);
    for piece in Piece::ALL {
        let seen = a.iter().filter(|&&p| p == piece).count() as f64;
        let expected = 64_000.0 * pool.probability(piece);
        assert!((seen - expected).abs() < 5.0 * expected.sqrt() + 1.0, "{piece:?}: {seen} vs {expected}");
    }
    assert_eq!(Pool::EMPTY.sample(&mut StdRng::seed_from_u64(1)), None);
    // Through the game: nothing to draw at a decision point.
    let mut game = Banqi::start();
    let mut rng = StdRng::seed_from_u64(3);
    assert_eq!(game.resolve_chance(&mut rng), None);
    game.play(game.parse_move("a1a1").unwrap());
    let piece = game.resolve_chance(&mut rng).unwrap();
    assert_eq!(game.board().piece_at(Square::parse("a1").unwrap()), Some(piece));
    assert!(!game.is_chance());
}

#[test]
fn capturing_the_last_piece_wins_at_once() {
    let mut red = game(&[("a1", 'R'), ("a2", 'p')], 'r');
    assert_eq!(red.status(), Status::Ongoing);
    red.play(red.parse_move("a1a2").unwrap());
    assert_eq!(red.status(), over(Some(Player::First), EndReason::NoPieces));
    assert_eq!(red.perft(1), 0, "no children once a side has no pieces");
    // A hidden piece of the loser's colour keeps it alive.
    let text = state(&[("a1", 'R'), ("a2", 'p'), ("d8", 'X')], 'r', "c", 0, 10);
    let mut alive = Banqi::from_text(&text).unwrap();
    alive.play(alive.parse_move("a1a2").unwrap());
    assert_eq!(alive.status(), Status::Ongoing);
    assert_eq!(moves(&alive), ["d8d8"], "it may flip");
    // A side with pieces only of the other colour face-down has lost.
    let text = state(&[("a1", 'R'), ("a2", 'p'), ("d8", 'X')], 'r', "C", 0, 10);
    let mut lost = Banqi::from_text(&text).unwrap();
    lost.play(lost.parse_move("a1a2").unwrap());
    assert_eq!(lost.status(), over(Some(Player::First), EndReason::NoPieces));
    assert_eq!(lost.perft(1), 0);
}

#[test]
fn no_legal_move_loses() {
    // Red's Soldier is boxed in by Chariots it cannot take.
    let red = game(&[("a1", 'P'), ("a2", 'r'), ("b1", 'r')], 'r');
    assert!(moves(&red).is_empty());
    assert_eq!(red.status(), over(Some(Player::Second), EndReason::Stalemate));
    // Black to move after an odd number of plies: Black is `Second`.
    let text = state(&[("a1", 'p'), ("a2", 'R'), ("b1", 'R'), ("d8", 'P')], 'b', "-", 0, 11);
    let black = Banqi::from_text(&text).unwrap();
    assert_eq!(black.to_move(), Player::Second);
    assert!(moves(&black).is_empty());
    assert_eq!(black.status(), over(Some(Player::First), EndReason::Stalemate));
}

#[test]
fn no_progress_draw_after_180_plies_and_configurable() {
    let pieces = [("a1", 'R'), ("d8", 'r')];
    let mut game = Banqi::from_text(&state(&pieces, 'r', "-", 178, 300)).unwrap();
    game.play(game.parse_move("a1a2").unwrap());
    assert_eq!(game.status(), Status::Ongoing);
    game.play(game.parse_move("d8d7").unwrap());
    assert_eq!(game.counters().since_progress, 180);
    assert_eq!(game.status(), over(None, EndReason::NoCapture));
    let short = Rules { no_progress_plies: 4, ..Rules::default() };
    let mut game = Banqi::from_state(&state(&pieces, 'r', "-", 0, 0), short).unwrap();
    for mv in ["a1a2", "d8d7", "a2a3", "d7c7"] {
        assert_eq!(game.status(), Status::Ongoing);
        game.play(game.parse_move(mv).unwrap());
    }
    assert_eq!(game.status(), over(None, EndReason::NoCapture));
    // A flip or a capture resets the count.
    let text = state(&[("a1", 'R'), ("a3", 'p'), ("d8", 'X'), ("c8", 'r')], 'r', "P", 179, 300);
    let mut flip = Banqi::from_text(&text).unwrap();
    flip.play(flip.parse_move("d8d8").unwrap());
    flip.apply_outcome(Piece::new(Color::Red, Kind::Soldier));
    assert_eq!(flip.counters().since_progress, 0);
    assert_eq!(flip.status(), Status::Ongoing);
}

#[test]
fn third_occurrence_of_a_position_draws() {
    let mut game = game(&[("a1", 'R'), ("d8", 'r')], 'r');
    let cycle = ["a1a2", "d8d7", "a2a1", "d7d8"];
    for (i, mv) in cycle.iter().chain(&cycle).enumerate() {
        assert_eq!(game.status(), Status::Ongoing, "before ply {i}");
        game.play(game.parse_move(mv).unwrap());
    }
    assert_eq!(game.status(), over(None, EndReason::Repetition));
    assert_eq!(game.plies_played(), 8);
}

#[test]
fn under_repeater_loses_the_third_occurrence_loses_for_its_maker() {
    let rules = Rules { repeater_loses: true, ..Rules::default() };
    let text = state(&[("a1", 'R'), ("d8", 'r')], 'r', "-", 0, 0);
    let mut game = Banqi::from_state(&text, rules).unwrap();
    let first = game.to_move();
    // The second player's eighth ply repeats the start a third time: the first player wins.
    for mv in ["a1a2", "d8d7", "a2a1", "d7d8", "a1a2", "d8d7", "a2a1", "d7d8"] {
        assert_eq!(game.status(), Status::Ongoing);
        game.play(game.parse_move(mv).unwrap());
    }
    assert_eq!(game.status(), over(Some(first), EndReason::Repetition));
    // Played one ply later, the first player makes the repetition and loses.
    let mut game = Banqi::from_state(&text, rules).unwrap();
    for mv in ["a1a2", "d8d7", "a2a3", "d7d8", "a3a2", "d8d7", "a2a3", "d7d8", "a3a2"] {
        assert_eq!(game.status(), Status::Ongoing);
        game.play(game.parse_move(mv).unwrap());
    }
    assert_eq!(game.status(), over(Some(first.opponent()), EndReason::Repetition));
}

#[test]
fn repetition_counts_positions_after_a_flip() {
    let text = state(&[("a1", 'R'), ("d8", 'r'), ("b5", 'X')], 'r', "p", 0, 0);
    let mut game = Banqi::from_text(&text).unwrap();
    for mv in ["a1a2", "d8d7", "a2a1", "d7d8", "b5b5"] {
        game.play(game.parse_move(mv).unwrap());
    }
    game.apply_outcome(Piece::new(Color::Black, Kind::Soldier));
    for mv in ["d8d7", "a1a2", "d7d8", "a2a1", "d8d7", "a1a2"] {
        assert_eq!(game.status(), Status::Ongoing);
        game.play(game.parse_move(mv).unwrap());
    }
    // Each position since the flip has occurred twice so far.
    assert_eq!(game.status(), Status::Ongoing);
    game.play(game.parse_move("d7d8").unwrap());
    game.play(game.parse_move("a2a1").unwrap());
    assert_eq!(game.status(), over(None, EndReason::Repetition));
}

#[test]
fn hash_covers_pool_side_and_chance() {
    let a = Banqi::from_text(&state(&[("a1", 'X'), ("a2", 'X'), ("d8", 'R')], 'r', "Pp", 0, 10)).unwrap();
    let b = Banqi::from_text(&state(&[("a1", 'X'), ("a2", 'X'), ("d8", 'R')], 'r', "PP", 0, 10)).unwrap();
    assert_ne!(a.hash(), b.hash(), "the pool counts are hashed");
    let r = game(&[("a1", 'R'), ("d8", 'r')], 'r');
    let bl = game(&[("a1", 'R'), ("d8", 'r')], 'b');
    assert_ne!(r.hash(), bl.hash(), "the side to move is hashed");
    let mut flip = Banqi::start();
    let before = flip.hash();
    flip.play(flip.parse_move("a1a1").unwrap());
    assert_ne!(flip.hash(), before, "a pending flip is hashed");
    // Transpositions hash alike.
    let mut x = game(&[("a1", 'R'), ("d8", 'r'), ("c4", 'G'), ("a6", 'g')], 'r');
    let mut y = x.clone();
    for mv in ["a1a2", "d8d7", "c4c5", "a6a5"] {
        x.play(x.parse_move(mv).unwrap());
    }
    for mv in ["c4c5", "a6a5", "a1a2", "d8d7"] {
        y.play(y.parse_move(mv).unwrap());
    }
    assert_eq!(x.hash(), y.hash());
    assert_eq!(x.hash(), Banqi::from_text(&x.to_text()).unwrap().hash());
}

#[test]
fn chain_captures_are_off_by_default() {
    let pieces = [("a1", 'R'), ("a2", 'p'), ("a3", 'p'), ("d8", 'm')];
    let mut game = game(&pieces, 'r');
    game.play(game.parse_move("a1a2").unwrap());
    assert_eq!(game.to_move(), Player::Second);
    assert_eq!(game.plies_played(), 1);
}

#[test]
fn chain_capture_variant_goes_on_or_stops() {
    let chain = Rules { chain_captures: true, ..Rules::default() };
    let text = state(&[("a1", 'R'), ("a2", 'p'), ("a3", 'p'), ("b3", 'n'), ("d8", 'm')], 'r', "-", 5, 10);
    let start = Banqi::from_state(&text, chain).unwrap();
    let mut game = start.clone();
    game.play(game.parse_move("a1a2").unwrap());
    assert_eq!(game.to_move(), Player::First, "the capturing piece goes on");
    assert_eq!(moves(&game), ["a2a2", "a2a3"], "capture again, or stop (`a2a2`)");
    assert_eq!(game.board().chain_square(), Square::parse("a2"));
    assert_eq!(game.plies_played(), 0, "the turn is not over");
    // The text of a chain in progress carries its square and reads back under the variant.
    assert_eq!(game.to_text(), "3m/4/4/4/4/pn2/R3/4 r - 0 10 a2");
    let read = Banqi::from_state(&game.to_text(), chain).unwrap();
    assert_eq!(read.hash(), game.hash());
    assert!(Banqi::from_text(&game.to_text()).is_err(), "no chain field without the variant");
    let mut stop = game.clone();
    stop.play(stop.parse_move("a2a2").unwrap());
    assert_eq!(stop.to_move(), Player::Second);
    assert_eq!(stop.plies_played(), 1);
    assert_eq!(stop.counters().since_progress, 0);
    game.play(game.parse_move("a2a3").unwrap());
    assert_eq!(game.to_move(), Player::First, "a3 can still take the Horse on b3");
    game.play(game.parse_move("a3b3").unwrap());
    assert_eq!(game.to_move(), Player::Second, "no capture left: the turn ends by itself");
    assert_eq!(game.plies_played(), 1);
    assert_eq!(game.to_text(), "3m/4/4/4/4/1R2/4/4 b - 0 11");
    // Perft counts every step of a chain; the generic perft agrees with the fast one.
    assert_eq!(start.perft(3), xiangqi_zero::game::perft::perft(&start, 3));
}

//! MCTS at Xiangqi with the material evaluator: it mates in one, it stops the
//! opponent's mate in one, its batched searches stay consistent, and it plays through
//! the `mcts:` player spec; its settled balance (`eval=settled`) counts a hanging
//! piece as taken and a defended one as safe.

mod common;

use serde::Deserialize;
use xiangqi_zero::game::xiangqi::Xiangqi;
use xiangqi_zero::game::{Game, Status};
use xiangqi_zero::mcts::{
    Budget, Evaluator, Material, MaterialEvaluator, RootSelection, Search, SearchConfig, UniformEvaluator,
};
use xiangqi_zero::players::{Playable, PlayerSpec};
use xiangqi_zero::search::{Limits, Score};

#[derive(Deserialize)]
struct Mate {
    fen: String,
    mate_in: u32,
    winning_moves: Vec<String>,
}

fn mates_in_one() -> Vec<Mate> {
    common::read_jsonl::<Mate>("xiangqi-mates-public.jsonl").into_iter().filter(|m| m.mate_in == 1).collect()
}

fn best_move(game: &Xiangqi, simulations: u32, root: RootSelection) -> String {
    best_move_with(&mut MaterialEvaluator::default(), game, simulations, root)
}

fn best_move_with(
    evaluator: &mut impl Evaluator<Xiangqi>,
    game: &Xiangqi,
    simulations: u32,
    root: RootSelection,
) -> String {
    // Gumbel considers every move: a mate by stalemate is a quiet move, which the
    // material priors do not single out among the top 16.
    let config = SearchConfig { simulations, root, gumbel_considered: 128, ..SearchConfig::default() };
    let mut search = Search::new(game.clone(), config, 1);
    search.run(evaluator, &Budget::simulations(simulations));
    search.validate().unwrap();
    search.choose_move(game.plies_played()).unwrap().to_string()
}

#[test]
fn material_search_mates_in_one() {
    let mates = mates_in_one();
    assert!(mates.len() >= 15);
    for root in [RootSelection::Puct, RootSelection::Gumbel] {
        for mate in &mates {
            let game = Xiangqi::from_text(&mate.fen).unwrap();
            let chosen = best_move(&game, 400, root);
            assert!(
                mate.winning_moves.contains(&chosen),
                "{root:?} {}: played {chosen}, mates are {:?}",
                mate.fen,
                mate.winning_moves
            );
        }
    }
}

/// Whether the side to move has a move that wins at once (checkmate or stalemate).
fn has_mate_in_one(game: &Xiangqi) -> bool {
    let mover = game.to_move();
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves.iter().any(|&mv| {
        let mut next = game.clone();
        next.play(mv);
        matches!(next.status(), Status::Over { winner: Some(w), .. } if w == mover)
    })
}

/// The positions of the mate-in-one file with the other side to move: that side must
/// stop the mate. Kept where it can (some move leaves no mate in one) and where it
/// matters (some other move allows one).
fn mate_threats() -> Vec<(Xiangqi, Vec<String>)> {
    let mut threats = Vec::new();
    for mate in mates_in_one() {
        let mut fields: Vec<&str> = mate.fen.split_whitespace().collect();
        fields[1] = if fields[1] == "w" { "b" } else { "w" };
        let Ok(game) = Xiangqi::from_text(&fields.join(" ")) else { continue };
        if game.status().is_over() {
            continue;
        }
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let safe: Vec<String> = moves
            .iter()
            .filter(|&&mv| {
                let mut next = game.clone();
                next.play(mv);
                next.status().is_over() || !has_mate_in_one(&next)
            })
            .map(|mv| mv.to_string())
            .collect();
        if !safe.is_empty() && safe.len() < moves.len() {
            threats.push((game, safe));
        }
    }
    threats
}

#[test]
fn material_search_stops_the_opponents_mate_in_one() {
    let threats = mate_threats();
    assert!(threats.len() >= 8, "{} positions", threats.len());
    for (game, safe) in &threats {
        let chosen = best_move(game, 800, RootSelection::Puct);
        assert!(safe.contains(&chosen), "{}: played {chosen}, which allows a mate; safe are {safe:?}", game.to_text());
    }
}

/// Without any knowledge of tactics (uniform priors, a value of 0 everywhere) and with
/// few simulations, the search still plays every mate in one and stops most threats of
/// one: a position with a move that wins at once is won for its mover by the rules, and
/// that move takes the whole prior.
#[test]
fn a_search_without_knowledge_sees_mates_in_one_by_the_rules() {
    for mate in &mates_in_one() {
        let game = Xiangqi::from_text(&mate.fen).unwrap();
        for root in [RootSelection::Puct, RootSelection::Gumbel] {
            let chosen = best_move_with(&mut UniformEvaluator::default(), &game, 8, root);
            assert!(mate.winning_moves.contains(&chosen), "{root:?} {}: played {chosen}", mate.fen);
        }
    }
    // A threatened mate is seen once the move allowing it is visited: with a simulation
    // for each legal move, every such move is.
    let threats = mate_threats();
    for (game, safe) in &threats {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let chosen =
            best_move_with(&mut UniformEvaluator::default(), game, 3 * moves.len() as u32, RootSelection::Puct);
        assert!(safe.contains(&chosen), "{}: played {chosen}, which allows a mate; safe are {safe:?}", game.to_text());
    }
}

#[test]
fn batched_search_statistics_add_up_in_a_middlegame() {
    let game =
        Xiangqi::from_text("r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1CN1C1N2/9/R1BAKAB1R w - - 4 4").unwrap();
    for batch_size in [1, 32] {
        let config = SearchConfig { batch_size, ..SearchConfig::training() };
        let mut search = Search::new(game.clone(), config, 9);
        let result = search.run(&mut MaterialEvaluator::default(), &Budget::simulations(3000));
        search.validate().unwrap();
        assert_eq!(result.simulations, 3000);
        assert_eq!(result.moves.iter().map(|m| m.visits).sum::<u32>() + 1, result.visits);
        // Moving on keeps the subtree, still consistent.
        let mv = search.choose_move(0).unwrap();
        let visits = result.moves.iter().find(|m| m.mv == mv).unwrap().visits;
        search.play(mv);
        assert_eq!(search.root_visits(), visits);
        search.validate().unwrap();
    }
}

#[test]
fn mcts_player_reports_like_an_engine() {
    let spec: PlayerSpec = "mcts:sims=200,eval=material,batch=8".parse().unwrap();
    let mut player = Xiangqi::player(&spec, 1).unwrap();
    assert_eq!(player.name(), "mcts:sims=200,eval=material,batch=8");
    let game = Xiangqi::start();
    let mut infos = 0;
    let report = player.think(&game, &Limits::default(), &mut |_| infos += 1).unwrap();
    assert_eq!(report.nodes, 200);
    assert!(infos >= 1);
    assert_eq!(report.pv.first(), report.best.as_ref());
    assert!(matches!(report.score, Score::Cp(cp) if cp.abs() < 300), "{:?}", report.score);
    // `go nodes` overrides the spec's simulations: 50 more on the kept tree, whose visits
    // (200 + 50) the answer rests on.
    let report = player.think(&game, &Limits::nodes(50), &mut |_| {}).unwrap();
    assert_eq!((report.searched, report.nodes), (50, 250));
    let settled: PlayerSpec = "mcts:sims=100,eval=settled".parse().unwrap();
    assert_eq!(Xiangqi::player(&settled, 1).unwrap().name(), "mcts:sims=100,eval=settled");
    for bad in ["mcts:sims=0", "mcts:eval=network", "mcts:eval=quiesce", "mcts:root=minimax", "mcts:depth=3"] {
        assert!(bad.parse::<PlayerSpec>().is_err(), "{bad}");
    }
}

#[test]
fn the_driver_resigns_lost_games_but_plays_out_its_share() {
    use xiangqi_zero::mcts::{Driver, Ending, Event};
    // Red has only its general and advisors against Black's full army, Red to move.
    let lost = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/9/9/4A4/3AK4 w - - 0 1";
    for playthrough in [0.0, 1.0] {
        let config = SearchConfig {
            simulations: 64,
            batch_size: 8,
            resign_threshold: Some(-0.5),
            resign_consecutive: 1,
            resign_playthrough: playthrough,
            ..SearchConfig::default()
        };
        let mut driver =
            Driver::new(config, MaterialEvaluator::default(), 2, 3, move |_| Xiangqi::from_text(lost).unwrap());
        driver.limit_games(2);
        driver.set_max_plies(6);
        let mut endings = Vec::new();
        driver.run(&mut |event| {
            if let Event::GameOver(over) = event {
                endings.push((over.ending, over.playthrough, over.would_have_resigned, over.plies));
            }
        });
        assert_eq!(endings.len(), 2);
        for (ending, played_out, would, plies) in endings {
            if playthrough == 0.0 {
                assert_eq!(
                    (ending, played_out, plies),
                    (Ending::Resigned(xiangqi_zero::game::Player::First), false, 0)
                );
            } else {
                assert!(played_out && ending != Ending::Resigned(xiangqi_zero::game::Player::First), "{ending:?}");
                assert_eq!(would, Some(xiangqi_zero::game::Player::First));
            }
        }
    }
}

#[test]
fn sampling_at_high_temperature_never_plays_a_move_seen_to_lose() {
    use xiangqi_zero::game::xiangqi::{RepetitionRule, Rules};
    use xiangqi_zero::mcts::UniformEvaluator;
    // Under `repeater-loses`, after seven plies of this cycle Black's d8d9 would make the
    // start occur a third time and lose (tests/cli.rs has the same cycle scored 1-0).
    let rules = Rules { repetition: RepetitionRule::RepeaterLoses, ..Rules::default() };
    let mut game = Xiangqi::from_fen("3k5/R8/9/9/9/9/9/9/9/5K3 w - - 0 1", rules).unwrap();
    for mv in ["a8a9", "d9d8", "a9a8", "d8d9", "a8a9", "d9d8", "a9a8"] {
        game.play(game.parse_move(mv).unwrap());
    }
    let losing = game.parse_move("d8d9").unwrap();
    let mut replay = game.clone();
    replay.play(losing);
    assert_eq!(replay.status().value_for(xiangqi_zero::game::Player::First), Some(1.0));
    let config =
        SearchConfig { simulations: 64, temperature: 100.0, temperature_end: 100.0, ..SearchConfig::default() };
    let mut seen_losing_visited = false;
    for seed in 0..40 {
        let mut search = Search::new(game.clone(), config.clone(), seed);
        let result = search.run(&mut UniformEvaluator::new(), &Budget::simulations(64));
        seen_losing_visited |= result.moves.iter().any(|m| m.mv == losing && m.visits > 0);
        assert_ne!(search.choose_move(game.plies_played()), Some(losing), "seed {seed}");
    }
    assert!(seen_losing_visited, "the losing move was never searched: the test shows nothing");
}

#[test]
fn a_batched_search_does_not_pour_its_budget_into_a_move_that_loses_at_once() {
    use xiangqi_zero::game::xiangqi::{Move, RepetitionRule, Rules};
    use xiangqi_zero::mcts::{Batch, Evaluator, Wdl};
    // The position of the test above: Black's d8d9 repeats the start a third time and
    // loses. A net that likes that move (prior 0.9) must still see it lose after its one
    // visit, whether the search takes one leaf at a time or batches (where the other
    // moves wait under virtual loss and a known end looks better than they do).
    struct LikesLosing(Move);
    impl Evaluator<Xiangqi> for LikesLosing {
        fn evaluate(&mut self, batch: &mut Batch<Xiangqi>) {
            for i in 0..batch.len() {
                let moves = batch.moves(i).to_vec();
                let liked = moves.contains(&self.0);
                let rest = if liked { 0.1 / (moves.len() - 1).max(1) as f32 } else { 1.0 / moves.len() as f32 };
                for (mv, p) in moves.iter().zip(batch.priors_mut(i)) {
                    *p = if *mv == self.0 { 0.9 } else { rest };
                }
                batch.set_value(i, Wdl::DRAW);
            }
        }
    }
    let rules = Rules { repetition: RepetitionRule::RepeaterLoses, ..Rules::default() };
    let mut game = Xiangqi::from_fen("3k5/R8/9/9/9/9/9/9/9/5K3 w - - 0 1", rules).unwrap();
    for mv in ["a8a9", "d9d8", "a9a8", "d8d9", "a8a9", "d9d8", "a9a8"] {
        game.play(game.parse_move(mv).unwrap());
    }
    let losing = game.parse_move("d8d9").unwrap();
    let visits_of_losing = |batch_size: usize| {
        let config = SearchConfig { simulations: 100, batch_size, ..SearchConfig::default() };
        let mut search = Search::new(game.clone(), config, 1);
        let result = search.run(&mut LikesLosing(losing), &Budget::simulations(100));
        search.validate().unwrap();
        assert_ne!(result.best, Some(losing), "batch {batch_size}");
        result.moves.iter().find(|m| m.mv == losing).unwrap().visits
    };
    for batch_size in [1, 16, 64] {
        assert_eq!(visits_of_losing(batch_size), 1, "batch {batch_size}");
    }
}

/// The plain and the settled balance of `fen` (Red to move, then Black), each from the
/// side to move's view.
fn balances(fen: &str) -> [(f32, f32); 2] {
    ["w", "b"].map(|side| {
        let game = Xiangqi::from_fen(&format!("{fen} {side} - - 0 1"), Default::default()).unwrap();
        (game.material(), game.settled_material())
    })
}

#[test]
fn settled_balance_takes_hanging_pieces_and_leaves_defended_ones() {
    // The start: a cannon can take a horse, but the chariot behind it takes the cannon
    // back (−½ for the taker), so both sides stand pat.
    assert_eq!(balances("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR"), [(0.0, 0.0); 2]);
    // Two chariots on the a-file, nothing between: whoever moves takes the other's.
    assert_eq!(balances("5k3/9/9/9/r8/9/9/9/9/R2K5"), [(0.0, 9.0); 2]);
    // Red's chariot against Black's lone horse: taken if Red moves; Black, to move,
    // has no capture and keeps its material down.
    assert_eq!(balances("5k3/9/9/9/n8/9/9/9/9/R2K5"), [(5.0, 9.0), (-5.0, -5.0)]);
    // The same horse defended by Black's chariot on a9: taking it loses the chariot.
    assert_eq!(balances("r4k3/9/9/9/n8/9/9/9/9/R2K5"), [(-4.0, -4.0), (4.0, 4.0)]);
}

#[test]
fn the_bootstrap_counts_settled_material_when_the_config_says_so() {
    use xiangqi_zero::mcts::Batch;
    use xiangqi_zero::train::config::Config;
    // Whoever moves takes the other's chariot: level as it stands, a chariot up settled.
    let game = Xiangqi::from_fen("5k3/9/9/9/r8/9/9/9/9/R2K5 w - - 0 1", Default::default()).unwrap();
    let value_under = |run_table: &str| {
        let text =
            format!("name = \"t\"\ngame = \"xiangqi\"\n[network]\nblocks = 1\nchannels = 8\n[run]\n{run_table}\n");
        let (config, _) = Config::parse(&text, "t.toml").unwrap();
        let mut batch = Batch::new();
        batch.push(&game);
        config.run.bootstrap_evaluator().evaluate(&mut batch);
        batch.value(0).value()
    };
    assert_eq!(value_under(""), 0.0);
    let settled = value_under("bootstrap_settled = true");
    let expected = MaterialEvaluator::default().value_of(9.0);
    assert!((settled - expected).abs() < 1e-4, "{settled} against {expected}");
}

/// Whether `winner` wins `game` within `plies` plies whatever the other side plays: by
/// brute force over the legal moves, the rules alone.
fn forced_win(game: &Xiangqi, winner: xiangqi_zero::game::Player, plies: u32) -> bool {
    if let Status::Over { winner: result, .. } = game.status() {
        return result == Some(winner);
    }
    if plies == 0 {
        return false;
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let wins = |&mv: &_| {
        let mut next = game.clone();
        next.play(mv);
        forced_win(&next, winner, plies - 1)
    };
    if game.to_move() == winner {
        moves.iter().any(wins)
    } else {
        moves.iter().all(wins)
    }
}

/// The MCTS-solver: the search proves the public mates in two or three won for their
/// mover (the root's value exactly 1: every visit counted as the win it leads to) and
/// plays a move that wins within the plies the proof says (checked by brute force over
/// the rules); after that move the defender's position is proven lost (−1).
#[test]
fn the_solver_proves_short_mates_and_their_losses() {
    let mates: Vec<Mate> = common::read_jsonl::<Mate>("xiangqi-mates-public.jsonl")
        .into_iter()
        .filter(|m| (2..=3).contains(&m.mate_in))
        .collect();
    assert_eq!(mates.len(), 35);
    let search = |game: &Xiangqi| {
        let config = SearchConfig { simulations: 4000, ..SearchConfig::default() };
        let mut search = Search::new(game.clone(), config, 1);
        let result = search.run(&mut MaterialEvaluator::default(), &Budget::simulations(4000));
        search.validate().unwrap();
        let chosen = search.choose_move(game.plies_played()).unwrap();
        (result, chosen)
    };
    let mut proven = 0;
    for mate in &mates {
        let mut game = Xiangqi::from_text(&mate.fen).unwrap();
        let (result, chosen) = search(&game);
        let Some(plies) = result.proven_end else { continue };
        proven += 1;
        assert!(plies > 0, "{}: proven lost for the winner", mate.fen);
        assert_eq!(result.value, 1.0, "{}", mate.fen);
        let winner = game.to_move();
        game.play(chosen);
        assert!(forced_win(&game, winner, plies as u32 - 1), "{}: {chosen} does not win in {plies} plies", mate.fen);
        let (defence, _) = search(&game);
        assert!(defence.proven_end.is_some_and(|plies| plies < 0), "{} after {chosen}", mate.fen);
        assert_eq!(defence.value, -1.0, "{} after {chosen}", mate.fen);
    }
    assert!(proven >= 33, "{proven} of 35 proven");
}

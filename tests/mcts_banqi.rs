//! MCTS at Banqi: flips are exact chance nodes whose value is Σ p·Q of their outcomes,
//! a turn that keeps the mover (chain captures) keeps the signs right.

use xiangqi_zero::game::banqi::{Banqi, Move, Piece, Rules};
use xiangqi_zero::game::{Game, Player};
use xiangqi_zero::mcts::{
    Batch, Budget, Edge, Evaluator, MaterialEvaluator, NodeKind, Search, SearchConfig, UniformEvaluator,
};

/// Red's chariot on a1 and Black's soldier on d8 face-up; four face-down pieces whose
/// pool is an Advisor and two Soldiers of Red's and a Black horse (odds ¼, ½, ¼).
const FLIPS: &str = "3p/4/4/X3/3X/2X1/1X2/R3 r GPPn 0 20";

fn search(game: &Banqi, simulations: u32) -> Search<Banqi> {
    let mut search = Search::new(game.clone(), SearchConfig { simulations, ..SearchConfig::default() }, 1);
    search.run(&mut MaterialEvaluator::default(), &Budget::simulations(simulations));
    search.validate().unwrap();
    search
}

/// The value of `game` (a decision point) from `First`'s view by the evaluator alone.
fn evaluation(game: &Banqi) -> f64 {
    let mut batch = Batch::new();
    batch.push(game);
    MaterialEvaluator::default().evaluate(&mut batch);
    let value = batch.value(0).value() as f64;
    if game.to_move() == Player::First {
        value
    } else {
        -value
    }
}

#[test]
fn a_flip_is_a_chance_node_worth_the_probability_weighted_sum_of_its_outcomes() {
    let game = Banqi::from_text(FLIPS).unwrap();
    let flip = game.parse_move("b2b2").unwrap();
    let mut odds = Vec::new();
    let mut after_flip = game.clone();
    after_flip.play(flip);
    after_flip.chance_outcomes(&mut odds);
    assert_eq!(odds.len(), 3);

    // A search from just after the flip: three simulations reach each outcome once (the
    // largest p − n/N first), so the chance node holds exactly Σ p·v of the evaluator's
    // values.
    let mut chance = Search::new(after_flip.clone(), SearchConfig::default(), 1);
    chance.run(&mut MaterialEvaluator::default(), &Budget::simulations(3));
    chance.validate().unwrap();
    let root = *chance.node(&[]).unwrap();
    assert_eq!(root.kind, NodeKind::Chance);
    let children = chance.children(&[]);
    assert_eq!(children.len(), 3);
    let mut expected = 0.0;
    for (child, &(piece, p)) in children.iter().zip(&odds) {
        assert_eq!(child.edge, Edge::Outcome(piece));
        assert_eq!(child.prior, p);
        assert_eq!(child.visits, 1, "each outcome once");
        let mut revealed = after_flip.clone();
        revealed.apply_outcome(piece);
        let v = evaluation(&revealed);
        assert!((child.w - v).abs() < 1e-6, "{piece}: {} vs {v}", child.w);
        expected += p as f64 * v;
    }
    let value = root.w / root.visits as f64;
    assert!((value - expected).abs() < 1e-6, "chance value {value}, Σ p·v = {expected}");

    // In a full search every flip of the root is a chance node with Σ p·Q exactly.
    let search = search(&game, 3000);
    let mut flips = 0;
    for child in search.children(&[]) {
        let Edge::Move(mv) = child.edge else { unreachable!() };
        if !mv.is_in_place() || child.visits == 0 {
            continue;
        }
        flips += 1;
        assert_eq!(child.kind, NodeKind::Chance, "{mv}");
        let outcomes = search.children(&[Edge::Move(mv)]);
        let probabilities: Vec<f32> = outcomes.iter().map(|o| o.prior).collect();
        assert_eq!(probabilities, odds.iter().map(|o| o.1).collect::<Vec<_>>());
        let (mut p, mut q) = (0.0, 0.0);
        for o in outcomes.iter().filter(|o| o.visits > 0) {
            p += o.prior as f64;
            q += o.prior as f64 * o.w / o.visits as f64;
        }
        let value = child.w / child.visits as f64;
        assert!((value - q / p).abs() < 1e-9, "{mv}: {value} vs {}", q / p);
        // The visits follow the probabilities closely (deterministic, low variance).
        if child.visits >= 40 {
            assert!(outcomes.iter().all(|o| o.visits > 0));
            for o in outcomes {
                let share = o.visits as f32 / child.visits as f32;
                assert!((share - o.prior).abs() <= 1.0 / child.visits as f32 + 1e-6, "{mv}: {share} vs {}", o.prior);
            }
        }
    }
    assert_eq!(flips, 4);
}

#[test]
fn a_chain_capture_keeps_the_mover_and_the_signs() {
    // Red's chariot on b1 takes the soldier on b2 and, in the chain variant, goes on to
    // take b3: Black has nothing left. The mover stays Red in between.
    let rules = Rules { chain_captures: true, ..Rules::default() };
    let game = Banqi::from_state("4/4/4/4/4/1p2/1p2/1R2 r - 0 20", rules).unwrap();
    let mover = game.to_move();
    let search = search(&game, 300);
    let first: Move = game.parse_move("b1b2").unwrap();
    let mut after = game.clone();
    after.play(first);
    assert_eq!(after.to_move(), mover);
    let second = after.parse_move("b2b3").unwrap();
    let result = search.node(&[]).map(|root| root.w / root.visits as f64).unwrap();
    let for_mover = if mover == Player::First { result } else { -result };
    assert!(for_mover > 0.9, "{for_mover}");
    let winning = search.node(&[Edge::Move(first), Edge::Move(second)]).unwrap();
    assert_eq!(winning.kind, NodeKind::Terminal);
    let mut pv_search = search;
    let pv = pv_search.result().pv;
    assert_eq!(&pv[..2], &[first, second]);
}

#[test]
fn the_uniform_evaluator_searches_banqi_from_the_start() {
    let game = Banqi::start();
    let mut search = Search::new(game, SearchConfig { batch_size: 8, ..SearchConfig::training() }, 2);
    let result = search.run(&mut UniformEvaluator::with_rollouts(20, 3), &Budget::simulations(500));
    search.validate().unwrap();
    assert_eq!(result.moves.len(), 32);
    assert_eq!(result.simulations, 500);
    let piece: Piece = "K".parse::<char>().ok().and_then(Piece::from_letter).unwrap();
    let flip = result.best.unwrap();
    search.play(flip);
    assert!(search.game().is_chance());
    search.apply_outcome(piece);
    search.validate().unwrap();
}

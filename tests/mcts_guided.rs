//! The rules' help to a learned evaluator (`mcts::Guided`), on positions worked out by
//! hand: the value read at the end of the settling captures, from the leaf's side to
//! move, the settled material count mixed into the value, and the rules'
//! capture-and-check priors (and threats) mixed into the evaluator's.

use std::cell::Cell;
use std::rc::Rc;

use xiangqi_zero::game::xiangqi::Xiangqi;
use xiangqi_zero::game::Game;
use xiangqi_zero::mcts::{Batch, Evaluator, Guided, Material, MaterialEvaluator, SearchConfig, UniformEvaluator};

fn position(fen: &str) -> Xiangqi {
    Xiangqi::from_fen(fen, Default::default()).unwrap()
}

/// The value `evaluator` gives `game`, from its side to move's view.
fn value(evaluator: &mut impl Evaluator<Xiangqi>, game: &Xiangqi) -> f32 {
    let mut batch = Batch::new();
    batch.push(game);
    evaluator.evaluate(&mut batch);
    batch.value(0).value()
}

/// The value of a material balance (in soldiers) under the default material evaluator.
fn material_value(balance: f32) -> f32 {
    MaterialEvaluator::default().value_of(balance)
}

/// The captures that settle `game`, as `Material::settled_line` gives them.
fn settling_captures(game: &Xiangqi) -> Vec<xiangqi_zero::game::xiangqi::Move> {
    let mut line = Vec::new();
    game.settled_line(&mut line);
    line
}

fn quiet(config: SearchConfig) -> Guided<Xiangqi, MaterialEvaluator> {
    Guided::new(MaterialEvaluator::default(), &config)
}

#[test]
fn quiet_leaves_read_the_value_after_the_settling_captures() {
    let quiet_leaves = SearchConfig { quiet_leaves: true, ..SearchConfig::default() };

    // Red (chariot and cannon, 13½) against two chariots (18): Red's chariot takes the one
    // on a5, Black's i9 chariot takes the cannon on i0 with check, and Red, in check,
    // stops there a chariot against a chariot. Red to move after two captures: no flip.
    let game = position("5k2r/9/9/9/r8/9/9/9/9/R2K4C w - - 0 1");
    let line: Vec<String> = settling_captures(&game).iter().map(|mv| mv.to_string()).collect();
    assert_eq!(line, ["a0a5", "i9i0"]);
    assert!((value(&mut MaterialEvaluator::default(), &game) - material_value(-4.5)).abs() < 1e-5);
    assert!((value(&mut quiet(quiet_leaves.clone()), &game) - material_value(0.0)).abs() < 1e-5);

    // Red's chariot takes Black's lone horse: one capture, so the quiet position has
    // Black to move (nine soldiers down), which is nine up for Red.
    let game = position("5k3/9/9/9/n8/9/9/9/9/R2K5 w - - 0 1");
    assert_eq!(settling_captures(&game).len(), 1);
    assert!((value(&mut quiet(quiet_leaves.clone()), &game) - material_value(9.0)).abs() < 1e-5);
    // The same horse defended by Black's chariot: nothing to settle, the leaf's own value.
    let game = position("r4k3/9/9/9/n8/9/9/9/9/R2K5 w - - 0 1");
    assert!(settling_captures(&game).is_empty());
    assert!((value(&mut quiet(quiet_leaves.clone()), &game) - material_value(-4.0)).abs() < 1e-5);

    // Off by default: the leaf's own value.
    let game = position("5k3/9/9/9/n8/9/9/9/9/R2K5 w - - 0 1");
    assert!((value(&mut quiet(SearchConfig::default()), &game) - material_value(5.0)).abs() < 1e-5);
}

#[test]
fn rules_priors_favour_taking_a_hanging_piece() {
    let game = position("5k3/9/9/9/n8/9/9/9/9/R2K5 w - - 0 1");
    let priors = |rules_prior: f32| {
        let config = SearchConfig { rules_prior, ..SearchConfig::default() };
        let mut batch = Batch::new();
        batch.push(&game);
        Guided::new(UniformEvaluator::new(), &config).evaluate(&mut batch);
        let moves: Vec<String> = batch.moves(0).iter().map(|mv| mv.to_string()).collect();
        let take = moves.iter().position(|mv| mv == "a0a5").unwrap();
        (batch.priors(0).to_vec(), take)
    };
    // The evaluator's own priors (uniform) when the rules have no share.
    let (own, take) = priors(0.0);
    assert!(own.iter().all(|&p| (p - own[take]).abs() < 1e-6), "{own:?}");
    // With the rules' share, the capture of the horse (4 soldiers: weight 5 where a quiet
    // move has 1) stands above every other move, and the priors still add up to one.
    for share in [0.5, 1.0] {
        let (mixed, take) = priors(share);
        assert!((mixed.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        let best = mixed.iter().enumerate().filter(|&(i, _)| i != take).map(|(_, &p)| p).fold(0.0, f32::max);
        assert!(mixed[take] > best, "share {share}: the capture {} against {best}", mixed[take]);
    }
}

#[test]
fn rules_threats_favour_the_moves_that_attack_a_loose_piece() {
    // Red's horse on c3 reaches d5 or b5 (over an empty c4), from either of which it attacks
    // Black's loose chariot on c7 (nothing of Black's guards it): a threat of 9 soldiers. Its
    // six other moves and the king's two (e1, f0; d0 would face Black's king) threaten
    // nothing.
    let game = position("3k5/9/2r6/9/9/9/2N6/9/9/4K4 w - - 0 1");
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let names: Vec<String> = moves.iter().map(|mv| mv.to_string()).collect();
    assert_eq!(names.len(), 10, "{names:?}");
    let mut threats = vec![f32::NAN; moves.len()];
    game.threats(&moves, &mut threats);
    for (name, threat) in names.iter().zip(&threats) {
        let expected = if name == "c3d5" || name == "c3b5" { 9.0 } else { 0.0 };
        assert_eq!(*threat, expected, "{name}");
    }
    // With the rules' priors alone and half a weight per soldier threatened, each attacking
    // move weighs 1 + 4.5 against 1 for each of the other eight: 5.5/19 and 1/19.
    let priors = |rules_threats: f32| {
        let config = SearchConfig { rules_prior: 1.0, rules_threats, ..SearchConfig::default() };
        let mut batch = Batch::new();
        batch.push(&game);
        Guided::new(UniformEvaluator::new(), &config).evaluate(&mut batch);
        batch.priors(0).to_vec()
    };
    for (name, prior) in names.iter().zip(priors(0.5)) {
        let expected = if name == "c3d5" || name == "c3b5" { 5.5 / 19.0 } else { 1.0 / 19.0 };
        assert!((prior - expected).abs() < 1e-6, "{name}: {prior} against {expected}");
    }
    assert!(priors(0.0).iter().all(|&prior| (prior - 0.1).abs() < 1e-6));
}

#[test]
fn rules_values_mix_the_settled_material_count_into_the_evaluators() {
    // Red's chariot takes Black's lone horse: settled, Red is nine soldiers up. The
    // uniform evaluator says "draw" (0); half of it mixed with the count gives half the
    // count's value.
    let game = position("5k3/9/9/9/n8/9/9/9/9/R2K5 w - - 0 1");
    let mixed = |rules_value: f32| {
        let config = SearchConfig { rules_value, ..SearchConfig::default() };
        value(&mut Guided::new(UniformEvaluator::new(), &config), &game)
    };
    assert_eq!(mixed(0.0), 0.0);
    assert!((mixed(0.5) - 0.5 * material_value(9.0)).abs() < 1e-5, "{}", mixed(0.5));
    assert!((mixed(1.0) - material_value(9.0)).abs() < 1e-5);
}

/// An evaluator that counts the positions it is asked about (in `positions`), then
/// answers as `inner`.
struct Counting<E> {
    inner: E,
    positions: Rc<Cell<usize>>,
}

impl<E: Evaluator<Xiangqi>> Evaluator<Xiangqi> for Counting<E> {
    fn evaluate(&mut self, batch: &mut Batch<Xiangqi>) {
        self.positions.set(self.positions.get() + batch.len());
        self.inner.evaluate(batch);
    }
}

#[test]
fn with_the_rules_priors_alone_each_leaf_costs_one_position() {
    // Two leaves with captures to settle (a0a5 then i9i0; the lone horse taken) and one
    // with none (the horse defended).
    let leaves = [
        "5k2r/9/9/9/r8/9/9/9/9/R2K4C w - - 0 1",
        "5k3/9/9/9/n8/9/9/9/9/R2K5 w - - 0 1",
        "r4k3/9/9/9/n8/9/9/9/9/R2K5 w - - 0 1",
    ];
    let answers = |rules_prior: f32| {
        let config = SearchConfig { quiet_leaves: true, rules_prior, rules_value: 0.5, ..SearchConfig::default() };
        let mut batch = Batch::new();
        leaves.iter().for_each(|fen| _ = batch.push(&position(fen)));
        let positions = Rc::new(Cell::new(0));
        let counting = Counting { inner: MaterialEvaluator::default(), positions: Rc::clone(&positions) };
        Guided::new(counting, &config).evaluate(&mut batch);
        let values: Vec<f32> = (0..leaves.len()).map(|i| batch.value(i).value()).collect();
        let priors: Vec<Vec<f32>> = (0..leaves.len()).map(|i| batch.priors(i).to_vec()).collect();
        (positions.get(), values, priors)
    };
    // Reading the evaluator's priors costs a second position for each leaf to settle.
    let (read, values_read, _) = answers(0.5);
    assert_eq!(read, 5);
    // With the rules' priors alone the leaves to settle are asked about their quiet
    // positions only: the same values, and the priors are the rules' weights.
    let (alone, values, priors) = answers(1.0);
    assert_eq!(alone, 3);
    for (value, expected) in values.iter().zip(&values_read) {
        assert!((value - expected).abs() < 1e-6, "{values:?} against {values_read:?}");
    }
    let game = position(leaves[1]);
    let mut weights = vec![0.0; priors[1].len()];
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    game.move_weights(&moves, &mut weights);
    let total: f32 = weights.iter().sum();
    for (prior, weight) in priors[1].iter().zip(&weights) {
        assert!((prior - weight / total).abs() < 1e-6, "{priors:?}");
    }
}

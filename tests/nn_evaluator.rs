//! The network evaluator against burn's own forward pass: for random positions of both
//! games, each legal move's prior is the softmax of `Net::infer`'s policy logits at the
//! move's label over the legal labels, and the value is the softmax of the value logits,
//! within 1e-4, with our CPU pass and with burn's — the first time a position is asked
//! about and again from the evaluator's cache, in a batch where new positions and known
//! ones alternate and some come twice.

use burn::module::Param;
use burn::tensor::{Device, Tensor, TensorData};
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use xiangqi_zero::game::banqi::Banqi;
use xiangqi_zero::game::xiangqi::Xiangqi;
use xiangqi_zero::game::Game;
use xiangqi_zero::mcts::{Batch, Evaluator};
use xiangqi_zero::nn::{Encoding, Inference, Net, NetConfig, NetEvaluator};

/// A random 2×16 net of game `G` whose output layers have weights drawn from a seeded
/// generator in [-1, 1) (far larger than the default's), so that the priors are far from
/// uniform whatever the other tests running at the same time do to burn's generator.
fn random_net<G: Encoding>(seed: u64) -> Net {
    let device = Device::flex();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut net = Net::new(NetConfig::new::<G>(2, 16), &device);
    let policy_fc = net.policy_fc.as_mut().expect("a dense policy head");
    for fc in [policy_fc, &mut net.value_fc2] {
        let [inputs, outputs] = fc.weight.val().dims();
        let values: Vec<f32> = (0..inputs * outputs).map(|_| rng.random_range(-1.0..1.0)).collect();
        fc.weight = Param::from_tensor(Tensor::from_data(TensorData::new(values, [inputs, outputs]), &device));
    }
    net
}

/// Positions after a random number of random moves (chance points drawn at random).
fn random_positions<G: Game>(rng: &mut StdRng, count: usize) -> Vec<G> {
    let mut positions = Vec::new();
    let mut moves = Vec::new();
    let mut outcomes = Vec::new();
    while positions.len() < count {
        let mut game = G::start();
        for _ in 0..rng.random_range(0..60) {
            game.legal_moves(&mut moves);
            if game.status().is_over() || moves.is_empty() {
                break;
            }
            game.play(*moves.choose(rng).unwrap());
            while game.is_chance() {
                game.chance_outcomes(&mut outcomes);
                game.apply_outcome(outcomes.choose(rng).unwrap().0);
            }
        }
        game.legal_moves(&mut moves);
        if !moves.is_empty() && !game.status().is_over() {
            positions.push(game);
        }
    }
    positions
}

/// The softmax of `logits`, computed in f64.
fn softmax(logits: &[f32]) -> Vec<f32> {
    let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max) as f64;
    let exps: Vec<f64> = logits.iter().map(|&l| (l as f64 - max).exp()).collect();
    let sum: f64 = exps.iter().sum();
    exps.iter().map(|e| (e / sum) as f32).collect()
}

fn assert_matches_infer<G: Encoding>(seed: u64) {
    let net = random_net::<G>(seed);
    let mut rng = StdRng::seed_from_u64(seed);
    let positions: Vec<G> = random_positions(&mut rng, 8);
    let mut planes = vec![0.0; positions.len() * G::INPUT_SIZE];
    for (game, out) in positions.iter().zip(planes.chunks_exact_mut(G::INPUT_SIZE)) {
        game.encode(out);
    }
    let (policy, value) = net.infer(planes, positions.len());

    let cpu = Inference::for_device(&net, &Device::flex());
    assert!(matches!(cpu, Inference::Cpu(_)), "the flex device runs our CPU pass");
    // Six new positions; then the last two (new) among the first six (known), in another
    // order, a new one and a known one twice.
    let batches = [vec![0, 1, 2, 3, 4, 5], vec![7, 5, 4, 7, 3, 6, 2, 1, 0, 0]];
    for inference in [cpu, Inference::Burn(Box::new(net.clone()))] {
        let mut evaluator = NetEvaluator::<G>::new(inference);
        let mut spread = 0.0f32;
        for indices in &batches {
            let mut batch = Batch::new();
            for &p in indices {
                batch.push(&positions[p]);
            }
            evaluator.evaluate(&mut batch);
            for (i, &p) in indices.iter().enumerate() {
                let game = &positions[p];
                let logits = &policy[p * G::POLICY_SIZE..(p + 1) * G::POLICY_SIZE];
                let legal: Vec<f32> = batch.moves(i).iter().map(|&mv| logits[game.move_label(mv)]).collect();
                let expected = softmax(&legal);
                for (k, (&got, &want)) in batch.priors(i).iter().zip(&expected).enumerate() {
                    assert!(
                        (got - want).abs() < 1e-4,
                        "{} position {p} move {k}: prior {got}, expected {want}",
                        G::NAME
                    );
                }
                let uniform = 1.0 / expected.len() as f32;
                spread = expected.iter().fold(spread, |spread, &p| spread.max((p - uniform).abs()));
                let wdl = softmax(&value[3 * p..3 * p + 3]);
                let got = batch.value(i);
                for (got, want) in [got.win, got.draw, got.loss].into_iter().zip(wdl) {
                    assert!((got - want).abs() < 1e-4, "{} position {p}: value {got}, expected {want}", G::NAME);
                }
            }
        }
        // Priors far enough from uniform, against the tolerance, for a wrong label to show.
        assert!(spread > 1e-3, "{}: priors too flat to test anything ({spread})", G::NAME);
    }
}

#[test]
fn xiangqi_priors_and_values_are_the_nets_softmaxes() {
    assert_matches_infer::<Xiangqi>(3);
}

#[test]
fn banqi_priors_and_values_are_the_nets_softmaxes() {
    assert_matches_infer::<Banqi>(4);
}

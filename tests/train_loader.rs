//! The loader: every row of a batch is one of the window's samples under one board
//! symmetry — planes equal to the encoding of the transformed position, the policy target
//! at the transformed position's labels of the transformed moves (summing to 1), the
//! policy weight set only for fully searched samples, the outcome as written, the reply
//! one-hot at the transformed position's label of the transformed move — and every
//! symmetry turns up; value targets mix in the root value as the settings say.

mod train_common;

use rand::rngs::StdRng;
use rand::SeedableRng;
use train_common::{banqi_samples, shard, temp_dir, xiangqi_samples, Case};
use xiangqi_zero::game::banqi::Banqi;
use xiangqi_zero::game::xiangqi::Xiangqi;
use xiangqi_zero::nn::Encoding;
use xiangqi_zero::selfplay::{SampleShape, Samples, Targets};
use xiangqi_zero::train::{make_batch, TrainSettings, Window};

/// A window over one shard of `samples`.
fn window_of<G: Encoding>(samples: &Samples, name: &str) -> Window {
    let dir = temp_dir(name);
    shard(&dir, "gen0001-a.npz", samples);
    let mut window = Window::new(&dir, SampleShape::of::<G>());
    let update = window.refresh(&TrainSettings::default()).unwrap();
    assert_eq!(update.window_samples, samples.len() as u64);
    window
}

/// Checks every row of a batch against the cases; returns how often each symmetry
/// was seen.
fn check_batch<G: Encoding>(window: &Window, cases: &[Case], symmetries: bool) -> Vec<usize> {
    let size = 300;
    let settings = TrainSettings { batch_size: size, symmetries, ..TrainSettings::default() };
    let batch = make_batch::<G>(window, &settings, &mut StdRng::seed_from_u64(5));
    assert_eq!(
        (batch.size, batch.planes.len(), batch.policy.len()),
        (size, size * G::INPUT_SIZE, size * G::POLICY_SIZE)
    );
    let mut seen = vec![0; G::SYMMETRIES];
    for row in 0..size {
        let planes = &batch.planes[row * G::INPUT_SIZE..(row + 1) * G::INPUT_SIZE];
        let policy = &batch.policy[row * G::POLICY_SIZE..(row + 1) * G::POLICY_SIZE];
        let sum: f32 = policy.iter().sum();
        assert!((sum - 1.0).abs() < 1e-5, "row {row}: the policy sums to {sum}");
        let close = |a: &[f32], b: &[f32]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-6);
        let found = cases.iter().find_map(|case| {
            (0..G::SYMMETRIES)
                .find(|&sym| case.planes[sym] == planes && close(&case.policy[sym], policy))
                .map(|sym| (case, sym))
        });
        let (case, sym) = found.unwrap_or_else(|| panic!("row {row} is no sample under any symmetry"));
        seen[sym] += 1;
        assert_eq!(batch.policy_weight[row], if case.full { 1.0 } else { 0.0 }, "row {row}");
        assert_eq!(batch.value[row * 3..row * 3 + 3], case.outcome, "row {row}");
        let reply = &batch.reply[row * G::POLICY_SIZE..(row + 1) * G::POLICY_SIZE];
        let mut want = vec![0.0; G::POLICY_SIZE];
        if let Some(label) = case.reply[sym] {
            want[label] = 1.0;
        }
        assert_eq!(reply, want, "row {row}: the reply, one-hot under the row's symmetry");
        assert_eq!(batch.reply_weight[row], if case.reply[sym].is_some() { 1.0 } else { 0.0 }, "row {row}");
    }
    seen
}

#[test]
fn xiangqi_rows_are_samples_under_the_identity_or_the_mirror() {
    let (samples, cases) = xiangqi_samples(40, 1);
    let window = window_of::<Xiangqi>(&samples, "loader-xiangqi");
    let seen = check_batch::<Xiangqi>(&window, &cases, true);
    assert!(seen.iter().all(|&n| n > 0), "symmetries seen: {seen:?}");
    let seen = check_batch::<Xiangqi>(&window, &cases, false);
    assert_eq!(seen[1..].iter().sum::<usize>(), 0, "without symmetries, only the identity: {seen:?}");
}

#[test]
fn banqi_rows_are_samples_under_one_of_the_four_symmetries() {
    let (samples, cases) = banqi_samples(40, 2);
    let window = window_of::<Banqi>(&samples, "loader-banqi");
    let seen = check_batch::<Banqi>(&window, &cases, true);
    assert!(seen.iter().all(|&n| n > 0), "symmetries seen: {seen:?}");
}

#[test]
fn value_targets_mix_the_outcome_with_the_root_value() {
    // One finished game's sample (Red won) and one from a game cut at the ply limit (no
    // outcome), each with its search's root value.
    let mut samples = Samples::new(SampleShape::of::<Xiangqi>());
    let planes = vec![0.0; Xiangqi::INPUT_SIZE];
    let won = Targets { outcome: [1.0, 0.0, 0.0], root: [0.2, 0.3, 0.5], full: true, ply: 0, reply: None };
    let cut = Targets { outcome: [0.0; 3], root: [0.6, 0.2, 0.2], full: true, ply: 1, reply: None };
    samples.push(&planes, &[(0, 1.0)], won);
    samples.push(&planes, &[(1, 1.0)], cut);
    let window = window_of::<Xiangqi>(&samples, "loader-value-mix");
    // By hand: at w = 0.25, 0.75·(1, 0, 0) + 0.25·(0.2, 0.3, 0.5) = (0.8, 0.075, 0.125);
    // the cut game's target is its root value; at w = 0 the outcome alone, and none.
    for (weight, expected_won, expected_cut) in
        [(0.25, [0.8, 0.075, 0.125], [0.6, 0.2, 0.2]), (0.0, [1.0, 0.0, 0.0], [0.0; 3])]
    {
        let settings =
            TrainSettings { batch_size: 64, symmetries: false, root_value_weight: weight, ..TrainSettings::default() };
        let batch = make_batch::<Xiangqi>(&window, &settings, &mut StdRng::seed_from_u64(9));
        let mut seen = [false; 2];
        for row in 0..batch.size {
            let value = &batch.value[row * 3..row * 3 + 3];
            let cut_row = batch.policy[row * Xiangqi::POLICY_SIZE + 1] > 0.0;
            let expected = if cut_row { expected_cut } else { expected_won };
            seen[cut_row as usize] = true;
            assert!(
                value.iter().zip(expected).all(|(a, b)| (a - b).abs() < 1e-6),
                "w {weight}: {value:?}, want {expected:?}"
            );
        }
        assert_eq!(seen, [true, true]);
    }
}

//! Our CPU forward pass against burn's: the same outputs within 1e-4, for both games'
//! shapes and both policy heads, at batch 1 and 7, with random weights and batch-norms
//! whose statistics and affine parameters are random too.

use burn::module::{Param, RunningState};
use burn::nn::BatchNorm;
use burn::tensor::{Device, Tensor, TensorData};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use xiangqi_zero::game::banqi::Banqi;
use xiangqi_zero::game::xiangqi::Xiangqi;
use xiangqi_zero::nn::{CpuNet, Encoding, Net, NetConfig, PolicyHead};

fn random(rng: &mut StdRng, len: usize) -> Vec<f32> {
    (0..len).map(|_| rng.random_range(0.0..1.0)).collect()
}

/// Random values in `[low, high)` as a parameter tensor.
fn uniform(rng: &mut StdRng, len: usize, low: f32, high: f32, device: &Device) -> Tensor<1> {
    let values: Vec<f32> = (0..len).map(|_| rng.random_range(low..high)).collect();
    Tensor::from_data(TensorData::new(values, [len]), device)
}

/// Gives a batch-norm random statistics, scale and shift (so that folding it is tested),
/// of a size that keeps the activations of order 1.
fn randomize(bn: &mut BatchNorm, rng: &mut StdRng, device: &Device) {
    let n = bn.gamma.val().dims()[0];
    bn.gamma = Param::from_tensor(uniform(rng, n, 0.5, 1.5, device));
    bn.beta = Param::from_tensor(uniform(rng, n, -0.2, 0.2, device));
    bn.running_mean = RunningState::new(uniform(rng, n, -0.2, 0.2, device));
    bn.running_var = RunningState::new(uniform(rng, n, 0.5, 1.5, device));
}

/// A net of shape `config` with random weights and random batch-norms, in inference
/// mode; with `count_value`, random weights from the input planes' means to the value too.
fn random_net(config: NetConfig, seed: u64) -> Net {
    let device = Device::flex();
    device.seed(seed);
    let mut rng = StdRng::seed_from_u64(seed);
    let mut net = Net::new(config, &device);
    randomize(&mut net.stem.bn, &mut rng, &device);
    for block in &mut net.blocks {
        randomize(&mut block.first.bn, &mut rng, &device);
        randomize(&mut block.second.bn, &mut rng, &device);
    }
    if let Some(conv) = &mut net.policy_conv {
        randomize(&mut conv.bn, &mut rng, &device);
    }
    randomize(&mut net.value_conv.bn, &mut rng, &device);
    // Larger heads, for outputs of order 1 (where 1e-4 means something).
    for fc in [net.policy_fc.as_mut(), Some(&mut net.value_fc1), Some(&mut net.value_fc2)].into_iter().flatten() {
        fc.weight = Param::from_tensor(fc.weight.val() * 8.0);
    }
    if let Some(attention) = &mut net.policy_attention {
        for conv in [&mut attention.query, &mut attention.key] {
            conv.weight = Param::from_tensor(conv.weight.val() * 4.0);
        }
    }
    if let Some(counts) = &mut net.value_counts {
        let planes = config.planes;
        let weights = uniform(&mut rng, planes * 3, -4.0, 4.0, &device).reshape([planes, 3]);
        counts.weight = Param::from_tensor(weights);
        counts.bias = Some(Param::from_tensor(uniform(&mut rng, 3, -1.0, 1.0, &device)));
    }
    net
}

fn max_difference(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len());
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f32::max)
}

fn assert_matches_burn<G: Encoding>(config: NetConfig, seed: u64) {
    let net = random_net(config, seed);
    let mut fast = CpuNet::new(&net);
    let mut rng = StdRng::seed_from_u64(seed + 100);
    for batch in [1, 7, 1] {
        let input = random(&mut rng, batch * G::INPUT_SIZE);
        let (policy, value) = net.infer(input.clone(), batch);
        let mut our_policy = vec![f32::NAN; batch * G::POLICY_SIZE];
        let mut our_value = vec![f32::NAN; batch * 3];
        fast.forward(&input, batch, &mut our_policy, &mut our_value);
        let (dp, dv) = (max_difference(&policy, &our_policy), max_difference(&value, &our_value));
        assert!(dp < 1e-4 && dv < 1e-4, "{} batch {batch}: policy off by {dp}, value by {dv}", G::NAME);
        // A clone (another thread's copy) computes the same.
        let (mut clone_policy, mut clone_value) = (vec![f32::NAN; our_policy.len()], vec![f32::NAN; batch * 3]);
        fast.clone().forward(&input, batch, &mut clone_policy, &mut clone_value);
        assert_eq!((clone_policy, clone_value), (our_policy, our_value));
    }
}

#[test]
fn xiangqi_forward_matches_burn() {
    assert_matches_burn::<Xiangqi>(NetConfig::new::<Xiangqi>(2, 16), 1);
}

#[test]
fn banqi_forward_matches_burn() {
    assert_matches_burn::<Banqi>(NetConfig::new::<Banqi>(2, 16), 2);
}

#[test]
fn a_width_off_the_vector_size_matches_burn() {
    assert_matches_burn::<Xiangqi>(NetConfig::new::<Xiangqi>(1, 12), 4);
}

#[test]
fn reference_sized_forward_matches_burn() {
    assert_matches_burn::<Xiangqi>(NetConfig::new::<Xiangqi>(6, 64), 3);
}

#[test]
fn the_piece_counts_in_the_value_match_burn() {
    assert_matches_burn::<Xiangqi>(NetConfig::new::<Xiangqi>(1, 16).with_count_value(true), 5);
    assert_matches_burn::<Banqi>(NetConfig::new::<Banqi>(1, 16).with_count_value(true), 6);
}

#[test]
fn the_attention_policy_matches_burn() {
    let attention = |config: NetConfig| config.with_policy_head(PolicyHead::Attention).with_count_value(true);
    assert_matches_burn::<Xiangqi>(attention(NetConfig::new::<Xiangqi>(2, 16)), 7);
    assert_matches_burn::<Xiangqi>(attention(NetConfig::new::<Xiangqi>(1, 12)), 8);
    assert_matches_burn::<Banqi>(attention(NetConfig::new::<Banqi>(1, 16)), 9);
}

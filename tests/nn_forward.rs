//! Our CPU forward pass against burn's: the same outputs within 1e-4, for both games'
//! shapes, at batch 1 and 7, with batch-norms whose statistics and affine parameters
//! are not the identity.

use burn::module::Module;
use burn::optim::{AdamConfig, GradientsParams};
use burn::tensor::{Device, Tensor, TensorData};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use xiangqi_zero::game::banqi::Banqi;
use xiangqi_zero::game::xiangqi::Xiangqi;
use xiangqi_zero::nn::loss::losses;
use xiangqi_zero::nn::{CpuNet, Encoding, Net, NetConfig};

fn random(rng: &mut StdRng, len: usize) -> Vec<f32> {
    (0..len).map(|_| rng.random_range(0.0..1.0)).collect()
}

/// A net of game `G` with random weights, moved by a few training steps on random data
/// so that every batch-norm has its own statistics, scale and shift (and the outputs stay
/// of order 1, where 1e-4 means something); in inference mode.
fn random_net<G: Encoding>(blocks: usize, channels: usize, seed: u64) -> Net {
    let device = Device::flex().autodiff();
    device.seed(seed);
    let mut rng = StdRng::seed_from_u64(seed);
    let mut net = Net::new(NetConfig::new::<G>(blocks, channels), &device);
    let mut optimizer = AdamConfig::new().init();
    let batch = 6;
    for _ in 0..3 {
        let input = net.input(random(&mut rng, batch * G::INPUT_SIZE), batch);
        let policy = Tensor::<2>::from_data(TensorData::new(random(&mut rng, batch * G::POLICY_SIZE), [batch, G::POLICY_SIZE]), &device);
        let value = Tensor::<2>::from_data(TensorData::new(random(&mut rng, batch * 3), [batch, 3]), &device);
        let loss = losses(&net.forward(input), policy, value).total;
        let grads = GradientsParams::from_grads(loss.backward(), &net);
        net = optimizer.step(0.01, net, grads);
    }
    net.valid()
}

fn max_difference(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len());
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f32::max)
}

fn assert_matches_burn<G: Encoding>(blocks: usize, channels: usize, seed: u64) {
    let net = random_net::<G>(blocks, channels, seed);
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
    }
}

#[test]
fn xiangqi_forward_matches_burn() {
    assert_matches_burn::<Xiangqi>(2, 16, 1);
}

#[test]
fn banqi_forward_matches_burn() {
    assert_matches_burn::<Banqi>(2, 16, 2);
}

#[test]
fn reference_sized_forward_matches_burn() {
    assert_matches_burn::<Xiangqi>(6, 64, 3);
}

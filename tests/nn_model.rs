//! The burn model: it learns (overfits a tiny fixed set of samples), and it survives a
//! save and load unchanged; loading refuses files of another game or shape, and bad files,
//! with errors naming the file.

use std::path::PathBuf;

use burn::module::Module;
use burn::optim::{AdamConfig, GradientsParams};
use burn::tensor::{Device, Tensor, TensorData};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use xiangqi_zero::game::banqi::Banqi;
use xiangqi_zero::game::xiangqi::Xiangqi;
use xiangqi_zero::game::Game;
use xiangqi_zero::nn::attention_policy::AttentionPolicy;
use xiangqi_zero::nn::loss::{losses, LossTargets};
use xiangqi_zero::nn::{Encoding, Net, NetConfig, NetError, PolicyHead};

/// A file name in the temp directory for this test (removed when dropped).
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str) -> TempFile {
        TempFile(std::env::temp_dir().join(format!("xiangqi-zero-{}-{name}", std::process::id())))
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// `count` positions from seeded random play, encoded, with a legal move's label and an
/// outcome each.
fn samples(count: usize, seed: u64) -> (Vec<f32>, Vec<f32>, Vec<f32>) {
    let mut rng = StdRng::seed_from_u64(seed);
    let (mut planes, mut policy, mut value) = (Vec::new(), Vec::new(), Vec::new());
    let mut moves = Vec::new();
    let mut game = Xiangqi::start();
    for _ in 0..count {
        for _ in 0..rng.random_range(1..6) {
            game.legal_moves(&mut moves);
            if moves.is_empty() || game.status().is_over() {
                game = Xiangqi::start();
                game.legal_moves(&mut moves);
            }
            game.play(moves[rng.random_range(0..moves.len())]);
        }
        let mut encoded = vec![0.0; Xiangqi::INPUT_SIZE];
        game.encode(&mut encoded);
        planes.extend(encoded);
        game.legal_moves(&mut moves);
        let mut target = vec![0.0; Xiangqi::POLICY_SIZE];
        target[game.move_label(moves[rng.random_range(0..moves.len())])] = 1.0;
        policy.extend(target);
        let mut outcome = [0.0; 3];
        outcome[rng.random_range(0..3)] = 1.0;
        value.extend(outcome);
    }
    (planes, policy, value)
}

#[test]
fn the_net_overfits_a_tiny_set_of_samples() {
    for head in [PolicyHead::Dense, PolicyHead::Attention] {
        overfits(NetConfig::new::<Xiangqi>(2, 16).with_policy_head(head));
    }
    let attention = NetConfig::new::<Xiangqi>(2, 16).with_policy_head(PolicyHead::Attention);
    overfits(attention.with_reply_policy(true).with_soft_policy(true));
}

fn overfits(config: NetConfig) {
    let device = Device::flex().autodiff();
    device.seed(1);
    let mut net = Net::new(config, &device);
    let batch = 8;
    let (planes, policy, value) = samples(batch, 3);
    let input = net.input(planes, batch);
    let policy = Tensor::<2>::from_data(TensorData::new(policy, [batch, Xiangqi::POLICY_SIZE]), &device);
    let value = Tensor::<2>::from_data(TensorData::new(value, [batch, 3]), &device);
    let weight = Tensor::<1>::ones([batch], &device);
    let mut optimizer = AdamConfig::new().init();
    let mut history = Vec::new();
    for _ in 0..40 {
        // The reply target: each sample's policy target moved one label on.
        let reply = Some((policy.clone().roll_dim(1, 1), weight.clone()));
        let targets =
            LossTargets { policy: policy.clone(), policy_weight: weight.clone(), value: value.clone(), reply };
        let loss = losses(&net.forward(input.clone()), targets).total;
        history.push(loss.clone().into_scalar::<f32>());
        let grads = GradientsParams::from_grads(loss.backward(), &net);
        net = optimizer.step(3e-3, net, grads);
    }
    let (first, last) = (history[0], *history.last().unwrap());
    assert!(last < first / 4.0, "{config}: the loss fell only from {first} to {last}: {history:?}");
}

#[test]
fn the_training_heads_are_added_kept_and_dropped_as_a_shape_asks() {
    let device = Device::flex();
    let plain = NetConfig::new::<Xiangqi>(1, 8).with_policy_head(PolicyHead::Attention);
    let both = plain.with_reply_policy(true).with_soft_policy(true);
    let net = Net::new(both, &device);
    let reply_weights = |net: &Net| {
        net.policy_reply.as_ref().map(|head| head.query.weight.val().into_data().try_to_vec::<f32>().unwrap())
    };
    let kept = reply_weights(&net);
    // Only the reply asked for: the reply head kept as it was, the soft one dropped.
    let net = net.with_training_heads(&plain.with_reply_policy(true));
    assert_eq!(net.config, plain.with_reply_policy(true));
    assert!(net.policy_soft.is_none());
    assert_eq!(reply_weights(&net), kept);
    // Both asked for: the soft head fresh; neither: both dropped. Play is the same throughout.
    let (planes, _, _) = samples(2, 5);
    let played = outputs(&net, &planes, 2);
    let net = net.with_training_heads(&both);
    assert!(net.policy_soft.is_some() && net.config == both);
    assert_eq!(outputs(&net, &planes, 2), played);
    let net = net.with_training_heads(&plain);
    assert!(net.policy_reply.is_none() && net.policy_soft.is_none() && net.config == plain);
    assert_eq!(outputs(&net, &planes, 2), played);
}

fn outputs(net: &Net, planes: &[f32], batch: usize) -> (Vec<f32>, Vec<f32>) {
    net.infer(planes.to_vec(), batch)
}

#[test]
fn save_then_load_gives_identical_outputs() {
    let device = Device::flex();
    let net = Net::new(NetConfig::new::<Xiangqi>(2, 16), &device);
    let file = TempFile::new("save-load.safetensors");
    net.save(&file.0).unwrap();
    let loaded = Net::load::<Xiangqi>(&file.0, Some(net.config), &device).unwrap();
    let (planes, _, _) = samples(5, 9);
    assert_eq!(outputs(&net, &planes, 5), outputs(&loaded, &planes, 5));
    // Without an expected shape, the file's own is taken.
    let loaded = Net::load::<Xiangqi>(&file.0, None, &device).unwrap();
    assert_eq!(loaded.config, net.config);
}

#[test]
fn a_net_with_piece_counts_in_its_value_saves_and_loads_them() {
    let device = Device::flex();
    let mut net = Net::new(NetConfig::new::<Xiangqi>(1, 8).with_count_value(true), &device);
    let (planes, _, _) = samples(5, 9);
    let before = outputs(&net, &planes, 5);
    let counts = net.value_counts.as_mut().expect("the counts' layer");
    counts.weight = burn::module::Param::from_tensor(counts.weight.val() + 0.5);
    let after = outputs(&net, &planes, 5);
    assert_eq!(before.0, after.0, "the counts touch the value only");
    assert_ne!(before.1, after.1, "the counts reach the value");
    let file = TempFile::new("save-load-counts.safetensors");
    net.save(&file.0).unwrap();
    let loaded = Net::load::<Xiangqi>(&file.0, None, &device).unwrap();
    assert!(loaded.config.count_value, "the file says the net counts");
    assert_eq!(outputs(&loaded, &planes, 5), after);
}

#[test]
fn an_attention_net_saves_and_loads_its_head() {
    let device = Device::flex();
    let config = NetConfig::new::<Xiangqi>(1, 8).with_policy_head(PolicyHead::Attention);
    let net = Net::new(config, &device);
    assert!(net.policy_attention.is_some() && net.policy_fc.is_none());
    let file = TempFile::new("save-load-attention.safetensors");
    net.save(&file.0).unwrap();
    let loaded = Net::load::<Xiangqi>(&file.0, None, &device).unwrap();
    assert_eq!(loaded.config.policy_head, PolicyHead::Attention, "the file says which head");
    let (planes, _, _) = samples(5, 9);
    assert_eq!(outputs(&net, &planes, 5), outputs(&loaded, &planes, 5));
    let dense = NetConfig::new::<Xiangqi>(1, 8);
    let error = Net::load::<Xiangqi>(&file.0, Some(dense), &device).unwrap_err();
    assert!(error.to_string().contains("attention"), "{error}");
}

/// Worked by hand: with identity queries and keys of two channels, a move's logit is its
/// from-cell's features dotted with its to-cell's, over √2.
#[test]
fn the_attention_policy_scores_a_move_by_its_squares_query_and_key() {
    let device = Device::flex();
    let mut head = AttentionPolicy::new(2, &device);
    let identity = Tensor::<4>::from_data(TensorData::new(vec![1.0f32, 0.0, 0.0, 1.0], [2, 2, 1, 1]), &device);
    for conv in [&mut head.query, &mut head.key] {
        conv.weight = burn::module::Param::from_tensor(identity.clone());
        conv.bias = Some(burn::module::Param::from_tensor(Tensor::<1>::zeros([2], &device)));
    }
    // Red's left Chariot one step up: from a0 (cell 0) to a1 (cell 9).
    let game = Xiangqi::start();
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let up = moves.iter().copied().find(|m| m.to_string() == "a0a1").expect("a0a1 is legal");
    let label = game.move_label(up);
    assert_eq!(Xiangqi::label_cells()[label], (0, 9));
    let cells = Xiangqi::HEIGHT * Xiangqi::WIDTH;
    let mut features = vec![0.0f32; 2 * cells];
    (features[0], features[cells]) = (1.0, 2.0); // cell 0: (1, 2)
    (features[9], features[cells + 9]) = (3.0, -1.0); // cell 9: (3, −1)
    let x = Tensor::<4>::from_data(TensorData::new(features, [1, 2, Xiangqi::HEIGHT, Xiangqi::WIDTH]), &device);
    let logits = head.forward(x, Xiangqi::label_cells()).into_data().try_to_vec::<f32>().unwrap();
    assert_eq!(logits.len(), Xiangqi::POLICY_SIZE);
    let expected = (1.0 * 3.0 + -2.0) / 2f32.sqrt();
    assert!((logits[label] - expected).abs() < 1e-6, "{} vs {expected}", logits[label]);
}

#[test]
fn a_trained_net_saves_its_batch_norm_statistics() {
    let device = Device::flex().autodiff();
    let net = Net::new(NetConfig::new::<Xiangqi>(1, 8), &device);
    let (planes, _, _) = samples(4, 5);
    // A forward pass in training mode moves the running statistics.
    let _ = net.forward(net.input(planes.clone(), 4));
    let net = net.valid();
    let file = TempFile::new("batch-norm.safetensors");
    net.save(&file.0).unwrap();
    let loaded = Net::load::<Xiangqi>(&file.0, None, &Device::flex()).unwrap();
    assert_eq!(outputs(&net, &planes, 4), outputs(&loaded, &planes, 4));
}

#[test]
fn loading_refuses_another_game_or_shape_naming_the_file() {
    let device = Device::flex();
    let file = TempFile::new("banqi.safetensors");
    Net::new(NetConfig::new::<Banqi>(1, 8), &device).save(&file.0).unwrap();
    let name = file.0.display().to_string();

    let error = Net::load::<Xiangqi>(&file.0, None, &device).unwrap_err();
    assert!(matches!(error, NetError::Mismatch { .. }), "{error}");
    let message = error.to_string();
    assert!(message.contains(&name) && message.contains("banqi") && message.contains("xiangqi"), "{message}");

    let error = Net::load::<Banqi>(&file.0, Some(NetConfig::new::<Banqi>(2, 8)), &device).unwrap_err();
    let message = error.to_string();
    assert!(message.contains(&name) && message.contains("1 blocks") && message.contains("2 blocks"), "{message}");
    assert!(!message.contains('\n'), "one line: {message}");
}

#[test]
fn loading_a_missing_or_corrupt_file_is_an_error_naming_it() {
    let device = Device::flex();
    let missing = TempFile::new("missing.safetensors");
    let error = Net::load::<Xiangqi>(&missing.0, None, &device).unwrap_err();
    assert!(error.to_string().contains(&missing.0.display().to_string()), "{error}");

    let corrupt = TempFile::new("corrupt.safetensors");
    std::fs::write(&corrupt.0, b"\x10\0\0\0\0\0\0\0{not json at all").unwrap();
    let error = Net::load::<Xiangqi>(&corrupt.0, None, &device).unwrap_err();
    assert!(matches!(error, NetError::Read { .. }), "{error}");

    // A good file cut short: the header survives, the tensors do not.
    let good = TempFile::new("good.safetensors");
    Net::new(NetConfig::new::<Xiangqi>(1, 8), &device).save(&good.0).unwrap();
    let bytes = std::fs::read(&good.0).unwrap();
    let truncated = TempFile::new("truncated.safetensors");
    std::fs::write(&truncated.0, &bytes[..bytes.len() / 2]).unwrap();
    let error = Net::load::<Xiangqi>(&truncated.0, None, &device).unwrap_err();
    assert!(error.to_string().contains(&truncated.0.display().to_string()), "{error}");
}

#[test]
fn devices_by_name() {
    assert!(xiangqi_zero::nn::device::device("cpu").is_ok());
    if !cfg!(any(feature = "cuda", feature = "wgpu")) {
        let error = xiangqi_zero::nn::device::device("0").unwrap_err();
        assert!(error.contains("--features cuda"), "{error}");
        let error = xiangqi_zero::nn::device::device("wgpu:cpu").unwrap_err();
        assert!(error.contains("--features wgpu"), "{error}");
    }
    assert!(xiangqi_zero::nn::device::device("gpu-zero").is_err());
    assert!(xiangqi_zero::nn::device::device("cuda:cpu").is_err());
}

#[test]
fn the_policy_is_a_softmax_over_the_legal_labels_only() {
    use xiangqi_zero::nn::policy::{masked_softmax, wdl};
    let logits = [5.0, 1.0, 1000.0, 1.0 + 2f32.ln()];
    let mut probabilities = Vec::new();
    masked_softmax(&logits, &[1, 3], &mut probabilities);
    assert!((probabilities[0] - 1.0 / 3.0).abs() < 1e-6 && (probabilities[1] - 2.0 / 3.0).abs() < 1e-6);
    masked_softmax(&logits, &[], &mut probabilities);
    assert!(probabilities.is_empty());
    let (p, score) = wdl([0.0, 0.0, 0.0]);
    assert!(p.iter().all(|&x| (x - 1.0 / 3.0).abs() < 1e-6) && score.abs() < 1e-6);
    let (_, score) = wdl([30.0, 0.0, -30.0]);
    assert!((score - 1.0).abs() < 1e-6);
}

#[test]
fn loading_refuses_implausible_sizes_in_the_metadata() {
    let device = Device::flex();
    let good = TempFile::new("sizes-good.safetensors");
    Net::new(NetConfig::new::<Xiangqi>(1, 8), &device).save(&good.0).unwrap();
    let mut bytes = std::fs::read(&good.0).unwrap();
    // A byte for a byte, so the header's length stays right.
    let pattern = b"\"xiangqi-zero.blocks\":\"1\"";
    let at = bytes.windows(pattern.len()).position(|w| w == pattern).expect("the metadata holds the blocks");
    bytes[at + pattern.len() - 2] = b'0';
    let bad = TempFile::new("sizes-bad.safetensors");
    std::fs::write(&bad.0, &bytes).unwrap();
    let error = Net::load::<Xiangqi>(&bad.0, None, &device).unwrap_err();
    assert!(error.to_string().contains("not a size from 1 to"), "{error}");
}

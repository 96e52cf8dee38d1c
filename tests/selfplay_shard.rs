//! Sample shards: what is written comes back exactly (planes as the encoder wrote them),
//! numpy's array names and shapes are there, and a truncated, corrupt or other-game file
//! is an error naming it.

use std::path::PathBuf;

use xiangqi_zero::game::banqi::Banqi;
use xiangqi_zero::game::xiangqi::Xiangqi;
use xiangqi_zero::game::Game;
use xiangqi_zero::nn::Encoding;
use xiangqi_zero::selfplay::{read_shard, write_shard, SampleShape, Samples, ShardError, Targets};

/// A fresh directory for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xiangqi-zero-shard-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Samples of the positions along a game of middle moves, each with a policy over the
/// first three legal moves.
fn samples_of<G: Encoding>(mut game: G, plies: usize) -> (Samples, Vec<Vec<f32>>) {
    let mut samples = Samples::new(SampleShape::of::<G>());
    let mut planes = Vec::new();
    let mut moves = Vec::new();
    for ply in 0..plies {
        while game.is_chance() {
            let mut outcomes = Vec::new();
            game.chance_outcomes(&mut outcomes);
            game.apply_outcome(outcomes[ply % outcomes.len()].0);
        }
        game.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let mut encoded = vec![0.0; G::INPUT_SIZE];
        game.encode(&mut encoded);
        let policy: Vec<(usize, f32)> =
            moves.iter().take(3).map(|&mv| (game.move_label(mv), 1.0 / moves.len().min(3) as f32)).collect();
        // The move played's label stands in for the opponent's reply.
        let reply = Some(game.move_label(moves[moves.len() / 2]) as u16);
        let targets =
            Targets { outcome: [1.0, 0.0, 0.0], root: [0.5, 0.25, 0.25], full: ply % 2 == 0, ply: ply as u32, reply };
        samples.push(&encoded, &policy, targets);
        planes.push(encoded);
        game.play(moves[moves.len() / 2]);
    }
    (samples, planes)
}

fn assert_round_trip<G: Encoding>(game: G, name: &str) {
    let dir = temp_dir(name);
    let (samples, planes) = samples_of(game, 40);
    let path = dir.join("gen0001-a.npz");
    write_shard(&path, &samples).unwrap();
    let read = read_shard(&path, SampleShape::of::<G>()).unwrap();
    assert_eq!(read, samples);
    let mut decoded = vec![0.0; G::INPUT_SIZE];
    for (i, encoded) in planes.iter().enumerate() {
        read.planes_into(i, &mut decoded);
        assert_eq!(&decoded, encoded, "sample {i}");
        assert_eq!(read.targets(i).ply, i as u32);
    }
    // Nothing but the shard is left in the directory (no temporary file).
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn xiangqi_samples_survive_a_shard() {
    assert_round_trip(Xiangqi::start(), "xiangqi");
}

#[test]
fn banqi_samples_survive_a_shard() {
    assert_round_trip(Banqi::start(), "banqi");
}

#[test]
fn a_shard_written_before_its_game_count_and_replies_counts_its_samples_of_ply_0() {
    use ndarray::{s, Array1, Array2, Array3, Ix1, OwnedRepr};
    use ndarray_npy::{NpzReader, NpzWriter};
    let dir = temp_dir("old");
    // Two games' samples in one shard: plies 0–9, then 0–14.
    let (mut samples, _) = samples_of(Xiangqi::start(), 10);
    samples.append(&samples_of(Xiangqi::start(), 15).0);
    let new = dir.join("new.npz");
    write_shard(&new, &samples).unwrap();
    // These samples were not collected from games: the shard says so, 0.
    assert_eq!(read_shard(&new, SampleShape::of::<Xiangqi>()).unwrap().games(), 0);
    // The same arrays without `gameCount` and the targets' reply column, as shards were
    // written before them.
    let mut reader = NpzReader::new(std::fs::File::open(&new).unwrap()).unwrap();
    let old = dir.join("old.npz");
    let mut writer = NpzWriter::new_compressed(std::fs::File::create(&old).unwrap());
    let packed: Array3<u8> = reader.by_name("binaryInputNCHWPacked").unwrap();
    writer.add_array("binaryInputNCHWPacked", &packed).unwrap();
    let globals: Array2<f32> = reader.by_name("globalInputNC").unwrap();
    writer.add_array("globalInputNC", &globals).unwrap();
    let targets: Array2<f32> = reader.by_name("globalTargetsNC").unwrap();
    writer.add_array("globalTargetsNC", &targets.slice(s![.., ..8]).to_owned()).unwrap();
    for name in ["policyTargetsCountN", "policyTargetsLabel"] {
        writer.add_array(name, &reader.by_name::<OwnedRepr<u16>, Ix1>(name).unwrap()).unwrap();
    }
    let probs: Array1<f32> = reader.by_name("policyTargetsProb").unwrap();
    writer.add_array("policyTargetsProb", &probs).unwrap();
    writer.finish().unwrap();
    let read = read_shard(&old, SampleShape::of::<Xiangqi>()).unwrap();
    assert_eq!((read.len(), read.games()), (25, 2));
    for i in 0..25 {
        assert!(samples.targets(i).reply.is_some());
        assert_eq!(read.targets(i), Targets { reply: None, ..samples.targets(i) }, "sample {i}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn truncated_corrupt_and_other_game_shards_are_refused_by_name() {
    let dir = temp_dir("bad");
    let (samples, _) = samples_of(Xiangqi::start(), 20);
    let good = dir.join("good.npz");
    write_shard(&good, &samples).unwrap();
    let bytes = std::fs::read(&good).unwrap();
    let truncated = dir.join("truncated.npz");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    let garbage = dir.join("garbage.npz");
    std::fs::write(&garbage, b"not a zip at all").unwrap();
    for path in [&truncated, &garbage, &dir.join("missing.npz")] {
        let error = read_shard(path, SampleShape::of::<Xiangqi>()).unwrap_err();
        assert!(matches!(error, ShardError::Read { .. }));
        let text = error.to_string();
        assert!(text.contains(&path.display().to_string()) && !text.contains('\n'), "{text}");
    }
    let error = read_shard(&good, SampleShape::of::<Banqi>()).unwrap_err().to_string();
    assert!(error.contains("shape"), "{error}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_shard_in_a_missing_directory_is_a_write_error() {
    let samples = Samples::new(SampleShape::of::<Xiangqi>());
    let path = temp_dir("missing").join("no/such/dir/shard.npz");
    assert!(matches!(write_shard(&path, &samples), Err(ShardError::Write { .. })));
}

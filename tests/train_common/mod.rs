//! Helpers of the training tests: samples of real positions from seeded random games,
//! with what each sample must become under every board symmetry, worked out from the
//! transformed games themselves.

#![allow(dead_code)] // each test file uses a part

use std::path::{Path, PathBuf};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use xiangqi_zero::game::banqi::{self, Banqi};
use xiangqi_zero::game::xiangqi::{Move, Xiangqi};
use xiangqi_zero::nn::Encoding;
use xiangqi_zero::selfplay::{write_shard, SampleShape, Samples, Targets};

/// A fresh, empty directory for one test.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xiangqi-zero-train-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A sample as the loader must give it under each symmetry.
pub struct Case {
    /// Per symmetry: the encoding of the transformed position.
    pub planes: Vec<Vec<f32>>,
    /// Per symmetry: the dense policy target over the transformed position's labels.
    pub policy: Vec<Vec<f32>>,
    /// Whether the sample is a policy target.
    pub full: bool,
    /// The outcome target.
    pub outcome: [f32; 3],
    /// Per symmetry: the reply target's label in the transformed position (the move
    /// played from the position stands in for a reply), none in every third sample.
    pub reply: Vec<Option<usize>>,
}

/// Xiangqi's symmetries: 0 the identity, 1 the left-right mirror.
pub fn xiangqi_move(sym: usize, mv: Move) -> Move {
    if sym == 0 {
        mv
    } else {
        mv.mirror()
    }
}

/// Banqi's symmetries: bit 0 mirrors files, bit 1 ranks.
pub fn banqi_move(sym: usize, mv: banqi::Move) -> banqi::Move {
    let square = |sq: banqi::Square| {
        let file = if sym & 1 != 0 { 3 - sq.file() } else { sq.file() };
        let rank = if sym & 2 != 0 { 7 - sq.rank() } else { sq.rank() };
        banqi::Square::from_coords(file as i32, rank as i32).unwrap()
    };
    banqi::Move::new(square(mv.from), square(mv.to))
}

/// `count` samples of seeded random games of `G`, each game played on `G::SYMMETRIES`
/// boards at once (board `s` the image of board 0 under symmetry `s`, moves sent along by
/// `map`, the same chance outcomes), each sample with a policy over up to four legal moves
/// (unequal probabilities), every other sample fully searched, and a seeded outcome.
pub fn symmetric_samples<G: Encoding>(
    map: impl Fn(usize, G::Move) -> G::Move,
    count: usize,
    seed: u64,
) -> (Samples, Vec<Case>) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut samples = Samples::new(SampleShape::of::<G>());
    let mut cases = Vec::new();
    let (mut moves, mut outcomes) = (Vec::new(), Vec::new());
    let fresh = || -> Vec<G> { (0..G::SYMMETRIES).map(|_| G::start()).collect() };
    let mut games = fresh();
    while cases.len() < count {
        if games[0].is_chance() {
            games[0].chance_outcomes(&mut outcomes);
            let outcome = outcomes[rng.random_range(0..outcomes.len())].0;
            games.iter_mut().for_each(|game| game.apply_outcome(outcome));
            continue;
        }
        games[0].legal_moves(&mut moves);
        if moves.is_empty() || games[0].status().is_over() {
            games = fresh();
            continue;
        }
        let chosen = &moves[..moves.len().min(4)];
        let total = (chosen.len() * (chosen.len() + 1) / 2) as f32;
        let policy: Vec<(G::Move, f32)> =
            chosen.iter().enumerate().map(|(i, &mv)| (mv, (i + 1) as f32 / total)).collect();
        let mut outcome = [0.0; 3];
        outcome[rng.random_range(0..3)] = 1.0;
        let full = cases.len() % 2 == 0;
        let mv = moves[rng.random_range(0..moves.len())];
        let has_reply = cases.len() % 3 != 2;
        let mut case = Case { planes: Vec::new(), policy: Vec::new(), full, outcome, reply: Vec::new() };
        for (sym, game) in games.iter().enumerate() {
            let mut planes = vec![0.0; G::INPUT_SIZE];
            game.encode(&mut planes);
            let mut dense = vec![0.0; G::POLICY_SIZE];
            for &(mv, p) in &policy {
                dense[game.move_label(map(sym, mv))] = p;
            }
            case.planes.push(planes);
            case.policy.push(dense);
            case.reply.push(has_reply.then(|| game.move_label(map(sym, mv))));
        }
        let sparse: Vec<(usize, f32)> = policy.iter().map(|&(mv, p)| (games[0].move_label(mv), p)).collect();
        let reply = case.reply[0].map(|label| label as u16);
        let targets = Targets { outcome, root: [0.4, 0.3, 0.3], full, ply: games[0].plies_played() as u32, reply };
        samples.push(&case.planes[0], &sparse, targets);
        cases.push(case);
        for (sym, game) in games.iter_mut().enumerate() {
            game.play(map(sym, mv));
        }
    }
    (samples, cases)
}

/// Xiangqi samples (see [`symmetric_samples`]).
pub fn xiangqi_samples(count: usize, seed: u64) -> (Samples, Vec<Case>) {
    symmetric_samples::<Xiangqi>(xiangqi_move, count, seed)
}

/// Banqi samples (see [`symmetric_samples`]).
pub fn banqi_samples(count: usize, seed: u64) -> (Samples, Vec<Case>) {
    symmetric_samples::<Banqi>(banqi_move, count, seed)
}

/// Writes `samples` as the shard `name` in `dir`.
pub fn shard(dir: &Path, name: &str, samples: &Samples) -> PathBuf {
    let path = dir.join(name);
    write_shard(&path, samples).unwrap();
    path
}

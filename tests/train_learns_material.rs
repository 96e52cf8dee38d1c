//! The pipeline can learn what it is shown: a small net trained through the real path
//! (samples, shard, window, loader with symmetries, trainer, loss) on positions whose value
//! target is the sign of the material balance must, after 600 steps, rank a
//! position a chariot up above the same position a chariot down, for both colours to move
//! and on the mirrored board. It guards the encoding's point of view (the board turned for
//! Black), the symmetries, the value target's sign and the loss.

mod train_common;

use std::sync::atomic::AtomicBool;

use burn::tensor::Device;
use indicatif::ProgressBar;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use train_common::{shard, temp_dir};
use xiangqi_zero::game::xiangqi::{Kind, Xiangqi};
use xiangqi_zero::game::Game;
use xiangqi_zero::nn::{Encoding, Net, NetConfig};
use xiangqi_zero::selfplay::{SampleShape, Samples, Targets};
use xiangqi_zero::train::{OptimizerKind, TrainSettings, Trainer, Window};

/// Material from the side to move's view, in soldiers (the textbook values).
fn material(game: &Xiangqi) -> i32 {
    let board = game.board();
    let us = board.side_to_move();
    let worth = |kind: Kind| match kind {
        Kind::King => 0,
        Kind::Advisor | Kind::Elephant => 2,
        Kind::Horse => 4,
        Kind::Cannon => 5,
        Kind::Rook => 9,
        Kind::Pawn => 1,
    };
    board.pieces().map(|(_, piece)| worth(piece.kind()) * if piece.color() == us { 1 } else { -1 }).sum()
}

/// Positions of seeded random games (a capture taken half the time one is there), each
/// labelled win, draw or loss for the side to move by the sign of its material balance.
fn material_samples(count: usize, seed: u64) -> Samples {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut samples = Samples::new(SampleShape::of::<Xiangqi>());
    let mut planes = vec![0.0; Xiangqi::INPUT_SIZE];
    let mut moves = Vec::new();
    let mut game = Xiangqi::start();
    while samples.len() < count {
        game.legal_moves(&mut moves);
        if moves.is_empty() || game.status().is_over() || game.plies_played() >= 160 {
            game = Xiangqi::start();
            continue;
        }
        let outcome = match material(&game).signum() {
            1 => [1.0, 0.0, 0.0],
            0 => [0.0, 1.0, 0.0],
            _ => [0.0, 0.0, 1.0],
        };
        game.encode(&mut planes);
        let targets = Targets { outcome, root: [0.0; 3], full: false, ply: game.plies_played() as u32, reply: None };
        samples.push(&planes, &[], targets);
        let captures: Vec<_> = moves.iter().copied().filter(|mv| game.board().piece_at(mv.to).is_some()).collect();
        let mv = if !captures.is_empty() && rng.random_bool(0.5) {
            captures[rng.random_range(0..captures.len())]
        } else {
            moves[rng.random_range(0..moves.len())]
        };
        game.play(mv);
    }
    samples
}

/// The net's expected score (win − loss) for the side to move of `fen`.
fn value(net: &Net, fen: &str) -> f32 {
    let game = Xiangqi::from_text(fen).unwrap();
    let mut planes = vec![0.0; Xiangqi::INPUT_SIZE];
    game.encode(&mut planes);
    let (_, wdl) = net.infer(planes, 1);
    let max = wdl.iter().copied().fold(f32::MIN, f32::max);
    let e: Vec<f32> = wdl.iter().map(|&x| (x - max).exp()).collect();
    (e[0] - e[2]) / e.iter().sum::<f32>()
}

#[test]
fn the_value_head_learns_that_a_chariot_is_worth_having() {
    let dir = temp_dir("learns-material");
    let games = dir.join("games");
    std::fs::create_dir_all(&games).unwrap();
    shard(&games, "gen0001-a.npz", &material_samples(20_000, 7));
    let settings = TrainSettings {
        batch_size: 64,
        optimizer: OptimizerKind::Adam,
        learning_rate: 2e-3,
        warmup_steps: 20,
        ..TrainSettings::default()
    };
    let mut window = Window::new(&games, SampleShape::of::<Xiangqi>());
    window.refresh(&settings).unwrap();
    let device = Device::flex().autodiff();
    device.seed(5);
    let mut trainer = Trainer::new(Net::new(NetConfig::new::<Xiangqi>(4, 32), &device), &settings);
    let report = trainer.train::<Xiangqi>(&window, 600, 0.0, &AtomicBool::new(false), &ProgressBar::hidden());
    assert_eq!(report.steps, 600);
    let net = trainer.model();

    // The start position without one chariot: Red's a0 or i0, Black's a9 or i9 (its mirror).
    let board = |black_rooks: &str, red_rooks: &str| {
        format!("{black_rooks}/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/{red_rooks}")
    };
    let full_black = "rnbakabnr";
    let full_red = "RNBAKABNR";
    for (black_down, red_down, side) in [
        ("1nbakabnr", "1NBAKABNR", "the a-file chariot"),
        ("rnbakabn1", "RNBAKABN1", "the i-file chariot (the mirror)"),
    ] {
        for mover in ["w", "b"] {
            let red_up = value(&net, &format!("{} {mover}", board(black_down, full_red)));
            let red_short = value(&net, &format!("{} {mover}", board(full_black, red_down)));
            // From the mover's view: Red to move wants Red up, Black to move wants Black up.
            let (up, down) = if mover == "w" { (red_up, red_short) } else { (red_short, red_up) };
            assert!(
                up > down + 0.2,
                "{side} removed, {mover} to move: the mover a chariot up scores {up:.3}, a chariot down {down:.3}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

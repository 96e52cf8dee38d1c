//! A run's metrics log and its plots: `metrics.jsonl` round trips, PNGs drawn from any
//! number of generations, and the `plot` command.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{assert_fails, run, TempDir};
use xiangqi_zero::matches::ratings::{Placement, Rung};
use xiangqi_zero::train::{
    append_metrics, draw_plots, read_metrics, EloResult, GenerationMetrics, LadderElo, MetricsError,
};

/// Made-up metrics of generation `generation`, with an evaluation every fifth generation
/// from the fifth on. Fractions are computed as one division, so each is the double
/// nearest a short decimal, which serde_json reads back exactly.
fn generation(generation: u32) -> GenerationMetrics {
    let g = f64::from(generation);
    let (elo, ladder) = if generation % 5 == 4 {
        let wins = u64::from(generation) * 2;
        let matches = vec![
            EloResult::from_score("alphabeta:depth=1", wins, 10, 30),
            EloResult::from_score("gen0000", 40, 0, 0), // a clean sweep: Elo +∞
        ];
        let rungs = vec![
            Rung { player: "alphabeta:depth=1".to_string(), elo: 0.0 },
            Rung { player: "gen0000".to_string(), elo: -500.0 },
        ];
        let placement = Placement { elo: 10.0 * g - 300.0, low: 10.0 * g - 400.0, high: 10.0 * g - 200.0 };
        (matches, Some(LadderElo { placement, rungs }))
    } else {
        (Vec::new(), None)
    };
    GenerationMetrics {
        generation,
        hours: 0.25 * g,
        games: 100,
        samples: 8000 + u64::from(generation),
        total_samples: 8000 * (u64::from(generation) + 1),
        window_samples: 50_000,
        selfplay_seconds: 600.0,
        moves_per_second: 13.0 + g,
        simulations_per_second: 1600.0 + 10.0 * g,
        mean_game_plies: 120.0 - g,
        first_wins: 40,
        draws: 20,
        second_wins: 40,
        train_steps: 500,
        train_samples_per_second: 2500.0,
        loss: 6.0 / (1.0 + g),
        policy_loss: 5.0 / (1.0 + g),
        value_loss: 1.0 / (1.0 + g),
        reply_loss: None,
        soft_loss: None,
        policy_entropy: (40.0 - g) / 10.0,
        value_accuracy: (40.0 + g) / 100.0,
        learning_rate: 0.02,
        train_seconds: 200.0,
        elo,
        ladder,
        bootstrap: generation < 3,
        setup: "xiangqi-test · 2×16 net · 2 cores, CPU only".to_string(),
    }
}

#[test]
fn metrics_round_trip_through_the_file() {
    let dir = TempDir::new("round-trip");
    let path = dir.join("metrics.jsonl");
    assert_eq!(read_metrics(&path).unwrap(), Vec::new(), "a missing file is a run with no generation");
    let written: Vec<GenerationMetrics> = (2..5).map(generation).collect();
    assert!(written[2].elo[1].elo.is_infinite(), "the sweep's Elo is +∞, and must survive JSON");
    for metrics in &written {
        append_metrics(&path, metrics).unwrap();
    }
    assert_eq!(read_metrics(&path).unwrap(), written);
    assert_eq!(fs::read_to_string(&path).unwrap().lines().count(), 3);
    // No temporary file is left beside it.
    assert_eq!(fs::read_dir(&dir.0).unwrap().count(), 1);
}

#[test]
fn a_nan_loss_reads_back_as_nan() {
    let dir = TempDir::new("nan");
    let path = dir.join("metrics.jsonl");
    let mut diverged = generation(0);
    diverged.loss = f64::NAN;
    append_metrics(&path, &diverged).unwrap();
    let read = read_metrics(&path).unwrap();
    assert!(read[0].loss.is_nan());
    assert_eq!(read[0].policy_loss, diverged.policy_loss);
}

#[test]
fn elo_from_score_matches_the_match_statistics() {
    let result = EloResult::from_score("random", 60, 20, 20);
    let expected = xiangqi_zero::matches::elo_estimate(&xiangqi_zero::matches::Score::new(60, 20, 20)).unwrap();
    assert_eq!(result.games, 100);
    assert_eq!((result.elo, result.low, result.high), (expected.elo, expected.lower, expected.upper));
    assert!(result.low < result.elo && result.elo < result.high);
    assert!(EloResult::from_score("random", 0, 0, 0).elo.is_nan());
}

#[test]
fn a_garbage_line_is_an_error_naming_the_file_and_line() {
    let dir = TempDir::new("garbage");
    let path = dir.join("metrics.jsonl");
    append_metrics(&path, &generation(0)).unwrap();
    let mut text = fs::read_to_string(&path).unwrap();
    text.push_str("{\"generation\": 1, \"hours\": oops}\n");
    fs::write(&path, text).unwrap();
    let error = read_metrics(&path).unwrap_err();
    assert!(matches!(error, MetricsError::Parse { line: 2, .. }), "{error:?}");
    let message = error.to_string();
    assert!(message.contains("metrics.jsonl") && message.contains("line 2"), "{message}");
    assert_eq!(message.lines().count(), 1);
}

/// The width and height in a PNG's IHDR chunk, after checking the signature.
fn png_size(path: &Path) -> (u32, u32) {
    let bytes = fs::read(path).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{}", path.display());
    assert_eq!(&bytes[12..16], b"IHDR", "{}", path.display());
    let word = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    (word(16), word(20))
}

/// Pixels of a PNG that are neither white nor grey: only the plotted series are coloured
/// (axes, grid and text are black or grey).
fn coloured_pixels(path: &Path) -> usize {
    let decoder = png::Decoder::new(fs::File::open(path).unwrap());
    let mut reader = decoder.read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size()];
    let frame = reader.next_frame(&mut pixels).unwrap();
    assert_eq!(frame.color_type, png::ColorType::Rgb);
    pixels[..frame.buffer_size()].chunks(3).filter(|p| p.iter().max().unwrap() - p.iter().min().unwrap() > 40).count()
}

/// Draws plots of the first `count` made-up generations into a fresh directory; returns
/// it (the files live as long as it does) and the files.
fn plots_of(count: u32) -> (TempDir, Vec<PathBuf>) {
    let dir = TempDir::new(&format!("plots-{count}"));
    let metrics: Vec<GenerationMetrics> = (0..count).map(generation).collect();
    let files = draw_plots(&metrics, &dir.join("plots")).unwrap();
    let names: Vec<_> = files.iter().map(|f| f.file_name().unwrap().to_str().unwrap()).collect();
    assert_eq!(names, ["losses.png", "elo.png", "selfplay.png"]);
    for file in &files {
        assert_eq!(file.parent().unwrap(), dir.join("plots"));
        let (width, height) = png_size(file);
        assert!(width >= 800 && height >= 500, "{}: {width}×{height}", file.display());
    }
    assert_eq!(fs::read_dir(dir.join("plots")).unwrap().count(), 3, "no temporary file is left");
    (dir, files)
}

#[test]
fn plots_of_no_generation_are_empty_charts() {
    let (_dir, files) = plots_of(0);
    for file in &files {
        assert_eq!(coloured_pixels(file), 0, "{} has no series to draw", file.display());
    }
}

#[test]
fn plots_of_one_generation_draw_its_points() {
    let (_dir, files) = plots_of(1);
    assert!(coloured_pixels(&files[0]) > 0, "the losses' single points are drawn");
    assert_eq!(coloured_pixels(&files[1]), 0, "no evaluation yet, so no Elo series");
}

#[test]
fn plots_of_twenty_generations_draw_the_elo_lines() {
    let (_dir, files) = plots_of(20);
    let (width, height) = png_size(&files[1]);
    let coloured = coloured_pixels(&files[1]);
    assert!(coloured > 1000, "Elo lines and bands: {coloured} coloured pixels");
    assert!(coloured < (width * height) as usize / 2, "{coloured} coloured pixels is most of the plot");
    assert!(coloured_pixels(&files[2]) > coloured_pixels(&plots_of(1).1[2]));
}

#[test]
fn plot_command_redraws_a_run_directory() {
    let dir = TempDir::new("cli");
    for g in 0..6 {
        append_metrics(&dir.join("metrics.jsonl"), &generation(g)).unwrap();
    }
    let output = run(&["plot", "--run", dir.0.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let printed: Vec<PathBuf> = stdout.lines().map(PathBuf::from).collect();
    let plots = dir.join("plots");
    assert_eq!(printed, [plots.join("losses.png"), plots.join("elo.png"), plots.join("selfplay.png")]);
    for file in &printed {
        png_size(file);
    }
}

#[test]
fn plot_command_draws_an_nnue_run() {
    let dir = TempDir::new("cli-nnue");
    fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/xiangqi-nnue.toml"), dir.join("config.toml")).unwrap();
    let lines: String = (1..=12)
        .map(|g| {
            let gate = if g % 3 == 0 { "[10,8,12]" } else { "[16,4,10]" };
            format!(
                "{{\"generation\":{g},\"games\":400,\"new_positions\":34000,\"window\":{},\"loss\":0.006,\
                 \"held_out_loss\":0.007,\"gate\":{gate},\"accepted\":{},\"seconds\":400.0}}\n",
                34000 * g,
                g % 3 != 0
            )
        })
        .collect();
    fs::write(dir.join("metrics.jsonl"), lines).unwrap();
    let output = run(&["plot", "--run", dir.0.to_str().unwrap()]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let printed: Vec<PathBuf> = String::from_utf8_lossy(&output.stdout).lines().map(PathBuf::from).collect();
    assert_eq!(printed, [dir.join("plots").join("nnue.png")]);
    assert_eq!(png_size(&printed[0]), (1400, 600));
    let coloured = coloured_pixels(&printed[0]);
    assert!(coloured > 1000, "the chained strength, the gates and the losses: {coloured} coloured pixels");
}

#[test]
fn plot_command_fails_in_one_line() {
    let dir = TempDir::new("cli-errors");
    let missing = dir.join("no-such-run");
    assert_fails(&["plot", "--run", missing.to_str().unwrap()], "no-such-run");
    fs::write(dir.join("metrics.jsonl"), "not json\n").unwrap();
    assert_fails(&["plot", "--run", dir.0.to_str().unwrap()], "line 1");
    assert!(!dir.join("plots").exists(), "nothing is drawn from a bad metrics file");
}

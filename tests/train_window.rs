//! The replay window: newest shards first (generation, then modification time), as many
//! as the window's size allows, temporary files ignored, corrupt or truncated shards
//! skipped with one warning naming them, and only new shards read on a refresh.

mod train_common;

use std::fs::File;
use std::path::Path;
use std::time::{Duration, SystemTime};

use train_common::{shard, temp_dir, xiangqi_samples};
use xiangqi_zero::game::xiangqi::Xiangqi;
use xiangqi_zero::nn::Encoding;
use xiangqi_zero::selfplay::{SampleShape, Samples};
use xiangqi_zero::train::{TrainSettings, Window};

/// A window of `c` samples whatever was written (α = 1, β = 0).
fn settings(c: u64) -> TrainSettings {
    TrainSettings { window_min: c, window_alpha: 1.0, window_beta: 0.0, window_max: c, ..TrainSettings::default() }
}

/// `count` samples whose plies are `first..first + count`, so that a sample tells its
/// shard.
fn numbered(first: u32, count: usize) -> Samples {
    let (source, _) = xiangqi_samples(count, u64::from(first));
    let mut samples = Samples::new(SampleShape::of::<Xiangqi>());
    let mut planes = vec![0.0; Xiangqi::INPUT_SIZE];
    for i in 0..count {
        source.planes_into(i, &mut planes);
        let (labels, probs) = source.policy(i);
        let policy: Vec<(usize, f32)> = labels.iter().zip(probs).map(|(&l, &p)| (usize::from(l), p)).collect();
        let targets = xiangqi_zero::selfplay::Targets { ply: first + i as u32, ..source.targets(i) };
        samples.push(&planes, &policy, targets);
    }
    samples
}

fn set_modified(path: &Path, seconds_ago: u64) {
    let file = File::options().write(true).open(path).unwrap();
    file.set_modified(SystemTime::now() - Duration::from_secs(seconds_ago)).unwrap();
}

/// The plies of every sample of the window, in window order.
fn plies(window: &Window) -> Vec<u32> {
    (0..window.len()).map(|i| window.sample(i)).map(|(samples, i)| samples.targets(i).ply).collect()
}

#[test]
fn the_newest_shards_fill_the_window_and_bad_ones_are_skipped_once() {
    let dir = temp_dir("window");
    shard(&dir, "gen0001-a.npz", &numbered(100, 10));
    shard(&dir, "gen0002-a.npz", &numbered(200, 10));
    // Same generation: the one modified last is the newer, whatever the names say.
    let older = shard(&dir, "gen0003-z.npz", &numbered(300, 10));
    let newer = shard(&dir, "gen0003-a.npz", &numbered(310, 10));
    set_modified(&older, 100);
    set_modified(&newer, 50);
    // A shard still being written, a corrupt one and a truncated one.
    shard(&dir, ".gen0004-a.npz.tmp-1-0", &numbered(400, 10));
    std::fs::write(dir.join("gen0003-corrupt.npz"), b"not a zip file").unwrap();
    let whole = std::fs::read(shard(&dir, "gen0003-cut.npz", &numbered(900, 10))).unwrap();
    std::fs::write(dir.join("gen0003-cut.npz"), &whole[..whole.len() / 2]).unwrap();
    set_modified(&dir.join("gen0003-cut.npz"), 10);

    let mut window = Window::new(&dir, SampleShape::of::<Xiangqi>());
    let update = window.refresh(&settings(25)).unwrap();
    assert_eq!(update.warnings.len(), 2, "{:?}", update.warnings);
    for name in ["gen0003-corrupt.npz", "gen0003-cut.npz"] {
        let warning = update.warnings.iter().find(|w| w.contains(name)).unwrap_or_else(|| panic!("{name}"));
        assert!(!warning.contains('\n'), "{warning}");
    }
    assert_eq!(window.shards(), ["gen0003-a.npz", "gen0003-z.npz", "gen0002-a.npz"]);
    assert_eq!((update.total_samples, update.new_samples, update.window_samples, update.read), (40, 40, 30, 3));
    let expected: Vec<u32> = (310..320).chain(300..310).chain(200..210).collect();
    assert_eq!(plies(&window), expected);

    // A new generation: only its shard is read, the oldest in memory falls out, and the
    // bad shards are not warned about again.
    shard(&dir, "gen0004-a.npz", &numbered(400, 10));
    let update = window.refresh(&settings(25)).unwrap();
    assert!(update.warnings.is_empty(), "{:?}", update.warnings);
    assert_eq!((update.total_samples, update.new_samples, update.read), (50, 10, 1));
    assert_eq!(window.shards(), ["gen0004-a.npz", "gen0003-a.npz", "gen0003-z.npz"]);

    // Nothing new: nothing read.
    let update = window.refresh(&settings(25)).unwrap();
    assert_eq!((update.new_samples, update.read), (0, 0));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_missing_directory_is_an_error_naming_it() {
    let dir = temp_dir("window-missing").join("games");
    let error = Window::new(&dir, SampleShape::of::<Xiangqi>()).refresh(&settings(10)).unwrap_err();
    assert!(error.to_string().contains(&dir.display().to_string()), "{error}");
}

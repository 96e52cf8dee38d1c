//! A run's snapshot (`<run>.snapshot`, replaced after every generation) is all a run needs
//! to go on: a run killed with `kill -9`, its directory then deleted, resumes from the
//! snapshot at the same generation with the same trainer, optimiser state and metrics,
//! refills its replay window by self-play before it trains again, and trains on from there.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::micro_config;
use xiangqi_zero::train::{read_metrics, RunDir};

fn binary() -> Command {
    Command::new(env!("CARGO_BIN_EXE_xiangqi-zero"))
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A fresh directory holding a config: the micro one, averaging three generations' nets,
/// with a window that a few generations' games fill and no evaluation but the last.
fn setup() -> (PathBuf, PathBuf) {
    let root = std::env::temp_dir().join(format!("xiangqi-zero-snapshot-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    let config = micro_config("xiangqi", 8)
        .replace("window_min = 200", "window_min = 600\naverage_generations = 3")
        .replace("every = 1", "every = 0");
    std::fs::write(root.join("config.toml"), config).unwrap();
    (root.join("run"), root.join("config.toml"))
}

#[test]
fn a_killed_run_whose_directory_is_lost_goes_on_from_its_snapshot() {
    let (run, config) = setup();
    let snapshot = PathBuf::from(format!("{}.snapshot", run.display()));
    let dir = RunDir::new(&run);
    let mut child = binary()
        .args(["train", "--config", path(&config), "--run", path(&run), "--generations", "50"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(300);
    while dir.read_state().ok().flatten().is_none_or(|state| state.generation < 3) || !snapshot.exists() {
        assert!(Instant::now() < deadline, "no third generation in time");
        assert!(child.try_wait().unwrap().is_none(), "the run ended before it was killed");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap(); // SIGKILL, mid-generation or mid-write
    child.wait().unwrap();

    // What the run had after each generation, kept to compare with what the snapshot restores.
    let kept: Vec<(u32, Vec<u8>, Vec<u8>)> = (1..=dir.read_state().unwrap().unwrap().generation)
        .map(|g| {
            let trainer = std::fs::read(dir.trained_model(g).unwrap()).unwrap();
            (g, trainer, std::fs::read(dir.optimizer(g)).unwrap())
        })
        .collect();
    let metrics_before = read_metrics(&dir.metrics()).unwrap();
    let snapshot_size = std::fs::metadata(&snapshot).unwrap().len();
    assert!(snapshot_size < 8 << 20, "{snapshot_size} bytes");
    std::fs::remove_dir_all(&run).unwrap();

    let output = binary().args(["train", "--resume", "--run", path(&run), "--generations", "0"]).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let restored: u32 = stdout
        .split("restored generation ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{stdout}"));
    // The snapshot follows the state it was written after (a kill between the two leaves
    // the one before).
    let last_kept = kept.last().unwrap().0;
    assert!(restored == last_kept || restored + 1 == last_kept, "{restored} against {last_kept}");
    let state = dir.read_state().unwrap().unwrap();
    assert_eq!(state.generation, restored);
    assert_eq!(state.lost_samples, state.total_samples);
    assert!(state.total_samples > 0);
    // The same trainer, optimiser state and averaged nets, byte for byte.
    for (g, trainer, optimizer) in &kept {
        if *g + 1 >= restored && *g <= restored {
            assert_eq!(&std::fs::read(dir.trained_model(*g).unwrap()).unwrap(), trainer, "generation {g}'s trainer");
        }
        if *g == restored {
            assert_eq!(&std::fs::read(dir.optimizer(*g)).unwrap(), optimizer, "generation {g}'s optimiser");
        }
    }
    let metrics = read_metrics(&dir.metrics()).unwrap();
    assert_eq!(metrics, metrics_before[..restored as usize]);
    assert!(dir.model(restored).exists());
    assert_eq!(shards(&dir), 0, "a snapshot holds no samples");

    // On from there: the window refills before the net trains again, then it trains.
    let target = restored + 6;
    let output = binary()
        .args(["train", "--resume", "--run", path(&run), "--generations", &target.to_string()])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let after = dir.read_state().unwrap().unwrap();
    assert_eq!(after.generation, target);
    let metrics = read_metrics(&dir.metrics()).unwrap();
    let resumed = &metrics[restored as usize..];
    assert_eq!(resumed.iter().map(|m| m.generation).collect::<Vec<_>>(), (restored + 1..=target).collect::<Vec<_>>());
    for m in resumed {
        assert_eq!(m.train_steps == 0, m.window_samples < 600, "{m:?}");
    }
    assert_eq!(resumed[0].train_steps, 0, "trained on a window of {} samples", resumed[0].window_samples);
    assert!(after.step > state.step, "never trained again: {resumed:?}");
    assert!(after.total_samples > state.total_samples);
    // The snapshot was replaced as the run went on: it restores the newest generation.
    let elsewhere = run.with_file_name("elsewhere");
    let output = binary()
        .args(["train", "--resume", "--run", path(&elsewhere), "--snapshot", path(&snapshot), "--generations", "0"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(stdout.contains(&format!("restored generation {target} ")), "{stdout}");
    let _ = std::fs::remove_dir_all(run.parent().unwrap());
}

/// The sample shards in a run's `games/`.
fn shards(dir: &RunDir) -> usize {
    let entries =
        std::fs::read_dir(dir.games()).map(|entries| entries.flatten().collect::<Vec<_>>()).unwrap_or_default();
    entries.iter().filter(|entry| entry.file_name().to_string_lossy().ends_with(".npz")).count()
}

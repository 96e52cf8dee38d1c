//! `train` end to end through the binary, on a micro config (a 2×16 net, a few
//! simulations, a few games): two generations leave a complete run directory; a run
//! killed mid-generation (`kill -9`) resumes and finishes with every shard readable;
//! bad configs, corrupt shards and nets of another game give one-line errors; a run's
//! config naming keys since removed resumes where they were at their defaults, and stops
//! with one line where the run relied on one; a run goes on from a trained net
//! (`--from`) or from another run's games with a larger net (`--games-from`).

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::micro_config;
use xiangqi_zero::game::banqi::Banqi;
use xiangqi_zero::game::xiangqi::Xiangqi;
use xiangqi_zero::nn::{Encoding, Net, NetConfig};
use xiangqi_zero::selfplay::{read_shard, SampleShape};
use xiangqi_zero::train::config::Config;
use xiangqi_zero::train::nnue_config::NnueConfig;
use xiangqi_zero::train::{read_metrics, trained_nets, RunDir};

/// A fresh directory for one test, holding `config.toml` with `config`.
fn setup(name: &str, config: &str) -> (PathBuf, PathBuf) {
    let root = std::env::temp_dir().join(format!("xiangqi-zero-train-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    let path = root.join("config.toml");
    std::fs::write(&path, config).unwrap();
    (root.join("run"), path)
}

fn binary() -> Command {
    Command::new(env!("CARGO_BIN_EXE_xiangqi-zero"))
}

fn train(args: &[&str]) -> Output {
    binary().arg("train").args(args).output().expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Asserts a clean failure: non-zero exit and one line on stderr containing each needle.
fn assert_fails(output: &Output, needles: &[&str]) {
    let stderr = text(&output.stderr);
    assert!(!output.status.success(), "{stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    for needle in needles {
        assert!(stderr.contains(needle), "`{needle}` not in: {stderr}");
    }
}

/// The `.npz` shards of a run, each read back whole.
fn assert_shards_readable<G: Encoding>(run: &Path) -> usize {
    let mut count = 0;
    for entry in std::fs::read_dir(run.join("games")).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.ends_with(".npz") && !name.starts_with('.') {
            let samples = read_shard(&entry.path(), SampleShape::of::<G>()).unwrap_or_else(|e| panic!("{e}"));
            assert!(!samples.is_empty(), "{name}");
            count += 1;
        }
    }
    count
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn two_generations_leave_a_complete_run_directory() {
    let (run, config) = setup("two", &micro_config("xiangqi", 4));
    let output = train(&["--config", path(&config), "--run", path(&run)]);
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", text(&output.stderr));
    assert!(stdout.contains("gen0001:") && stdout.contains("gen0002:"), "{stdout}");
    assert!(stdout.contains("vs alphabeta:depth=1") && stdout.contains("vs gen0000"), "{stdout}");

    let dir = RunDir::new(&run);
    let shape = NetConfig::new::<Xiangqi>(2, 16);
    for generation in 0..=2 {
        Net::load::<Xiangqi>(&dir.model(generation), Some(shape), &burn::tensor::Device::flex()).unwrap();
        assert!(dir.optimizer(generation).exists());
    }
    assert!(!dir.model(3).exists());
    assert_eq!(dir.read_state().unwrap().unwrap().generation, 2);
    let metrics = read_metrics(&dir.metrics()).unwrap();
    assert_eq!(metrics.iter().map(|m| m.generation).collect::<Vec<_>>(), [1, 2]);
    assert!(metrics.iter().all(|m| m.games == 4 && m.samples > 0 && m.train_steps >= 2 && m.loss.is_finite()));
    assert_eq!(metrics[1].elo.len(), 2);
    // The ladder was rated once (its first rung at 0) and the net placed on it.
    let ladder = metrics[1].ladder.as_ref().expect("the net is placed on the ladder");
    assert_eq!(ladder.rungs.iter().map(|r| r.player.as_str()).collect::<Vec<_>>(), ["alphabeta:depth=1", "gen0000"]);
    assert_eq!(ladder.rungs[0].elo, 0.0);
    let placed = ladder.placement;
    assert!(placed.low <= placed.elo && placed.elo <= placed.high, "{ladder:?}");
    assert!(dir.ladder().exists() && stdout.matches("rating the ladder").count() == 1, "{stdout}");
    assert!(stdout.contains("ladder Elo"), "{stdout}");
    // The end names the next commands with the run's own paths.
    let newest = dir.model(2).display().to_string();
    assert!(stdout.contains(&format!("play --black 'net(sims=800):{newest}'")), "{stdout}");
    assert!(stdout.contains(&format!("train --resume --run {} --generations 4", run.display())), "{stdout}");
    // `serve` would offer it: the newest net of the run, with its ladder standing.
    let offered = trained_nets(run.parent().unwrap());
    let ours = offered.iter().find(|net| net.model == dir.model(2)).expect("the run's newest net is offered");
    assert_eq!((ours.generation, ours.name()), (2, format!("{}-gen0002", run.file_name().unwrap().to_string_lossy())));
    let (engine, about) = xiangqi_zero::web::trained_engine(ours);
    assert!(engine.starts_with(&format!("{}=net(sims=800):", ours.name())), "{engine}");
    assert!(about.contains("generation 2") && about.contains("ladder Elo"), "{about}");
    assert!(assert_shards_readable::<Xiangqi>(&run) >= 2);
    for plot in ["losses.png", "elo.png"] {
        let bytes = std::fs::read(dir.plots().join(plot)).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{plot}");
    }

    // The same directory again without --resume is refused; with it and more
    // generations, the run goes on from generation 2.
    assert_fails(&train(&["--config", path(&config), "--run", path(&run)]), &["--resume", "generation 2"]);
    let output = train(&["--resume", "--run", path(&run), "--generations", "3"]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(text(&output.stdout).contains("gen0003:"));
    assert!(!text(&output.stdout).contains("gen0002:"));
    assert_eq!(read_metrics(&dir.metrics()).unwrap().len(), 3);
}

#[test]
fn an_annealed_run_holds_its_rate_then_lowers_it_to_the_floor_by_its_last_generation() {
    let annealed = "[train]\nschedule = \"anneal\"\nanneal_from = 0.5\nfinal_lr_fraction = 0.25\nwarmup_steps = 0\nlearning_rate = 0.01\n";
    let config = micro_config("xiangqi", 2).replace("[train]\n", annealed).replace("every = 1", "every = 0");
    let (run, config) = setup("anneal", &config);
    let output = train(&["--config", path(&config), "--run", path(&run), "--generations", "4"]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let rates: Vec<f64> = read_metrics(&RunDir::new(&run).metrics()).unwrap().iter().map(|m| m.learning_rate).collect();
    // Without a time limit the course is the generations': a quarter and a half at the
    // full rate, three quarters halfway down the half cosine, the last at the floor.
    for (rate, expected) in rates.iter().zip([0.01, 0.01, 0.01 * (0.25 + 0.75 / 2.0), 0.0025]) {
        assert!((rate - expected).abs() < 1e-9, "{rates:?}");
    }
    assert_eq!(rates.len(), 4);
}

#[test]
fn a_run_killed_mid_generation_resumes_to_the_end() {
    let (run, config) = setup("kill", &micro_config("banqi", 12));
    let mut child = binary()
        .args(["train", "--config", path(&config), "--run", path(&run), "--generations", "4"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Kill it once generation 2's self-play has written a shard.
    let deadline = Instant::now() + Duration::from_secs(240);
    let has_gen2_shard = || {
        std::fs::read_dir(run.join("games")).is_ok_and(|entries| {
            entries.flatten().any(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                name.starts_with("gen0002-") && name.ends_with(".npz")
            })
        })
    };
    while !has_gen2_shard() {
        assert!(Instant::now() < deadline, "no shard of generation 2 in time");
        assert!(child.try_wait().unwrap().is_none(), "the run ended before it was killed");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let dir = RunDir::new(&run);
    let before = dir.read_state().unwrap().unwrap().generation;
    assert!(before <= 2);

    let output = train(&["--resume", "--run", path(&run), "--generations", "4"]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert_eq!(dir.read_state().unwrap().unwrap().generation, 4);
    let models = std::fs::read_dir(dir.models())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".safetensors"))
        .count();
    assert_eq!(models, 5, "gen0000 to gen0004");
    assert_shards_readable::<Banqi>(&run);
    let metrics = read_metrics(&dir.metrics()).unwrap();
    assert_eq!(metrics.iter().map(|m| m.generation).collect::<Vec<_>>(), [1, 2, 3, 4]);
    // Generation 2 kept the games written before the kill (its shards hold exactly 12),
    // so the resumed session played fewer.
    let mut gen2_games = 0;
    for entry in std::fs::read_dir(dir.games()).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with("gen0002-") && name.ends_with(".npz") {
            gen2_games += read_shard(&entry.path(), SampleShape::of::<Banqi>()).unwrap().games();
        }
    }
    assert_eq!(gen2_games, 12);
    assert!(metrics[1].games < 12, "{}", metrics[1].games);
}

#[test]
fn a_ladder_leaves_out_engines_not_installed_and_rates_the_rest_with_an_installed_one() {
    // Our own binary as an external UCI engine stands for an installed one.
    let installed = format!("uci(depth=1):{} uci --player alphabeta:depth=1", env!("CARGO_BIN_EXE_xiangqi-zero"));
    let missing = ["uci(ranks=1,depth=3):/nonexistent/fairy-stockfish", "uci:no-such-engine-on-the-path"];
    let ladder =
        format!("ladder = [\"alphabeta:depth=1\", {:?}, {:?}, {installed:?}, \"gen0000\"]", missing[0], missing[1]);
    let (run, config) =
        setup("engines", &micro_config("xiangqi", 2).replace("ladder = [\"alphabeta:depth=1\", \"gen0000\"]", &ladder));
    let output = train(&["--config", path(&config), "--run", path(&run), "--generations", "1"]);
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", text(&output.stderr));
    let left_out: Vec<&str> = stdout.lines().filter(|line| line.contains("leaving out")).collect();
    assert_eq!(left_out.len(), 1, "{stdout}");
    assert!(missing.iter().all(|rung| left_out[0].contains(rung)) && !left_out[0].contains(&installed), "{stdout}");
    // The installed engine played in the round robin of the others: three rungs, three pairings.
    let dir = RunDir::new(&run);
    let stored: serde_json::Value = serde_json::from_slice(&std::fs::read(dir.ladder()).unwrap()).unwrap();
    let pairings = stored["pairings"].as_array().unwrap();
    assert_eq!(pairings.len(), 3, "{stored}");
    assert_eq!(pairings.iter().filter(|p| p["a"] == installed.as_str() || p["b"] == installed.as_str()).count(), 2);
    let metrics = read_metrics(&dir.metrics()).unwrap();
    let ladder = metrics[0].ladder.as_ref().expect("the net is placed on the ladder");
    let rungs: Vec<&str> = ladder.rungs.iter().map(|r| r.player.as_str()).collect();
    assert_eq!(rungs, ["alphabeta:depth=1", installed.as_str(), "gen0000"]);
    assert_eq!(metrics[0].elo.iter().map(|e| e.opponent.as_str()).collect::<Vec<_>>(), rungs);
    assert!(metrics[0].elo.iter().all(|e| e.wins + e.draws + e.losses == 2), "{:?}", metrics[0].elo);
}

#[test]
fn bad_configs_are_refused_with_the_key_file_and_line() {
    let (run, config) =
        setup("bad-key", &micro_config("xiangqi", 4).replace("max_plies = 40\nshard", "max_plie = 40\nshard"));
    assert_fails(&train(&["--config", path(&config), "--run", path(&run)]), &["config.toml", "line", "max_plie"]);
    let (run, config) = setup("bad-game", &micro_config("shogi", 4));
    assert_fails(&train(&["--config", path(&config), "--run", path(&run)]), &["config.toml", "shogi"]);
    let (run, config) = setup("bad-value", &micro_config("xiangqi", 4).replace("blocks = 2", "blocks = 0"));
    assert_fails(&train(&["--config", path(&config), "--run", path(&run)]), &["config.toml", "blocks"]);
    let no_ladder = micro_config("xiangqi", 4).replace("ladder = [\"alphabeta:depth=1\", \"gen0000\"]", "ladder = []");
    let (run, config) = setup("no-ladder", &no_ladder);
    assert_fails(&train(&["--config", path(&config), "--run", path(&run)]), &["config.toml", "evaluation.ladder"]);
    let missing = std::env::temp_dir().join("xiangqi-zero-no-such-config.toml");
    assert_fails(&train(&["--config", path(&missing)]), &["no-such-config"]);
}

#[test]
fn corrupt_shards_are_skipped_and_foreign_nets_refused() {
    let (run, config) = setup("faults", &micro_config("xiangqi", 2));
    let output = train(&["--config", path(&config), "--run", path(&run), "--generations", "1"]);
    assert!(output.status.success(), "{}", text(&output.stderr));

    // A garbage shard: the next generation trains anyway and names it in a warning.
    let garbage = run.join("games/gen0001-garbage.npz");
    std::fs::write(&garbage, b"PK\x03\x04 truncated").unwrap();
    let output = train(&["--resume", "--run", path(&run), "--generations", "2"]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(text(&output.stderr).contains("gen0001-garbage.npz"), "{}", text(&output.stderr));

    // The run's config asks for another game or shape.
    let other = config.with_file_name("banqi.toml");
    std::fs::write(&other, micro_config("banqi", 2)).unwrap();
    assert_fails(
        &train(&["--config", path(&other), "--run", path(&run), "--resume"]),
        &["config.toml", "xiangqi", "banqi"],
    );

    // The newest net replaced by a Banqi net: refused, naming the file and the games.
    let dir = RunDir::new(&run);
    let banqi = Net::new(NetConfig::new::<Banqi>(2, 16), &burn::tensor::Device::flex());
    banqi.save(&dir.model(2)).unwrap();
    assert_fails(
        &train(&["--resume", "--run", path(&run), "--generations", "3"]),
        &["gen0002.safetensors", "banqi", "xiangqi"],
    );
    // A truncated net likewise.
    std::fs::write(dir.model(2), b"\x10\x00").unwrap();
    assert_fails(&train(&["--resume", "--run", path(&run), "--generations", "3"]), &["gen0002.safetensors"]);
}

#[test]
fn every_shipped_config_is_valid() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs");
    let mut names = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap().flatten() {
        let file = entry.file_name().to_string_lossy().into_owned();
        // An NNUE run's config (an `[nnue]` table) is read by its own loader.
        if let Some(nnue) = NnueConfig::load_if_nnue(&entry.path()).unwrap_or_else(|e| panic!("{e}")) {
            assert_eq!(format!("{}.toml", nnue.name), file);
            names.push(file);
            continue;
        }
        let config = Config::load(&entry.path()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(format!("{}.toml", config.name), file);
        assert!(file.starts_with(config.game.as_str()), "{file}");
        names.push(file);
    }
    names.sort();
    assert_eq!(
        names,
        [
            "banqi-small.toml",
            "banqi-tiny.toml",
            "xiangqi-gpu.toml",
            "xiangqi-nnue.toml",
            "xiangqi-small.toml",
            "xiangqi-tiny.toml"
        ]
    );
}

#[test]
fn ctrl_c_finishes_the_file_being_written_and_exits_0() {
    let (run, config) = setup("interrupt", &micro_config("xiangqi", 6));
    let child = binary()
        .args(["train", "--config", path(&config), "--run", path(&run), "--generations", "50"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(240);
    while !RunDir::new(&run).model(1).exists() {
        assert!(Instant::now() < deadline, "no generation 1 in time");
        std::thread::sleep(Duration::from_millis(20));
    }
    let interrupted = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(interrupted.success());
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    assert!(stdout.contains("stopped after generation") && stdout.contains("--resume"), "{stdout}");
    let dir = RunDir::new(&run);
    let generation = dir.read_state().unwrap().unwrap().generation;
    assert!(generation < 50);
    assert_eq!(read_metrics(&dir.metrics()).unwrap().len(), generation as usize);
    assert_shards_readable::<Xiangqi>(&run);
}

#[test]
fn a_time_limit_stops_the_run_as_ctrl_c_does() {
    let (run, config) = setup("minutes", &micro_config("xiangqi", 6));
    // Far more generations than 3 seconds hold: only the limit ends this run.
    let output =
        train(&["--config", path(&config), "--run", path(&run), "--generations", "100000", "--minutes", "0.05"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    assert!(stdout.contains("for at most 0.05 min") && stdout.contains("stopped after generation"), "{stdout}");
    assert!(text(&output.stderr).contains("time is up"), "{}", text(&output.stderr));
    let dir = RunDir::new(&run);
    let generation = dir.read_state().unwrap().unwrap().generation;
    assert_eq!(read_metrics(&dir.metrics()).unwrap().len(), generation as usize);
    for minutes in ["0", "-1", "soon", "NaN"] {
        let (run, config) = setup("bad-minutes", &micro_config("xiangqi", 6));
        let output = train(&["--config", path(&config), "--run", path(&run), &format!("--minutes={minutes}")]);
        assert_fails(&output, &["--minutes", "minutes above 0"]);
        assert!(!run.exists(), "{minutes}: a run was started");
    }
}

#[test]
fn a_run_directorys_config_naming_renamed_keys_and_removed_ones_at_their_defaults_still_loads() {
    // The config.toml of a long run started before the keys were removed.
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/xiangqi-long-config.toml");
    let text = std::fs::read_to_string(&fixture).unwrap();
    let (config, notes) = Config::parse(&text, "config.toml").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        (
            config.name.as_str(),
            config.search.rules_prior,
            config.run.bootstrap_generations,
            config.run.bootstrap_settled
        ),
        ("xiangqi-long", 0.5, 6, true)
    );
    assert_eq!(notes[0], "`[run] bootstrap_quiescence` is now called `bootstrap_settled`, and read as such");
    let removed = ["teacher_games", "residual_policy", "generation_anneal", "root_value_horizon", "value_loss_weight"];
    assert_eq!(notes.len(), 1 + removed.len(), "{notes:?}");
    for (note, key) in notes[1..].iter().zip(removed) {
        assert!(note.contains(&format!("{key}` was removed")) && note.ends_with("was the default, ignored"), "{note}");
    }
    // Written out again (as a resumed run rewrites it), it names none of them.
    let (again, notes) = Config::parse(&config.to_toml().unwrap(), "config.toml").unwrap();
    assert_eq!((again, notes), (config, Vec::<String>::new()));
}

#[test]
fn a_run_resumes_past_a_removed_key_at_its_default_but_not_past_one_it_relied_on() {
    let (run, config) = setup("removed", &micro_config("xiangqi", 4).replace("every = 1", "every = 0"));
    let output = train(&["--config", path(&config), "--run", path(&run), "--generations", "1"]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let dir = RunDir::new(&run);
    let written = std::fs::read_to_string(dir.config()).unwrap();
    let with_anneal = |value: &str| written.replace("[train]\n", &format!("[train]\ngeneration_anneal = {value}\n"));

    std::fs::write(dir.config(), with_anneal("1.0")).unwrap();
    let output = train(&["--resume", "--run", path(&run), "--generations", "2"]);
    let stderr = text(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let note = "`[train] generation_anneal` was removed; its value 1.0 was the default, ignored";
    assert_eq!(stderr.matches(note).count(), 1, "{stderr}");
    assert_eq!(dir.read_state().unwrap().unwrap().generation, 2);
    assert!(!std::fs::read_to_string(dir.config()).unwrap().contains("generation_anneal"));

    std::fs::write(dir.config(), with_anneal("0.1")).unwrap();
    let output = train(&["--resume", "--run", path(&run), "--generations", "3"]);
    assert_fails(&output, &["config.toml", "`[train] generation_anneal` was removed", "relies on it", "0.1"]);
    assert_eq!(dir.read_state().unwrap().unwrap().generation, 2);
}

/// Every tensor of the net in `file`, in the order the net holds them.
fn tensors_of(file: &Path) -> Vec<Vec<f32>> {
    use burn::store::ModuleSnapshot;
    let net = Net::load::<Xiangqi>(file, None, &burn::tensor::Device::flex()).unwrap();
    let values = |t: &_| burn::store::bridge::to_data(t).unwrap().try_into_vec::<f32>().unwrap();
    net.collect(None, None, false).iter().map(values).collect()
}

#[test]
fn averaged_generations_publish_the_mean_and_resume_from_the_trainers_own() {
    let config = micro_config("xiangqi", 4).replace("window_min = 200", "window_min = 200\naverage_generations = 2");
    let (run, config) = setup("average", &config.replace("every = 1", "every = 0"));
    let output = train(&["--config", path(&config), "--run", path(&run), "--generations", "3"]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let output = train(&["--resume", "--run", path(&run), "--generations", "4"]);
    assert!(output.status.success(), "{}", text(&output.stderr));

    let dir = RunDir::new(&run);
    assert!(!dir.trainer_model(0).exists(), "the random net is no mean");
    // Generation 1 has no trained generation before it: its net is the trainer's own.
    assert_eq!(tensors_of(&dir.model(1)), tensors_of(&dir.trainer_model(1)));
    for g in 2..=4 {
        let (before, own, published) =
            (tensors_of(&dir.trainer_model(g - 1)), tensors_of(&dir.trainer_model(g)), tensors_of(&dir.model(g)));
        assert_ne!(before, own, "generation {g} trained");
        for ((a, b), mean) in before.iter().zip(&own).zip(&published) {
            for ((a, b), mean) in a.iter().zip(b).zip(mean) {
                assert!(
                    (mean - (a + b) / 2.0).abs() <= 1e-6 * (1.0 + mean.abs()),
                    "generation {g}: {mean} ≠ ({a} + {b}) / 2"
                );
            }
        }
    }
}

/// The micro config at `config` with a 3×24 net and no random first net on its ladder,
/// written beside it as `larger.toml`.
fn larger_config(config: &Path) -> PathBuf {
    let larger = config.with_file_name("larger.toml");
    let text = std::fs::read_to_string(config).unwrap();
    let text = text.replace("blocks = 2\nchannels = 16", "blocks = 3\nchannels = 24").replace(", \"gen0000\"", "");
    std::fs::write(&larger, text).unwrap();
    larger
}

#[test]
fn a_run_from_a_trained_net_goes_on_from_its_generation_and_hours() {
    let (first, config) = setup("from", &micro_config("xiangqi", 4).replace("every = 1", "every = 0"));
    let output = train(&["--config", path(&config), "--run", path(&first), "--generations", "2"]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let net = first.parent().unwrap().join("net.safetensors");
    let output = binary().args(["export", "--checkpoint", path(&first), "--out", path(&net)]).output().unwrap();
    assert!(output.status.success(), "{}", text(&output.stderr));
    let hours = read_metrics(&RunDir::new(&first).metrics()).unwrap()[1].hours;

    // A ladder with the random first net cannot rate a run that has none: refused before
    // anything is written, so that the same command with the ladder mended starts it.
    let second = first.with_file_name("second");
    let from = ["--config", path(&config), "--run", path(&second), "--from", path(&net), "--generations", "4"];
    assert_fails(&train(&from), &["gen0000", "trained"]);
    assert!(RunDir::new(&second).read_state().unwrap().is_none());
    let ladder = std::fs::read_to_string(&config).unwrap().replace(", \"gen0000\"", "");
    std::fs::write(&config, ladder).unwrap();
    let output = train(&from);
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", text(&output.stderr));
    assert!(stdout.contains("gen0003:") && stdout.contains("gen0004:") && !stdout.contains("gen0001:"), "{stdout}");

    // Generation 2 of the new run is the net it started from; its generations 3 and 4 are
    // the net's own games (no bootstrap), with the hours counted on from the net's.
    let dir = RunDir::new(&second);
    assert_eq!(tensors_of(&dir.model(2)), tensors_of(&net));
    assert!(!dir.model(0).exists() && !dir.model(1).exists());
    let metrics = read_metrics(&dir.metrics()).unwrap();
    assert_eq!(metrics.iter().map(|m| (m.generation, m.bootstrap)).collect::<Vec<_>>(), [(3, false), (4, false)]);
    assert!(metrics[0].hours > hours, "{} after {hours}", metrics[0].hours);
    // It trains only once its window holds `window_min` (200) samples.
    assert!(metrics.iter().all(|m| (m.train_steps == 0) == (m.window_samples < 200)), "{metrics:?}");
    let state = dir.read_state().unwrap().unwrap();
    assert_eq!((state.first, state.generation), (2, 4));

    // It starts runs only, and of its own shape or a larger one, never a smaller.
    assert_fails(&train(&from), &["--from starts a new run", "second"]);
    let third = first.with_file_name("third").display().to_string();
    assert_fails(&train(&["--config", path(&config), "--run", &third, "--from", "shipped"]), &["4×32", "2×16"]);

    // A config of a larger trunk grows the net first, and the grown net plays on.
    let larger = larger_config(&config);
    let fourth = first.with_file_name("fourth");
    let output =
        train(&["--config", path(&larger), "--run", path(&fourth), "--from", path(&net), "--generations", "3"]);
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", text(&output.stderr));
    assert!(stdout.contains("2×16 net") && stdout.contains("grows to 3×24") && stdout.contains("gen0003:"), "{stdout}");
    let grown = Net::load::<Xiangqi>(&RunDir::new(&fourth).model(2), None, &burn::tensor::Device::flex()).unwrap();
    assert_eq!(grown.config, NetConfig::new::<Xiangqi>(3, 24));

    // A config with the reply and soft policies' heads goes on from the net trained without
    // them, the net's other weights as they were.
    let reply = config.with_file_name("reply.toml");
    let toml = std::fs::read_to_string(&config)
        .unwrap()
        .replace("[network]\n", "[network]\nreply_policy = true\nsoft_policy = true\n");
    std::fs::write(&reply, toml).unwrap();
    let fifth = first.with_file_name("fifth");
    let output = train(&["--config", path(&reply), "--run", path(&fifth), "--from", path(&net), "--generations", "3"]);
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", text(&output.stderr));
    assert_eq!(stdout.matches("goes on with a fresh one").count(), 2, "{stdout}");
    assert!(stdout.contains("gen0003:"), "{stdout}");
    let device = burn::tensor::Device::flex();
    let started = Net::load::<Xiangqi>(&RunDir::new(&fifth).model(2), None, &device).unwrap();
    assert_eq!(started.config, NetConfig::new::<Xiangqi>(2, 16).with_reply_policy(true).with_soft_policy(true));
    let trained = tensors_of(&net);
    let kept = tensors_of(&RunDir::new(&fifth).model(2));
    assert!(trained.iter().all(|tensor| kept.contains(tensor)), "the trained net's weights changed");
}

#[test]
fn a_run_from_another_runs_games_trains_a_larger_net_on_them_first() {
    let (first, config) = setup("games-from", &micro_config("xiangqi", 4).replace("every = 1", "every = 0"));
    let output = train(&["--config", path(&config), "--run", path(&first), "--generations", "2"]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let hours = read_metrics(&RunDir::new(&first).metrics()).unwrap()[1].hours;
    let shards = assert_shards_readable::<Xiangqi>(&first);

    // A 3×24 net, no random first net on its ladder: it goes on from generation 2.
    let larger = larger_config(&config);
    let second = first.with_file_name("second");
    let args = ["--config", path(&larger), "--run", path(&second), "--games-from", path(&first), "--generations", "3"];
    let output = train(&args);
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", text(&output.stderr));
    assert!(stdout.contains(&format!("({shards} shards copied)")), "{stdout}");
    assert!(stdout.contains("gen0003:") && !stdout.contains("gen0001:") && !stdout.contains("gen0002:"), "{stdout}");

    // Its generation 2 is a net of its own shape, trained on the copied games first, and
    // generation 3 its own games, no bootstrap.
    assert!(stdout.contains("  trained ") && !stdout.contains("trained 0 steps"), "{stdout}");
    let dir = RunDir::new(&second);
    let device = burn::tensor::Device::flex();
    let net = Net::load::<Xiangqi>(&dir.model(2), None, &device).unwrap();
    assert_eq!(net.config, NetConfig::new::<Xiangqi>(3, 24));
    assert!(!dir.model(0).exists() && !dir.model(1).exists());
    let names = |run: &Path| -> Vec<String> {
        let files = std::fs::read_dir(run.join("games")).unwrap().flatten();
        files.map(|f| f.file_name().to_string_lossy().into_owned()).filter(|n| n.ends_with(".npz")).collect()
    };
    let copied = names(&second);
    assert!(names(&first).iter().all(|name| copied.contains(name)), "{copied:?}");
    assert!(assert_shards_readable::<Xiangqi>(&second) > shards, "generation 3's games added");
    let metrics = read_metrics(&dir.metrics()).unwrap();
    assert_eq!(metrics.iter().map(|m| (m.generation, m.bootstrap)).collect::<Vec<_>>(), [(3, false)]);
    assert!(metrics[0].hours > hours, "{} after {hours}", metrics[0].hours);
    let state = dir.read_state().unwrap().unwrap();
    assert_eq!((state.first, state.generation), (2, 3));

    // It starts runs only, from runs of the same game, and not with --from.
    assert_fails(&train(&args), &["--games-from starts a new run", "second"]);
    let third = first.with_file_name("third");
    let banqi = config.with_file_name("banqi.toml");
    let banqi_text = std::fs::read_to_string(&larger).unwrap().replace("game = \"xiangqi\"", "game = \"banqi\"");
    std::fs::write(&banqi, banqi_text).unwrap();
    let from_xiangqi = ["--config", path(&banqi), "--run", path(&third), "--games-from", path(&first)];
    assert_fails(&train(&from_xiangqi), &["xiangqi run", "banqi net"]);
    let empty = first.with_file_name("empty");
    let from_nothing = ["--config", path(&larger), "--run", path(&third), "--games-from", path(&empty)];
    assert_fails(&train(&from_nothing), &["holds no run", "empty"]);
    let both = ["--config", path(&larger), "--run", path(&third), "--games-from", path(&first), "--from", "shipped"];
    assert!(!train(&both).status.success());
}

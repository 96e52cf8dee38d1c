//! Exporting a net: the file loads back to the same outputs with its metadata; damaged,
//! foreign or re-encoded files are refused in one line naming the file and the problem;
//! `xiangqi-zero export` on a run directory.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, UNIX_EPOCH};

use burn::tensor::Device;
use xiangqi_zero::date::utc_timestamp;
use xiangqi_zero::game::banqi::Banqi;
use xiangqi_zero::game::xiangqi::Xiangqi;
use xiangqi_zero::mcts::PlaySettings;
use xiangqi_zero::nn::{CpuNet, Encoding, Net, NetConfig, NetInfo, ENCODING_VERSION};
use xiangqi_zero::players::{Playable, PlayerSpec};
use xiangqi_zero::train::{append_metrics, export, GenerationMetrics, NetFormat, RunDir, RunState};

const TRAINING_CONFIG: &str = "name = \"tiny\"\ngame = \"xiangqi\"\n[network]\nblocks = 1\nchannels = 8\n\
                               [search]\nquiet_leaves = true\nrules_prior = 0.5\nrules_value = 0.25\n";

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xiangqi-zero-export-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A run directory under `dir` whose newest net (generation 3, at 1.5 hours of training)
/// is a random 1×8 net of `G`.
fn run_dir<G: Encoding>(dir: &Path) -> (RunDir, Net) {
    let run = RunDir::new(dir.join("run"));
    run.create().unwrap();
    let net = Net::new(NetConfig::new::<G>(1, 8), &Device::flex());
    for generation in [0, 2, 3] {
        net.save(&run.model(generation)).unwrap();
    }
    run.write_state(&RunState { generation: 3, ..RunState::default() }).unwrap();
    run.write_config(TRAINING_CONFIG).unwrap();
    for (generation, hours) in [(2, 1.0), (3, 1.5)] {
        append_metrics(&run.metrics(), &GenerationMetrics { generation, hours, ..GenerationMetrics::default() })
            .unwrap();
    }
    (run, net)
}

/// The policy and value outputs of `net` on a few positions of `G` (the start and the
/// positions after the first legal moves, chance resolved by its first outcome).
fn outputs<G: Encoding>(net: &Net) -> (Vec<f32>, Vec<f32>) {
    let mut positions = vec![G::start()];
    let mut moves = Vec::new();
    let mut outcomes = Vec::new();
    for _ in 0..4 {
        let mut game = positions.last().unwrap().clone();
        game.legal_moves(&mut moves);
        game.play(moves[moves.len() / 2]);
        while game.is_chance() {
            game.chance_outcomes(&mut outcomes);
            game.apply_outcome(outcomes[0].0);
        }
        positions.push(game);
    }
    let mut input = vec![0.0; positions.len() * G::INPUT_SIZE];
    for (game, planes) in positions.iter().zip(input.chunks_exact_mut(G::INPUT_SIZE)) {
        game.encode(planes);
    }
    let (mut policy, mut value) = (vec![0.0; positions.len() * G::POLICY_SIZE], vec![0.0; positions.len() * 3]);
    CpuNet::new(net).forward(&input, positions.len(), &mut policy, &mut value);
    (policy, value)
}

fn round_trip<G: Playable>() {
    let dir = scratch(G::NAME);
    let (run, net) = run_dir::<G>(&dir);
    let out = dir.join("exported.safetensors");
    let info = export(
        run.root(),
        None,
        PlaySettings::default(),
        Some("abc1234".to_string()),
        || None,
        &out,
        NetFormat::Safetensors,
    )
    .unwrap()
    .info;
    assert_eq!(info, NetInfo::read(&out).unwrap());
    assert_eq!(info.config, net.config);
    assert_eq!(info.encoding_version, Some(ENCODING_VERSION));
    let p = &info.provenance;
    assert_eq!(
        (p.run.as_deref(), p.generation, p.hours, p.commit.as_deref()),
        (Some("tiny"), Some(3), Some(1.5), Some("abc1234"))
    );
    assert_eq!(p.play.unwrap().to_string(), "quiet_leaves=1,rules_prior=0.5,rules_value=0.25");
    assert_eq!(p.training_config.as_deref(), Some(TRAINING_CONFIG));
    let date = info.provenance.exported.clone().unwrap();
    assert!(date.len() == 20 && date.starts_with("20") && &date[10..11] == "T" && date.ends_with('Z'), "{date}");
    let loaded = Net::load::<G>(&out, Some(net.config), &Device::flex()).unwrap();
    assert_eq!(outputs::<G>(&loaded), outputs::<G>(&net));
    // A net file of the run gives the same provenance; `train`'s own file stays loadable.
    let again = export(
        &run.model(3),
        None,
        PlaySettings::default(),
        None,
        || None,
        &dir.join("again.safetensors"),
        NetFormat::Safetensors,
    )
    .unwrap()
    .info;
    assert_eq!(
        (again.provenance.generation, again.provenance.training_config),
        (Some(3), info.provenance.training_config.clone())
    );
    assert!(G::player(&format!("net:{}", run.model(3).display()).parse::<PlayerSpec>().unwrap(), 0).is_ok());
    // An earlier generation by number, with its own hours; a generation of a net file is refused.
    let second = export(
        run.root(),
        Some(2),
        PlaySettings::default(),
        None,
        || None,
        &dir.join("second.safetensors"),
        NetFormat::Safetensors,
    )
    .unwrap()
    .info;
    assert_eq!((second.provenance.generation, second.provenance.hours), (Some(2), Some(1.0)));
    let error = export(
        &out,
        Some(2),
        PlaySettings::default(),
        None,
        || None,
        &dir.join("x.safetensors"),
        NetFormat::Safetensors,
    )
    .unwrap_err()
    .to_string();
    assert!(error.contains("a generation is chosen from a run directory"), "{error}");
    // The exported net plays with the rules' help it records, unless the spec says otherwise.
    let recorded = G::player(&format!("net(sims=8):{}", out.display()).parse::<PlayerSpec>().unwrap(), 0).unwrap();
    assert_eq!(
        recorded.name(),
        format!("net(sims=8,quiet_leaves=1,rules_prior=0.5,rules_value=0.25):{}", out.display())
    );
    let spec = format!("net(sims=8,rules_prior=0,quiet_leaves=0):{}", out.display());
    let overridden = G::player(&spec.parse::<PlayerSpec>().unwrap(), 0).unwrap();
    assert_eq!(overridden.name(), format!("net(sims=8,rules_value=0.25):{}", out.display()));
    // A measured exploration constant goes into the file beside the help, and plays.
    let tuned = dir.join("tuned.safetensors");
    let cpuct = "cpuct=0.8".parse().unwrap();
    let info = export(&out, None, cpuct, None, || None, &tuned, NetFormat::Safetensors).unwrap().info;
    assert_eq!(info.provenance.play.unwrap().to_string(), "cpuct=0.8,quiet_leaves=1,rules_prior=0.5,rules_value=0.25");
    let player = G::player(&format!("net(sims=8):{}", tuned.display()).parse::<PlayerSpec>().unwrap(), 0).unwrap();
    assert_eq!(
        player.name(),
        format!("net(sims=8,cpuct=0.8,quiet_leaves=1,rules_prior=0.5,rules_value=0.25):{}", tuned.display())
    );
    let plain = G::player(&format!("net(sims=8):{}", run.model(3).display()).parse::<PlayerSpec>().unwrap(), 0);
    assert_eq!(plain.unwrap().name(), format!("net(sims=8):{}", run.model(3).display()));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn an_exported_xiangqi_net_loads_back_the_same() {
    round_trip::<Xiangqi>();
}

#[test]
fn an_exported_banqi_net_loads_back_the_same() {
    round_trip::<Banqi>();
}

#[test]
fn export_dates_are_iso_8601_utc() {
    let leap_day = UNIX_EPOCH + Duration::from_secs(951_782_400 + 3661);
    assert_eq!(utc_timestamp(leap_day), "2000-02-29T01:01:01Z");
    assert_eq!(utc_timestamp(UNIX_EPOCH), "1970-01-01T00:00:00Z");
}

/// Rewrites the metadata of the safetensors file at `path` with `edit`.
fn edit_metadata(path: &Path, edit: impl FnOnce(&mut serde_json::Map<String, serde_json::Value>)) {
    let bytes = std::fs::read(path).unwrap();
    let length = u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize;
    let mut header: serde_json::Map<String, serde_json::Value> = serde_json::from_slice(&bytes[8..8 + length]).unwrap();
    edit(header["__metadata__"].as_object_mut().unwrap());
    let header = serde_json::to_vec(&header).unwrap();
    let mut out = (header.len() as u64).to_le_bytes().to_vec();
    out.extend(header);
    out.extend(&bytes[8 + length..]);
    std::fs::write(path, out).unwrap();
}

/// Loading `path` as a Xiangqi net fails, through `Net::load` and the `net:` player
/// alike, in one line naming the file and containing `needle`.
fn assert_refused(path: &Path, needle: &str) {
    let errors = [
        Net::load::<Xiangqi>(path, None, &Device::flex()).err().map(|e| e.to_string()),
        Xiangqi::player(&format!("net:{}", path.display()).parse().unwrap(), 0).err(),
    ];
    for error in errors {
        let error = error.unwrap_or_else(|| panic!("{} loaded", path.display()));
        assert!(!error.contains('\n') && error.contains(&path.display().to_string()), "{error}");
        assert!(error.contains(needle), "`{needle}` not in: {error}");
    }
}

#[test]
fn damaged_foreign_and_re_encoded_files_are_refused_in_one_line() {
    let dir = scratch("damaged");
    let (run, _) = run_dir::<Xiangqi>(&dir);
    let good = dir.join("good.safetensors");
    export(run.root(), None, PlaySettings::default(), None, || None, &good, NetFormat::Safetensors).unwrap();
    let bytes = std::fs::read(&good).unwrap();
    let length = u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize;
    let file = |name: &str, contents: &[u8]| {
        let path = dir.join(name);
        std::fs::write(&path, contents).unwrap();
        path
    };
    assert_refused(&file("truncated.safetensors", &bytes[..bytes.len() - 100]), "truncated");
    assert_refused(&file("header-cut.safetensors", &bytes[..length / 2]), "truncated safetensors header");
    assert_refused(&file("empty.safetensors", b""), "too short");
    assert_refused(run.root(), "it is a directory, not a net file");
    let garbage: Vec<u8> = (0..5000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    assert_refused(&file("garbage.safetensors", &garbage), "not a safetensors file");
    // Bytes flipped in the header: its JSON broken, or an offset changed.
    let mut flipped = bytes.clone();
    flipped[8] ^= 0xff;
    assert_refused(&file("flipped.safetensors", &flipped), "bad header");
    let text = String::from_utf8_lossy(&bytes[8..8 + length]).into_owned();
    let at = 8 + text.find("\"data_offsets\":[").unwrap() + "\"data_offsets\":[".len();
    let mut flipped = bytes.clone();
    flipped[at] = if flipped[at] == b'9' { b'8' } else { b'9' };
    assert_refused(&file("offset.safetensors", &flipped), "offset");
    assert_refused(&file("missing.safetensors", &bytes).with_file_name("nowhere.safetensors"), "cannot read");
    // Another game, another encoding; no recorded encoding is taken as the current one.
    let (banqi, _) = run_dir::<Banqi>(&dir.join("banqi"));
    assert_refused(&banqi.model(3), "is a banqi net, expected a xiangqi net");
    let re_encoded = file("re-encoded.safetensors", &bytes);
    let next = (ENCODING_VERSION + 1).to_string();
    edit_metadata(&re_encoded, |meta| {
        meta.insert("xiangqi-zero.encoding_version".into(), next.clone().into());
    });
    assert_refused(&re_encoded, &format!("is of encoding version {next}, expected version {ENCODING_VERSION}"));
    let unversioned = file("unversioned.safetensors", &bytes);
    edit_metadata(&unversioned, |meta| {
        meta.remove("xiangqi-zero.encoding_version");
    });
    assert_eq!(NetInfo::read(&unversioned).unwrap().encoding_version, None);
    assert!(Net::load::<Xiangqi>(&unversioned, None, &Device::flex()).is_ok());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn the_export_command_writes_a_file_and_prints_what_it_records() {
    let dir = scratch("cli");
    let (run, _) = run_dir::<Xiangqi>(&dir);
    let out = dir.join("net.safetensors");
    let binary = env!("CARGO_BIN_EXE_xiangqi-zero");
    let output = Command::new(binary).arg("export").arg("--checkpoint").arg(run.root()).arg("--out").arg(&out).output();
    let output = output.unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let needles = [
        "game: xiangqi",
        "shape: 1 blocks × 8 channels",
        "run: tiny",
        "generation: 3",
        "hours of training: 1.50",
        "trained by commit: ",
        "plays best with: net(quiet_leaves=1,rules_prior=0.5,rules_value=0.25)",
        "exported: 20",
        "    [network]",
    ];
    for needle in needles {
        assert!(stdout.contains(needle), "`{needle}` not in:\n{stdout}");
    }
    assert!(stdout.contains(&format!("encoding version: {ENCODING_VERSION}")), "{stdout}");
    let info = Command::new(binary).arg("export").arg("--info").arg(&out).output().unwrap();
    assert!(info.status.success());
    assert!(stdout.ends_with(&String::from_utf8_lossy(&info.stdout).into_owned()), "{stdout}");
    let missing = dir.join("no-such-run");
    let output = Command::new(binary).arg("export").arg("--checkpoint").arg(&missing).arg("--out").arg(&out).output();
    let output = output.unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("no-such-run") && !stderr.contains("panicked"), "{stderr}");
    std::fs::remove_dir_all(dir).unwrap();
}

/// Set to 1 to make the ONNX test fail, not skip, where python3 has no onnxruntime.
const REQUIRE_ONNX_VARIABLE: &str = "XZ_REQUIRE_ONNX_TEST";

#[test]
fn an_onnx_export_computes_the_same_logits_in_onnx_runtime() {
    let dir = scratch("onnx");
    // The shipped Xiangqi net (attention policy, piece counts, trained batch-norms) and a
    // random Banqi net with the dense policy head.
    let shipped = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/nets/xiangqi.safetensors");
    let (run, _) = run_dir::<Banqi>(&dir);
    for (checkpoint, name) in [(shipped, "xiangqi.onnx"), (run.root().to_path_buf(), "banqi.onnx")] {
        let out = dir.join(name);
        let output = Command::new(env!("CARGO_BIN_EXE_xiangqi-zero"))
            .args(["export", "--format", "onnx", "--checkpoint"])
            .arg(&checkpoint)
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        assert!(output.status.success(), "{stdout}{}", String::from_utf8_lossy(&output.stderr));
        assert!(out.is_file() && stdout.contains("game: "), "{stdout}");
        if stdout.contains("not checked: python3 with onnxruntime not found") {
            let required = std::env::var(REQUIRE_ONNX_VARIABLE).as_deref() == Ok("1");
            assert!(!required, "python3 has no onnxruntime — `pip install onnxruntime` (.ci/run does)");
            eprintln!("skipped: python3 has no onnxruntime — `pip install onnxruntime` to run this test");
            continue;
        }
        assert!(stdout.contains("checked in ONNX Runtime"), "{stdout}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}

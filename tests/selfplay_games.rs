//! Self-play end to end with a tiny random net: every shard read back holds whole games
//! whose samples replay the moves of the PGN written beside it (planes equal to the
//! encoding of the replayed positions), policies that are distributions over distinct
//! labels, and outcomes that agree with the PGN's result from each mover's view; without
//! `record_cheap`, the same games leave exactly their fully searched samples; the trainer's
//! reader of earlier games reads the records back; and a stop
//! flag set before the start plays nothing.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

use burn::tensor::Device;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use xiangqi_zero::game::banqi::Banqi;
use xiangqi_zero::game::xiangqi::{ImportedRecord, Rules, Xiangqi};
use xiangqi_zero::game::{Game, Player};
use xiangqi_zero::mcts::SearchConfig;
use xiangqi_zero::nn::{Encoding, Inference, Net, NetConfig, NetEvaluator};
use xiangqi_zero::selfplay::{
    play_games, read_shard, SampleShape, SelfPlayJob, SelfPlayProgress, SelfPlayReport, SelfPlaySettings,
};

/// A fresh directory for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xiangqi-zero-selfplay-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Red with two chariots against a lone general: games that end in a few dozen plies.
const LOPSIDED: &str = "4k4/9/9/9/9/9/9/9/R7R/3K5 w - - 0 1";

/// Plays `games` games of `G` with a random 1×8 net, a few simulations each move and
/// shards of about `shard_samples` samples, starting from one of `starts`; cheaply searched
/// moves become samples when `record_cheap`.
fn self_play<G: Encoding>(
    dir: &Path,
    games: u64,
    starts: Vec<G>,
    (max_plies, shard_samples): (usize, usize),
    record_cheap: bool,
    stop: bool,
) -> SelfPlayReport {
    // One test's self-play at a time: the device's generator that draws the weights, and
    // the threads the forward passes share, are the whole process's, and two tests that
    // compare the same games need them to themselves.
    static ALONE: Mutex<()> = Mutex::new(());
    let _alone = ALONE.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let device = Device::flex();
    device.seed(7);
    let net = Net::new(NetConfig::new::<G>(1, 8), &device);
    let evaluator = NetEvaluator::<G>::new(Inference::for_device(&net, &device));
    let search = SearchConfig {
        simulations: 8,
        cheap_simulations: Some(4),
        batch_size: 8,
        resign_threshold: None,
        ..SearchConfig::training()
    };
    let settings = SelfPlaySettings {
        threads: 2,
        parallel_games: 3,
        max_plies,
        shard_samples,
        record_cheap,
        ..SelfPlaySettings::default()
    };
    let job = SelfPlayJob {
        games,
        new_game: Arc::new(move |rng: &mut StdRng| starts.choose(rng).unwrap().clone()),
        out_dir: dir.to_path_buf(),
        prefix: "gen0001".to_string(),
        seed: 11,
    };
    let progress = SelfPlayProgress::new();
    let report = play_games(evaluator, &search, &settings, &job, &AtomicBool::new(stop), &progress).unwrap();
    let [games, samples, moves, _, _] = progress.snapshot();
    assert_eq!((games, samples, moves), (report.games, report.samples, report.moves));
    report
}

/// One game of a PGN file: its start and its move texts (as the game reads them).
struct PgnGame {
    start: String,
    moves: Vec<String>,
    result: String,
    /// Whether the game was cut off at the ply limit (`{max-plies}`).
    cut_off: bool,
}

/// The games of a PGN file as `GameRecord::to_pgn` writes them.
fn read_pgn(text: &str) -> Vec<PgnGame> {
    let mut games = Vec::new();
    for block in text.split("[Game ").skip(1) {
        let (tags, movetext) = block.split_once("\n\n").expect("tags, then movetext");
        let tag = |name: &str| {
            tags.lines().find_map(|line| line.strip_prefix(&format!("[{name} \"")).map(|v| v.trim_end_matches("\"]")))
        };
        let result = tag("Result").unwrap().to_string();
        let start = tag("FEN").unwrap_or("startpos").to_string();
        let cut_off = movetext.contains("{max-plies}");
        let movetext = movetext.split('{').next().unwrap();
        let moves = movetext
            .split_whitespace()
            .filter(|token| !token.ends_with('.'))
            // ICCS `H2-E2` back to `h2e2`; a revealed piece's letter keeps its case.
            .map(|token| match token.split_once(':') {
                Some((mv, revealed)) => format!("{}:{revealed}", mv.to_ascii_lowercase()),
                None => token.replace('-', "").to_ascii_lowercase(),
            })
            .collect();
        games.push(PgnGame { start, moves, result, cut_off });
    }
    games
}

/// Checks every shard in `dir` against its PGN; returns the shards, games and samples
/// found.
fn check_shards<G: Encoding>(dir: &Path) -> (usize, u64, usize) {
    let mut shards: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "npz"))
        .collect();
    shards.sort();
    assert!(!shards.is_empty(), "no shard in {}", dir.display());
    let (count, mut games, mut total) = (shards.len(), 0, 0);
    let mut planes = vec![0.0; G::INPUT_SIZE];
    let mut expected = vec![0.0; G::INPUT_SIZE];
    let mut outcomes = Vec::new();
    for path in shards {
        let name = path.file_name().unwrap().to_str().unwrap();
        assert!(name.starts_with("gen0001-"), "shard name {name}");
        // The writer's host and process, so that workers on other machines never collide.
        let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_default();
        let writer =
            format!("-{}-{}-", host.trim().replace(|c: char| !c.is_ascii_alphanumeric(), "-"), std::process::id());
        assert!(name.contains(&writer), "shard name {name}, written by {writer}");
        let samples = read_shard(&path, SampleShape::of::<G>()).unwrap();
        let pgn = read_pgn(&std::fs::read_to_string(path.with_extension("pgn")).unwrap());
        assert_eq!(pgn.len() as u64, samples.games(), "{name}: games in the PGN");
        let mut i = 0;
        for record in &pgn {
            let mut game = G::from_text(&record.start).unwrap();
            let red = if record.result == "1/2-1/2" { None } else { Some(record.result == "1-0") };
            for (ply, text) in record.moves.iter().enumerate() {
                let targets = samples.targets(i);
                assert_eq!(targets.ply as usize, ply, "{name}: sample {i} is ply {ply} of its game");
                samples.planes_into(i, &mut planes);
                game.encode(&mut expected);
                assert_eq!(planes, expected, "{name}: sample {i} is not the PGN's position");
                let (labels, probs) = samples.policy(i);
                let mut distinct = labels.to_vec();
                distinct.sort_unstable();
                distinct.dedup();
                assert_eq!(distinct.len(), labels.len(), "{name}: sample {i} repeats a label");
                assert!(probs.iter().all(|&p| p > 0.0), "{name}: sample {i} keeps a zero");
                let sum: f32 = probs.iter().sum();
                assert!((sum - 1.0).abs() < 1e-4, "{name}: sample {i}'s policy sums to {sum}");
                if record.cut_off {
                    // Cut off at the ply limit: no result to learn from.
                    assert_eq!(targets.outcome, [0.0; 3], "{name}: sample {i} of a game cut off");
                } else {
                    assert_eq!(targets.outcome.iter().filter(|&&v| v == 1.0).count(), 1, "{name}: outcome one-hot");
                    assert_eq!(targets.outcome.iter().sum::<f32>(), 1.0);
                }
                // The outcome from the mover's view, as the PGN's result says (Red is the
                // first player of Xiangqi; Banqi's colours are checked by alternation).
                if G::NAME == "xiangqi" && !record.cut_off {
                    let want = match red {
                        None => [0.0, 1.0, 0.0],
                        Some(red_won) if red_won == (game.to_move() == Player::First) => [1.0, 0.0, 0.0],
                        Some(_) => [0.0, 0.0, 1.0],
                    };
                    assert_eq!(targets.outcome, want, "{name}: sample {i}'s outcome");
                }
                if ply > 0 {
                    let mut previous = samples.targets(i - 1).outcome;
                    previous.reverse();
                    assert_eq!(targets.outcome, previous, "{name}: outcomes of plies {} and {ply}", ply - 1);
                }
                let (mv, revealed) = text.split_once(':').map_or((text.as_str(), None), |(m, o)| (m, Some(o)));
                game.play(game.parse_move(mv).unwrap());
                if let Some(revealed) = revealed {
                    game.chance_outcomes(&mut outcomes);
                    let outcome = outcomes.iter().find(|(o, _)| o.to_string() == revealed).unwrap().0;
                    game.apply_outcome(outcome);
                }
                assert!(!game.is_chance(), "{name}: a chance point left unresolved");
                // The reply target: the PGN's next move, its label seen from this sample's
                // side — the opponent's own label turned 180° on a Xiangqi board (whose input
                // turns with the side to move), the same cells on Banqi's.
                match record.moves.get(ply + 1) {
                    Some(next) => {
                        let next = game.parse_move(next.split(':').next().unwrap()).unwrap();
                        let (from, to) = G::label_cells()[game.move_label(next)];
                        let last = (G::HEIGHT * G::WIDTH - 1) as u8;
                        let seen = if G::NAME == "xiangqi" { (last - from, last - to) } else { (from, to) };
                        let reply = targets.reply.unwrap_or_else(|| panic!("{name}: sample {i} has no reply"));
                        assert_eq!(G::label_cells()[usize::from(reply)], seen, "{name}: sample {i}'s reply");
                    }
                    None => assert_eq!(targets.reply, None, "{name}: sample {i}, its game's last move, has a reply"),
                }
                i += 1;
            }
        }
        assert_eq!(i, samples.len(), "{name}: samples beyond the PGN's moves");
        games += pgn.len() as u64;
        total += samples.len();
    }
    (count, games, total)
}

#[test]
fn xiangqi_shards_hold_whole_games_matching_their_pgn() {
    let dir = temp_dir("xiangqi");
    let starts = vec![Xiangqi::start(), Xiangqi::from_text(LOPSIDED).unwrap()];
    let report = self_play(&dir, 6, starts, (60, 50), true, false);
    assert_eq!(report.games, 6);
    assert!(!report.stopped);
    assert_eq!(report.first_wins + report.draws + report.second_wins, 6);
    assert!(report.first_wins + report.second_wins > 0, "no decisive game to check outcomes on: {report:?}");
    let (shards, games, samples) = check_shards::<Xiangqi>(&dir);
    assert_eq!((games, samples as u64), (6, report.samples));
    // Two workers, each writing a shard once 50 samples wait: more than one shard each.
    assert!(shards > 2, "{shards} shards of {samples} samples");
    assert!((report.mean_plies * 6.0 - samples as f64).abs() < 1e-6, "{report:?}");
    // The records read back as an importer reads them: the same games, the lopsided
    // start's included.
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "pgn") {
            let text = std::fs::read_to_string(&path).unwrap();
            let (imported, written) = (ImportedRecord::read_all(&text).unwrap(), read_pgn(&text));
            assert_eq!(imported.len(), written.len(), "{}", path.display());
            for (imported, written) in imported.iter().zip(&written) {
                assert_eq!(imported.start(), written.start);
                let game = imported.replay_under(Rules::default()).unwrap();
                assert_eq!(game.moves().map(|mv| mv.to_string()).collect::<Vec<_>>(), written.moves);
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn banqi_shards_hold_whole_games_matching_their_pgn() {
    let dir = temp_dir("banqi");
    let report = self_play(&dir, 4, vec![Banqi::start()], (80, 1000), true, false);
    assert_eq!(report.games, 4);
    let (_, games, samples) = check_shards::<Banqi>(&dir);
    assert_eq!((games, samples as u64), (4, report.samples));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_stop_before_the_start_plays_and_writes_nothing() {
    let dir = temp_dir("stopped");
    let report = self_play(&dir, 4, vec![Xiangqi::start()], (60, 1), true, true);
    assert!(report.stopped);
    assert_eq!((report.games, report.samples, report.moves), (0, 0, 0));
    assert_eq!(std::fs::read_dir(&dir).map_or(0, |d| d.count()), 0, "files written");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A sample read back: its ply, whether it was fully searched, its planes and its policy
/// target (labels and shares), the floats as bits.
type SampleParts = (u32, bool, Vec<u32>, Vec<(u16, u32)>);

/// Every sample of the shards in `dir`, sorted.
fn all_samples(dir: &Path) -> Vec<SampleParts> {
    let mut all = Vec::new();
    let mut planes = vec![0.0; Xiangqi::INPUT_SIZE];
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "npz") {
            let samples = read_shard(&path, SampleShape::of::<Xiangqi>()).unwrap();
            for i in 0..samples.len() {
                samples.planes_into(i, &mut planes);
                let targets = samples.targets(i);
                let (labels, shares) = samples.policy(i);
                let policy = labels.iter().zip(shares).map(|(&label, share)| (label, share.to_bits())).collect();
                all.push((targets.ply, targets.full, planes.iter().map(|p| p.to_bits()).collect(), policy));
            }
        }
    }
    all.sort();
    all
}

#[test]
fn without_record_cheap_the_same_games_keep_only_their_full_searches() {
    let (every, full_only) = (temp_dir("record-cheap"), temp_dir("full-only"));
    let starts = vec![Xiangqi::start(), Xiangqi::from_text(LOPSIDED).unwrap()];
    let recorded = self_play(&every, 6, starts.clone(), (60, 50), true, false);
    let kept = self_play(&full_only, 6, starts, (60, 50), false, false);
    // The same games (the same seed), fewer samples: the full searches only.
    assert_eq!((kept.games, kept.moves, kept.mean_plies), (recorded.games, recorded.moves, recorded.mean_plies));
    let mut full = all_samples(&every);
    let cheap = full.len();
    full.retain(|(_, is_full, _, _)| *is_full);
    assert!(!full.is_empty() && full.len() < cheap, "{} of {cheap} samples fully searched", full.len());
    assert_eq!(all_samples(&full_only), full);
    assert_eq!(kept.samples, full.len() as u64);
    // Some games' first moves were cheap, and left no sample of ply 0; the shards still
    // count every game, as their PGN files hold them.
    let first_moves = full.iter().filter(|(ply, ..)| *ply == 0).count() as u64;
    assert!(first_moves < kept.games, "{first_moves} of {} games begin with a sample", kept.games);
    assert_eq!(games_in_shards(&full_only), kept.games);
    std::fs::remove_dir_all(&every).unwrap();
    std::fs::remove_dir_all(&full_only).unwrap();
}

/// The games the shards in `dir` count, each shard's count checked against its PGN file.
fn games_in_shards(dir: &Path) -> u64 {
    let mut games = 0;
    for path in std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()) {
        if path.extension().is_some_and(|e| e == "npz") {
            let count = read_shard(&path, SampleShape::of::<Xiangqi>()).unwrap().games();
            let pgn = read_pgn(&std::fs::read_to_string(path.with_extension("pgn")).unwrap());
            assert_eq!(count, pgn.len() as u64, "{}", path.display());
            games += count;
        }
    }
    games
}

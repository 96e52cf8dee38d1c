//! The nets that ship in the binary (`assets/nets/<game>.safetensors`): each loads and plays
//! a few moves through the `net` spec with the rules' help it records, and records where it
//! comes from — so that a change of the net format cannot silently strand one.
//! `play --black net` needs no file beside the binary, in either game.

use std::path::Path;
use std::process::Command;

use xiangqi_zero::game::banqi::Banqi;
use xiangqi_zero::game::xiangqi::Xiangqi;
use xiangqi_zero::nn::{shipped_net, NetInfo};
use xiangqi_zero::players::{Playable, PlayerSpec};
use xiangqi_zero::search::Limits;
use xiangqi_zero::train::config::Config;

/// The most a shipped net may weigh.
const MAX_BYTES: usize = 8 << 20;
/// The plies each shipped net plays.
const PLIES: usize = 6;

/// Checks the net shipped for `G`.
fn check_shipped<G: Playable>() {
    let spec: PlayerSpec = "net(sims=16)".parse().unwrap();
    let bytes = shipped_net(G::NAME).unwrap_or_else(|| panic!("a {} net ships", G::NAME));
    // The binary embeds the committed file, small enough to ship.
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("assets/nets/{}.safetensors", G::NAME));
    assert_eq!(std::fs::read(&file).unwrap(), bytes, "{}", file.display());
    assert!(bytes.len() <= MAX_BYTES, "{} bytes", bytes.len());

    // Where it comes from, every part recorded and the parts agreeing with its training config.
    let info = NetInfo::parse(&file, bytes).unwrap();
    assert_eq!(info.config.game, G::NAME);
    let p = &info.provenance;
    let (training, _removed_keys) =
        Config::parse(p.training_config.as_deref().expect("its training config"), "shipped").unwrap();
    assert_eq!(p.run.as_deref(), Some(training.name.as_str()));
    // The settings it plays best with: the rules' help it trained with, or what a match
    // measured better (`export --play`); its player takes them (below).
    let play = p.play.expect("the settings it plays best with");
    assert!(p.generation.is_some() && p.exported.is_some(), "{p:?}");
    assert!(p.hours.is_some_and(|hours| hours >= 0.0), "{p:?}");
    let commit = p.commit.as_deref().expect("the commit that trained it");
    assert!(commit.len() >= 7 && commit.chars().all(|c| c.is_ascii_hexdigit()), "{commit}");

    // It plays with the help it records, legal moves from the start.
    let mut player = G::player(&spec, 1).unwrap();
    let help = play.to_string();
    let options = if help.is_empty() { "sims=16".to_string() } else { format!("sims=16,{help}") };
    assert_eq!(player.name(), format!("net({options})"));
    let mut game = G::start();
    let (mut legal, mut outcomes) = (Vec::new(), Vec::new());
    for _ in 0..PLIES {
        let report = player.think(&game, &Limits::default(), &mut |_| {}).unwrap();
        let best = report.best.expect("a move");
        game.legal_moves(&mut legal);
        assert!(legal.contains(&best));
        game.play(best);
        while game.is_chance() {
            game.chance_outcomes(&mut outcomes);
            game.apply_outcome(outcomes[0].0);
        }
    }
}

#[test]
fn each_shipped_net_plays_and_records_where_it_comes_from() {
    check_shipped::<Xiangqi>();
    check_shipped::<Banqi>();
}

#[test]
fn play_net_needs_no_file_in_either_game() {
    let play = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_xiangqi-zero")).arg("play").args(args).output().expect("the binary runs")
    };
    let output = play(&["--red", "net(sims=8)", "--black", "net", "--max-plies", "2", "--plain"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(stdout.lines().filter(|line| line.contains(") plays ")).count(), 2, "{stdout}");
    assert_eq!(stdout.lines().last(), Some("result: 1/2-1/2, draw (ply limit of 2 reached)"), "{stdout}");
    let output = play(&["--game", "banqi", "--first", "net(sims=8)", "--second", "net", "--max-plies", "2", "--plain"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(stdout.lines().last(), Some("result: 1/2-1/2, draw (ply limit of 2 reached)"), "{stdout}");
}

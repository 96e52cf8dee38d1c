//! The `mcts:` player served as a UCI engine: `go nodes` counts simulations, `go
//! movetime` and `go infinite` … `stop` bound it by time.

mod common;

use std::io::{BufRead, BufReader, Cursor, Write};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};

use common::last_info;
use xiangqi_zero::engine::serve;
use xiangqi_zero::game::xiangqi::Xiangqi;
use xiangqi_zero::game::Game;
use xiangqi_zero::players::{Playable, PlayerSpec};

/// What an engine serving `mcts:sims=300` prints for `script`.
fn engine_output(script: &str) -> String {
    let spec: PlayerSpec = "mcts:sims=300,eval=material".parse().unwrap();
    let printed = Arc::new(Mutex::new(Vec::<u8>::new()));
    serve(Xiangqi::player(&spec, 1).unwrap(), Cursor::new(script.to_string()), printed.clone()).unwrap();
    let text = String::from_utf8(printed.lock().unwrap().clone()).unwrap();
    text
}

/// The move of the `bestmove` line, checked legal after `h2e2`.
fn legal_bestmove(output: &str) -> String {
    let best = output.lines().rev().find_map(|l| l.strip_prefix("bestmove ")).expect("a bestmove line");
    let mut game = Xiangqi::start();
    game.play(game.parse_move("h2e2").unwrap());
    assert!(game.parse_move(best).is_ok(), "{output}");
    best.to_string()
}

#[test]
fn go_nodes_counts_simulations() {
    let output = engine_output("uci\nisready\nposition startpos moves h2e2\ngo nodes 250\n");
    legal_bestmove(&output);
    let info = output.lines().rev().find(|l| l.starts_with("info depth")).expect("an info line");
    assert!(info.contains(" nodes 250 ") && info.contains("score cp") && info.contains(" pv "), "{info}");
}

#[test]
fn go_movetime_and_infinite_are_bounded_by_time() {
    let started = std::time::Instant::now();
    let output = engine_output("uci\nposition startpos moves h2e2\ngo movetime 300\n");
    legal_bestmove(&output);
    let elapsed = started.elapsed().as_millis() as u64;
    // The time limit replaces the spec's 300 simulations (a search that stopped at them
    // stopped before its time, however fast or loaded the machine), and the search stops
    // near it: the bound is far beyond any scheduling delay, far short of a search that
    // ignored it.
    let (nodes, time) = (last_info(&output, "nodes"), last_info(&output, "time"));
    assert!(nodes != 300 || time >= 300, "{output}");
    assert!(time <= elapsed && elapsed < 300 + 10_000, "{elapsed} ms: {output}");
    // Told to stop at once, it answers with the little it searched.
    let output = engine_output("uci\nposition startpos moves h2e2\ngo infinite\nisready\nstop\nquit\n");
    legal_bestmove(&output);
    assert!(output.contains("readyok"), "{output}");
}

#[test]
fn gumbel_search_by_time_plans_its_halving_for_the_configured_simulations() {
    let spec: PlayerSpec = "mcts:sims=64,root=gumbel".parse().unwrap();
    let mut player = Xiangqi::player(&spec, 1).unwrap();
    let limits = xiangqi_zero::search::Limits::movetime(std::time::Duration::from_millis(100));
    let report = player.think(&Xiangqi::start(), &limits, &mut |_| {}).unwrap();
    assert!(report.nodes > 64, "{}", report.nodes);
    assert!(Xiangqi::start().parse_move(&report.best.unwrap().to_string()).is_ok());
}

/// An engine process serving `mcts:sims=300`, driven a command at a time as a GUI drives it.
struct Gui {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    stdout: BufReader<std::process::ChildStdout>,
}

impl Gui {
    fn start() -> Gui {
        let mut child = Command::new(env!("CARGO_BIN_EXE_xiangqi-zero"))
            .args(["uci", "--player", "mcts:sims=300,eval=material"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        let (stdin, stdout) = (child.stdin.take().unwrap(), BufReader::new(child.stdout.take().unwrap()));
        Gui { child, stdin, stdout }
    }

    /// Sends `commands`, then reads up to the `bestmove` and returns the `nodes`, `depth`
    /// and `nps` of the last `info` line before it.
    fn search(&mut self, commands: &str) -> (u64, u64, u64) {
        self.stdin.write_all(commands.as_bytes()).unwrap();
        let mut last = None;
        loop {
            let mut line = String::new();
            assert!(self.stdout.read_line(&mut line).unwrap() > 0, "the engine ended");
            if line.starts_with("info depth") {
                let words: Vec<&str> = line.split_whitespace().collect();
                let field = |key: &str| words[words.iter().position(|w| *w == key).unwrap() + 1].parse().unwrap();
                last = Some((field("nodes"), field("depth"), field("nps")));
            } else if line.starts_with("bestmove") {
                return last.expect("an info line before the bestmove");
            }
        }
    }
}

impl Drop for Gui {
    fn drop(&mut self) {
        let _ = self.stdin.write_all(b"quit\n");
        let _ = self.child.wait();
    }
}

#[test]
fn a_search_on_a_full_kept_tree_reports_the_visits_it_rests_on() {
    let mut gui = Gui::start();
    // 200 000 simulations fill the tree (5 million nodes) before they are all run; the
    // searches after it keep that tree, cannot grow it, and answer from it.
    let (grown, _, _) = gui.search("uci\nposition startpos\ngo nodes 200000\n");
    assert!(grown > 10_000, "{grown}");
    // The speed counts what a search ran itself: nothing, on a tree that cannot grow.
    let (nodes, _, nps) = gui.search("go infinite\nstop\n");
    assert!(nodes == grown && nps == 0, "after go infinite + stop: nodes {nodes} nps {nps}, the tree had {grown}");
    let (nodes, depth, nps) = gui.search("go depth 6\n");
    assert!(
        nodes == grown && depth >= 6 && nps == 0,
        "go depth 6: nodes {nodes} depth {depth} nps {nps}, the tree had {grown}"
    );
}

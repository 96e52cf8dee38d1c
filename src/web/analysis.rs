//! The analysis board's answer for one Xiangqi position (a start and the moves played
//! since): the position as the page draws it, the alpha-beta engine's best lines
//! (MultiPV) and, when the server offers a trained net, the net's own view of it — its
//! value and its policy, before any search.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Serialize;

use super::ending::sentence;
use super::engines::Engine;
use super::protocol::MoveNames;
use super::table::WebGame;
use crate::game::xiangqi::{position_or_record, Move, Notation, Xiangqi};
use crate::game::{Game, Player as Seat, Status};
use crate::nn::NetEvaluator;
use crate::play::View;
use crate::players::{net_evaluator, net_opinion, PlayerSpec};
use crate::search::xiangqi::AlphaBeta;
use crate::search::{Limits, Score};

/// The deepest alpha-beta iteration an analysis runs.
const DEPTH: u32 = 40;
/// How long an analysis searches unless asked otherwise.
const THINK: Duration = Duration::from_millis(800);
/// The longest an analysis may be asked to search (the page's "keep thinking" asks for
/// ever longer searches up to this).
pub const MAX_THINK: Duration = Duration::from_secs(10);
/// The lines reported (the best moves, each with its line).
const LINES: usize = 3;
/// The alpha-beta search's hash table, in MiB.
const HASH_MB: usize = 16;
/// The most moves of the net's policy reported, likeliest first.
const POLICY_MOVES: usize = 8;
/// The smallest share of the net's policy reported.
const POLICY_MIN_SHARE: f32 = 0.02;

/// A trained net that analyses: the engine's name and its net, loaded once and shared
/// by the analyses (one at a time).
#[derive(Clone)]
pub struct AnalysisNet {
    name: String,
    evaluator: Arc<Mutex<NetEvaluator<Xiangqi>>>,
}

impl AnalysisNet {
    /// The first of `engines` that is a trained net playing Xiangqi, loaded; `None` when
    /// there is none, an error when its file cannot be loaded.
    pub fn offered(engines: &[Engine]) -> Result<Option<AnalysisNet>, String> {
        let net =
            engines.iter().filter(|engine| engine.games.contains(&"xiangqi")).find_map(|engine| match &engine.spec {
                PlayerSpec::Net { net, device, .. } => Some((engine, net, device)),
                _ => None,
            });
        let Some((engine, net, device)) = net else { return Ok(None) };
        let evaluator = net_evaluator(net, device).map_err(|e| format!("engine `{}`: {e}", engine.name))?;
        Ok(Some(AnalysisNet { name: engine.name.clone(), evaluator: Arc::new(Mutex::new(evaluator)) }))
    }
}

/// What the page shows of an analysed position.
#[derive(Clone, Debug, Serialize)]
pub struct Analysis {
    /// The position the moves start from (a record's start when one was given).
    pub start: String,
    /// Every move from `start` to this position, in ICCS: a record's, then those asked for.
    pub moves: Vec<String>,
    /// Each of `moves` in WXF and Chinese.
    pub move_names: Vec<MoveNames>,
    /// The position's text.
    pub fen: String,
    /// The cells, top rank first (as in the `state` frame).
    pub board: Vec<String>,
    /// `red` or `black`.
    pub to_move: String,
    /// The last move played, if any was given.
    pub last: Option<String>,
    /// The square of the general in check.
    pub check: Option<String>,
    /// The legal moves (empty once the game is over).
    pub legal: Vec<String>,
    /// Each of `legal` in WXF and Chinese.
    pub legal_names: Vec<MoveNames>,
    /// How the rules ended the game here (`Red wins by checkmate`), if they did.
    pub over: Option<String>,
    /// The depth of the alpha-beta search's last finished iteration.
    pub depth: u32,
    /// The best moves with their lines, best first.
    pub lines: Vec<Line>,
    /// The net's view, when the server offers a net.
    pub net: Option<NetView>,
}

/// One of the alpha-beta engine's lines.
#[derive(Clone, Debug, Serialize)]
pub struct Line {
    /// The line's score in centipawns from the side to move's view, unless it mates.
    pub cp: Option<i32>,
    /// Moves to mate: > 0 the side to move mates, < 0 it is mated.
    pub mate: Option<i32>,
    /// The moves (ICCS), the root move first.
    pub moves: Vec<String>,
    /// Each of `moves` in WXF and Chinese.
    pub names: Vec<MoveNames>,
}

/// What a trained net makes of the position by itself.
#[derive(Clone, Debug, Serialize)]
pub struct NetView {
    /// The engine's name in `serve`.
    pub engine: String,
    /// Win, draw and loss probabilities from the side to move's view.
    pub wdl: [f32; 3],
    /// The moves its policy favours, likeliest first.
    pub policy: Vec<PolicyMove>,
}

/// A move of the net's policy and its share.
#[derive(Clone, Debug, Serialize)]
pub struct PolicyMove {
    /// The move (ICCS).
    #[serde(rename = "move")]
    pub mv: String,
    /// In WXF and Chinese.
    pub names: MoveNames,
    /// Its share of the policy.
    pub share: f32,
}

/// Analyses the position after `moves` (ICCS) from `start` (a FEN; `None`: the usual
/// start) with the alpha-beta engine and, if given, `net`. Blocks for up to about a
/// second. Errors are one line: a bad FEN, or the first move that is not legal, by number.
pub fn analyse(
    start: Option<&str>,
    moves: &[&str],
    net: Option<&AnalysisNet>,
    think: Option<Duration>,
) -> Result<Analysis, String> {
    let mut game = position_or_record(start.unwrap_or("startpos"))?;
    let mut last = None;
    for (number, text) in (1..).zip(moves) {
        if game.status().is_over() {
            return Err(format!("move {number} (`{text}`) comes after the end of the game"));
        }
        let mv = game.parse_move(text).map_err(|_| format!("move {number} (`{text}`) is not legal here"))?;
        game.play(mv);
        last = Some(mv);
    }
    let mut legal = Vec::new();
    let status = game.status();
    if !status.is_over() {
        game.legal_moves(&mut legal);
    }
    let think = think.unwrap_or(THINK).min(MAX_THINK);
    let (depth, lines) = if legal.is_empty() { (0, Vec::new()) } else { best_lines(&game, think) };
    Ok(Analysis {
        start: game.start_fen(),
        moves: game.move_texts(Notation::Iccs),
        move_names: game
            .move_texts(Notation::Wxf)
            .into_iter()
            .zip(game.move_texts(Notation::Chinese))
            .map(|(wxf, chinese)| MoveNames::new(wxf, chinese))
            .collect(),
        fen: game.to_text(),
        board: game.cells(),
        to_move: if game.to_move() == Seat::First { "red" } else { "black" }.to_string(),
        last: last.map(|mv| mv.to_string()),
        check: game.check(),
        legal: legal.iter().map(ToString::to_string).collect(),
        legal_names: legal.iter().filter_map(|&mv| game.names(mv)).collect(),
        over: match status {
            Status::Over { winner, reason } => Some(sentence(winner.map(|seat| game.seat_name(seat)), reason.as_str())),
            Status::Ongoing => None,
        },
        depth,
        lines,
        net: match net {
            Some(net) if !legal.is_empty() => Some(net_view(net, &game)),
            _ => None,
        },
    })
}

/// The alpha-beta engine's [`LINES`] best moves with their lines, and the depth reached.
fn best_lines(game: &Xiangqi, think: Duration) -> (u32, Vec<Line>) {
    let mut search = AlphaBeta::new(HASH_MB);
    search.set_multi_pv(LINES);
    let limits = Limits { depth: Some(DEPTH), movetime: Some(think), ..Limits::default() };
    let report = search.search(game, &limits, &mut |_| {});
    let first = std::iter::once((report.score, report.pv));
    let lines = first.chain(report.more.into_iter().map(|line| (line.score, line.pv)));
    (report.depth, lines.filter(|(_, pv)| !pv.is_empty()).map(|(score, pv)| line(game, score, &pv)).collect())
}

/// A line of `pv` from `game`'s position, with its score and its moves' names.
fn line(game: &Xiangqi, score: Score, pv: &[Move]) -> Line {
    let mut position = game.clone();
    let mut names = Vec::new();
    for &mv in pv {
        names.extend(position.names(mv));
        position.play(mv);
    }
    let (cp, mate) = match score {
        Score::Cp(cp) => (Some(cp), None),
        Score::Mate(moves) => (None, Some(moves)),
    };
    Line { cp, mate, moves: pv.iter().map(ToString::to_string).collect(), names }
}

/// `net`'s value and the likeliest moves of its policy in `game`'s position.
fn net_view(net: &AnalysisNet, game: &Xiangqi) -> NetView {
    let mut evaluator = net.evaluator.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let (wdl, policy) = net_opinion(&mut *evaluator, game);
    let policy = policy
        .into_iter()
        .take(POLICY_MOVES)
        .filter(|&(_, share)| share >= POLICY_MIN_SHARE)
        .filter_map(|(mv, share)| Some(PolicyMove { mv: mv.to_string(), names: game.names(mv)?, share }))
        .collect();
    NetView { engine: net.name.clone(), wdl: [wdl.win, wdl.draw, wdl.loss], policy }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line's score again, to compare lines by.
    fn score(line: &Line) -> Score {
        match (line.cp, line.mate) {
            (Some(cp), None) => Score::Cp(cp),
            (None, Some(moves)) => Score::Mate(moves),
            _ => panic!("a line has a score in centipawns or a mate: {line:?}"),
        }
    }

    #[test]
    fn the_lines_come_best_first() {
        for moves in [&[][..], &["h2e2", "h9g7", "h0g2", "i9h9"][..]] {
            let analysis = analyse(None, moves, None, None).unwrap();
            assert_eq!(analysis.lines.len(), LINES, "{analysis:?}");
            let scores: Vec<Score> = analysis.lines.iter().map(score).collect();
            assert!(scores.windows(2).all(|pair| pair[0] >= pair[1]), "{moves:?}: {scores:?}");
        }
    }
}

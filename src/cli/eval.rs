//! `eval`: a match between two players, ending with a result table.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{anyhow, bail, Context};
use clap::Args as ClapArgs;

use super::GameKind;
use xiangqi_zero::game::xiangqi::{Notation, Xiangqi};
use xiangqi_zero::matches::{
    banqi_starts, builtin_openings, elo_estimate, likelihood_of_superiority, parse_openings, run_match,
    xiangqi_starts as starts_of, Adjudication, DrawRule, MatchConfig, MatchResult, OwnedOpening, ResignRule, Sprt,
    Start,
};
use xiangqi_zero::players::PlayerSpec;
use xiangqi_zero::train::config::RuleSettings;

/// Arguments of `eval`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// The game.
    #[arg(long, value_enum, default_value_t = GameKind::Xiangqi)]
    game: GameKind,
    /// Player A (`alphabeta:depth=4`, `random`, `uci:/path/to/engine`, …).
    #[arg(long)]
    a: String,
    /// Player B.
    #[arg(long)]
    b: String,
    /// Number of games (each start is played with both colours).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..))]
    games: u32,
    /// Openings file (`FEN;moves` or moves per line); default: the ~50 built-in openings.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    concurrency: u32,
    /// Time per move in milliseconds for both players, replacing their own limits.
    #[arg(long)]
    movetime: Option<u64>,
    /// Stop when decided: `elo0,elo1[,alpha,beta]`.
    #[arg(long)]
    sprt: Option<String>,
    /// Save every game to DIR/games.jsonl and DIR/games.pgn.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Go on with the match saved in --out DIR (one cut short): its games count, and only
    /// the rest are played. The players and openings must be the same; --games may grow.
    #[arg(long, requires = "out")]
    resume: bool,
    /// The notation of the Xiangqi moves in games.pgn: iccs, wxf or chinese.
    #[arg(long, default_value = "iccs", value_parser = |s: &str| s.parse::<Notation>())]
    notation: Notation,
    /// Adjudicate a draw after this many plies.
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
    /// Give a game up when both players' scores agree it is lost: `MOVES,CP`, e.g. `3,600`
    /// (for 3 moves of each side, one side at −600 centipawns or worse, the other at +600 or
    /// better; mates count beyond any margin), as cutechess-cli's `-resign … twosided=true`.
    #[arg(long, value_parser = ResignRule::parse)]
    resign: Option<ResignRule>,
    /// Call a game drawn when both players' scores stay level: `FROM_MOVE,MOVES,CP`, e.g.
    /// `40,8,20` (from move 40, for 8 moves of each side, both within ±20 centipawns), as
    /// cutechess-cli's `-draw`.
    #[arg(long, value_parser = DrawRule::parse)]
    draw: Option<DrawRule>,
    /// What a threefold repetition means: Xiangqi `asian` (default), `repeater-loses` or
    /// `draw`; Banqi `draw` (default) or `repeater-loses` — as the net was trained.
    #[arg(long)]
    repetition: Option<String>,
    /// Seed of random players and of Banqi flips.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Runs `eval`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let a: PlayerSpec = args.a.parse().map_err(|e: String| anyhow!(e))?;
    let b: PlayerSpec = args.b.parse().map_err(|e: String| anyhow!(e))?;
    let sprt = args.sprt.as_deref().map(Sprt::parse).transpose().map_err(|e| anyhow!(e))?;
    let config = MatchConfig {
        games: args.games,
        concurrency: args.concurrency as usize,
        movetime: args.movetime.map(Duration::from_millis),
        sprt,
        out: args.out.clone(),
        resume: args.resume,
        max_plies: args.max_plies,
        adjudication: Adjudication { resign: args.resign, draw: args.draw },
        seed: args.seed,
        progress: std::io::IsTerminal::is_terminal(&std::io::stderr()),
        notation: args.notation,
    };
    let (a, b) = match config.movetime {
        Some(movetime) => (a.at_movetime(movetime), b.at_movetime(movetime)),
        None => {
            warn_of_unequal_budgets(&a, &b);
            (a, b)
        }
    };
    let rules = RuleSettings { repetition: args.repetition.clone(), ..RuleSettings::default() };
    let result = match args.game {
        GameKind::Xiangqi => {
            let starts = xiangqi_starts(args.openings.as_deref(), &rules)?;
            warn_of_repeats(args.games, starts.len());
            run_match(&a, &b, &starts, &config)
        }
        GameKind::Banqi => {
            if let Some(file) = &args.openings {
                bail!("--openings {}: openings are for Xiangqi; a Banqi game starts face down", file.display());
            }
            let rules = rules.banqi().map_err(|e| anyhow!(e))?;
            run_match(&a, &b, &banqi_starts(args.games.div_ceil(2), args.seed, rules), &config)
        }
    }
    .map_err(|e| anyhow!(e))?;
    print_table(&result, config.sprt.as_ref());
    Ok(())
}

/// Says on stderr when a match has more games than its openings have pairs: the games
/// beyond them start as earlier ones, and deterministic players replay those move for move.
fn warn_of_repeats(games: u32, openings: usize) {
    let distinct = 2 * openings;
    if games as usize > distinct {
        eprintln!(
            "note: {games} games from {openings} openings: games beyond the first {distinct} repeat earlier starts \
             (between deterministic players, move for move); --openings FILE gives more"
        );
    }
}

/// Says on stderr when one player's moves are limited by time alone and the other's are
/// not: its strength then depends on the machine and the match's concurrency (an external
/// engine given no limit plays a second a move, some ten thousand simulations of our own
/// net through `uci`, against the 800 of an in-process `net(sims=800)`).
fn warn_of_unequal_budgets(a: &PlayerSpec, b: &PlayerSpec) {
    let timed = |spec: &PlayerSpec| {
        let limits = match spec {
            PlayerSpec::Engine(config) => &config.limits,
            PlayerSpec::AlphaBeta { limits, .. } | PlayerSpec::Nnue { limits, .. } => limits,
            _ => return None,
        };
        limits.movetime.filter(|_| limits.depth.is_none() && limits.nodes.is_none())
    };
    for (label, timed, other) in [("A", timed(a), timed(b)), ("B", timed(b), timed(a))] {
        if let (Some(time), None) = (timed, other) {
            eprintln!(
                "note: player {label} is limited by time alone ({} ms a move) and the other is not; \
                 give it `nodes=N` or `depth=N` (or both players `--movetime`) to compare them on equal work",
                time.as_millis()
            );
        }
    }
}

/// The openings as start positions, each played with both colours.
fn xiangqi_starts(file: Option<&std::path::Path>, rules: &RuleSettings) -> anyhow::Result<Vec<Start<Xiangqi>>> {
    let openings: Vec<OwnedOpening> = match file {
        Some(path) => {
            let text =
                xiangqi_zero::text_file::read_text(path).with_context(|| format!("cannot read {}", path.display()))?;
            parse_openings(&text).map_err(|e| anyhow!("{}: {e}", path.display()))?
        }
        None => builtin_openings().iter().map(OwnedOpening::from).collect(),
    };
    starts_of(&openings, rules.xiangqi().map_err(|e| anyhow!(e))?).map_err(|e| anyhow!(e))
}

fn print_table(result: &MatchResult, sprt: Option<&Sprt>) {
    let score = &result.score;
    println!("{:<32} {:>6} {:>6} {:>6} {:>8}", "player", "wins", "draws", "losses", "score");
    for (name, row) in [(&result.a, *score), (&result.b, score.flipped())] {
        let points = 100.0 * row.fraction();
        println!("{name:<32} {:>6} {:>6} {:>6} {points:>7.1}%", row.wins, row.draws, row.losses);
    }
    println!("games: {}, draw ratio {:.1}%", score.games(), 100.0 * score.draw_ratio());
    if result.resumed > 0 {
        println!("({} of them played before and read back from the saved match)", result.resumed);
    }
    match elo_estimate(score) {
        Some(elo) => println!("Elo difference (A − B): {:+.1} [{:+.1}, {:+.1}] (95%)", elo.elo, elo.lower, elo.upper),
        None => println!("Elo difference: no games"),
    }
    println!("LOS: {:.1}%", 100.0 * likelihood_of_superiority(score));
    if let Some(sprt) = sprt {
        let (lower, upper) = sprt.bounds();
        let verdict = result.sprt.map_or("undecided".to_string(), |d| d.to_string());
        println!("SPRT: LLR {:.2} [{lower:.2}, {upper:.2}] — {verdict}", sprt.llr(score));
    }
    let forfeits: Vec<&str> = result
        .records
        .iter()
        .map(|r| r.reason.as_str())
        .filter(|r| r.contains("loses") || r.contains("forfeits"))
        .collect();
    for reason in forfeits {
        println!("note: {reason}");
    }
}

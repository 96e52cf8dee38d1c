//! `value-check`: players' scores of recorded games' positions against the games' results.

use std::path::PathBuf;

use anyhow::{anyhow, bail};
use clap::Args as ClapArgs;

use super::records::read_xiangqi_records;
use xiangqi_zero::game::xiangqi::Xiangqi;
use xiangqi_zero::matches::{judged_positions, value_check};
use xiangqi_zero::players::{Playable, PlayerSpec};
use xiangqi_zero::search::Limits;

/// Arguments of `value-check`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// A player to measure (`net(sims=1,quiet_leaves=1):FILE`, `mcts:sims=1,eval=settled`, …);
    /// repeat for several, all on the same positions.
    #[arg(long, required = true)]
    player: Vec<String>,
    /// Game records as the arena writes them (`games.jsonl` of `eval --out` or of a run's
    /// `eval/` matches); games no measured net trained on say the most.
    #[arg(long, required = true, num_args = 1..)]
    games: Vec<PathBuf>,
    /// Score every this many plies of each game, from its first.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..))]
    every: u64,
    /// Each score's budget: simulations of an MCTS or net player (1: the evaluation of the
    /// position alone), nodes of another player.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
}

/// Runs `value-check`: one line per player.
pub fn run(args: Args) -> anyhow::Result<()> {
    let specs: Vec<PlayerSpec> =
        args.player.iter().map(|s| s.parse().map_err(|e: String| anyhow!(e))).collect::<Result<_, _>>()?;
    let records = read_xiangqi_records(&args.games, "value-check")?;
    let positions = judged_positions(&records, args.every as usize).map_err(|e| anyhow!(e))?;
    if positions.is_empty() {
        bail!("no positions to score in {} games", records.len());
    }
    println!("{} positions (every {} plies) of {} games", positions.len(), args.every, records.len());
    println!("{:>11}  {:>15}  {:>23}  player", "concordance", "beyond material", "mean result by thirds");
    let limits = Limits::nodes(args.nodes);
    for (spec, text) in specs.iter().zip(&args.player) {
        let mut player = Xiangqi::player(spec, 1).map_err(|e| anyhow!(e))?;
        let check = value_check(player.as_mut(), &positions, &limits).map_err(|e| anyhow!("{text}: {e}"))?;
        let [low, mid, top] = check.by_third;
        println!(
            "{:>11.3}  {:>15.3}  {low:>+7.2} {mid:>+7.2} {top:>+7.2}  {text}",
            check.concordance, check.beyond_material
        );
    }
    println!("(concordance: of two positions whose games ended differently for their movers, the share");
    println!(" scored in the order of the results, 0.5 knowing nothing; beyond material: the same over");
    println!(" pairs of equal settled material; thirds: the positions scored low, middle, top)");
    Ok(())
}

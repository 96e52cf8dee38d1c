//! `policy-check`: where nets' priors rank a deeper search's move in recorded games'
//! positions, next to the rules' priors.

use std::path::PathBuf;

use anyhow::{anyhow, bail};
use clap::Args as ClapArgs;

use super::records::read_xiangqi_records;
use xiangqi_zero::game::xiangqi::Xiangqi;
use xiangqi_zero::matches::{judged_positions, policy_check, refereed_positions};
use xiangqi_zero::mcts::{Guided, SearchConfig, UniformEvaluator};
use xiangqi_zero::nn::NetSource;
use xiangqi_zero::players::net_evaluator;

/// Arguments of `policy-check`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// A net to measure; repeat for several, all on the same positions.
    #[arg(long, required = true)]
    net: Vec<PathBuf>,
    /// Game records as the arena writes them (`games.jsonl` of `eval --out` or of a run's
    /// `eval/` matches); games no measured net trained on say the most.
    #[arg(long, required = true, num_args = 1..)]
    games: Vec<PathBuf>,
    /// Take every this many plies of each game, from its first.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..))]
    every: u64,
    /// The referee's depth: the best move of `alphabeta` searched this deep is the one ranked.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=12))]
    depth: u32,
    /// The rules' share in the priors of each net's mixed row (its search's `rules_prior`).
    #[arg(long, default_value_t = 0.5)]
    rules_prior: f32,
}

/// Runs `policy-check`: a line for the rules' priors, then two per net.
pub fn run(args: Args) -> anyhow::Result<()> {
    if !(0.0..=1.0).contains(&args.rules_prior) {
        bail!("--rules-prior must be from 0 to 1, not {}", args.rules_prior);
    }
    let records = read_xiangqi_records(&args.games, "policy-check")?;
    let judged = judged_positions(&records, args.every as usize).map_err(|e| anyhow!(e))?;
    let positions = refereed_positions(judged.iter().map(|j| &j.position), args.depth);
    if positions.is_empty() {
        bail!("no positions to rank in {} games", records.len());
    }
    println!(
        "{} positions (every {} plies) of {} games, each one's best move by alphabeta to depth {}",
        positions.len(),
        args.every,
        records.len(),
        args.depth
    );
    println!("{:>6}  {:>6}  {:>10}  priors", "top-1", "top-3", "mean prior");
    let print = |check: xiangqi_zero::matches::PolicyCheck, name: &str| {
        println!("{:>6.3}  {:>6.3}  {:>10.3}  {name}", check.top1, check.top3, check.mean_prior);
    };
    let share = |rules_prior: f32| SearchConfig { rules_prior, ..SearchConfig::default() };
    let rules = policy_check(&mut Guided::new(UniformEvaluator::new(), &share(1.0)), &positions);
    print(rules, "the rules' priors");
    for path in &args.net {
        let name = path.display();
        let net =
            || net_evaluator::<Xiangqi>(&NetSource::File(path.clone()), "cpu").map_err(|e| anyhow!("{name}: {e}"));
        print(policy_check(&mut net()?, &positions), &name.to_string());
        let mixed = policy_check(&mut Guided::new(net()?, &share(args.rules_prior)), &positions);
        print(mixed, &format!("{name}, rules_prior={}", args.rules_prior));
    }
    println!("(top-1, top-3: the chance the referee's move is the priors' first, among their first three;");
    println!(" ties broken at random. rules_prior=W: the net's priors mixed with the rules' as its search mixes them)");
    Ok(())
}

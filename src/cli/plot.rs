//! `plot`: redraw a run's PNG plots from its `metrics.jsonl`.

use std::path::PathBuf;

use anyhow::bail;
use clap::Args as ClapArgs;

use xiangqi_zero::train::{draw_plots, read_metrics};

/// Arguments of `plot`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// The run directory: reads DIR/metrics.jsonl, writes DIR/plots/.
    #[arg(long, value_name = "DIR")]
    run: PathBuf,
}

/// Runs `plot`: prints the path of every file written, one a line.
pub fn run(args: Args) -> anyhow::Result<()> {
    if !args.run.is_dir() {
        bail!("run directory `{}` does not exist", args.run.display());
    }
    let metrics = read_metrics(&args.run.join("metrics.jsonl"))?;
    for file in draw_plots(&metrics, &args.run.join("plots"))? {
        println!("{}", file.display());
    }
    Ok(())
}

//! `plot`: redraw a run's PNG plots from its `metrics.jsonl`.

use std::path::PathBuf;

use clap::Args as ClapArgs;

use xiangqi_zero::train::{draw_plots, read_metrics, RunDir};

/// Arguments of `plot`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// The run directory (a path, or an object store's URL): reads DIR/metrics.jsonl,
    /// writes DIR/plots/.
    #[arg(long, value_name = "DIR")]
    run: PathBuf,
}

/// Runs `plot`: prints the path of every file written, one a line.
pub fn run(args: Args) -> anyhow::Result<()> {
    let run = RunDir::new(args.run);
    run.check_is_run()?;
    let metrics = read_metrics(&run.metrics())?;
    for file in draw_plots(&metrics, &run.plots())? {
        println!("{}", file.display());
    }
    Ok(())
}

//! `plot`: redraw a run's PNG plots from its `metrics.jsonl` (a policy-value run's or an
//! NNUE run's).

use std::path::PathBuf;

use clap::Args as ClapArgs;

use xiangqi_zero::storage;
use xiangqi_zero::train::nnue_config::NnueConfig;
use xiangqi_zero::train::{draw_nnue_plots, draw_plots, nnue_setup, read_metrics, read_nnue_metrics, RunDir};

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
    // A run without a readable config is drawn as a policy-value run.
    let config =
        storage::read(&run.config()).map(|bytes| String::from_utf8_lossy(&bytes).into_owned()).unwrap_or_default();
    let files = match NnueConfig::parse_if_nnue(&config).map_err(anyhow::Error::msg)? {
        Some(nnue) => draw_nnue_plots(&read_nnue_metrics(&run.metrics())?, &nnue_setup(&nnue), &run.plots())?,
        None => draw_plots(&read_metrics(&run.metrics())?, &run.plots())?,
    };
    for file in files {
        println!("{}", file.display());
    }
    Ok(())
}

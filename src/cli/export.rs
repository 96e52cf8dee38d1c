//! `export`: a trained net as one self-contained file, or what such a file records.

use std::path::PathBuf;

use clap::Args as ClapArgs;

use xiangqi_zero::nn::{export, NetInfo};

/// Arguments of `export`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// A run directory (its newest net) or a `.safetensors` net file, either a path or an
    /// object store's URL (s3://, gs://, az://).
    #[arg(long, value_name = "PATH", required_unless_present = "info", requires = "out")]
    checkpoint: Option<PathBuf>,
    /// The file to write.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Only print what the net file FILE records.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["checkpoint", "out"])]
    info: Option<PathBuf>,
}

/// Runs `export`: prints what the written file (or the `--info` file) records.
pub fn run(args: Args) -> anyhow::Result<()> {
    let info = match (args.info, args.checkpoint, args.out) {
        (Some(file), ..) => NetInfo::read(&file)?,
        (None, Some(checkpoint), Some(out)) => {
            let info = export(&checkpoint, &out)?;
            println!("wrote {}", out.display());
            info
        }
        _ => anyhow::bail!("give --checkpoint PATH --out FILE, or --info FILE"),
    };
    print!("{info}");
    Ok(())
}

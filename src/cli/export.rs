//! `export`: a trained net as one self-contained file, or what such a file records.
//!
//! The nets that ship (`assets/nets/<game>.safetensors`) are made by it, from a run
//! directory, a generation of it and the commit that trained it (README, Play):
//!
//!     xiangqi-zero export --checkpoint RUN --generation N --commit HASH --out assets/nets/xiangqi.safetensors

use std::path::PathBuf;
use std::process::Command;

use clap::Args as ClapArgs;

use xiangqi_zero::nn::NetInfo;
use xiangqi_zero::train::export;

/// Arguments of `export`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// A run directory (its newest net, or that of --generation) or a `.safetensors` net
    /// file, either a path or an object store's URL (s3://, gs://, az://).
    #[arg(long, value_name = "PATH", required_unless_present = "info", requires = "out")]
    checkpoint: Option<PathBuf>,
    /// The generation of the run directory to export (default: its newest).
    #[arg(long, value_name = "N", requires = "checkpoint")]
    generation: Option<u32>,
    /// The git commit of the code that trained the net (default: `git rev-parse HEAD` here,
    /// the code exporting it: give the training's own when they differ).
    #[arg(long, value_name = "HASH", requires = "checkpoint")]
    commit: Option<String>,
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
            let info = export(&checkpoint, args.generation, args.commit.or_else(head_commit), &out)?;
            println!("wrote {}", out.display());
            info
        }
        _ => anyhow::bail!("give --checkpoint PATH --out FILE, or --info FILE"),
    };
    print!("{info}");
    Ok(())
}

/// The commit checked out here (`git rev-parse HEAD`), if git says.
fn head_commit() -> Option<String> {
    let output = Command::new("git").args(["rev-parse", "HEAD"]).output().ok()?;
    let commit = String::from_utf8(output.stdout).ok()?.trim().to_string();
    (output.status.success() && !commit.is_empty()).then_some(commit)
}

//! The progress bars of a run's phases (self-play, training), on a terminal only.

use indicatif::{ProgressBar, ProgressStyle};

/// A progress bar of `length` steps (hidden off a terminal).
pub(super) fn bar(visible: bool, length: u64, what: &str) -> ProgressBar {
    if !visible {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(length);
    let style = format!("{what:>9} [{{elapsed_precise}}] {{bar:30}} {{pos}}/{{len}} {{msg}}");
    bar.set_style(ProgressStyle::with_template(&style).expect("a valid template"));
    bar
}

//! Training: the generation loop and what it records about a run.

pub mod metrics;
pub mod plot;

pub use metrics::{append_metrics, read_metrics, EloResult, GenerationMetrics, MetricsError};
pub use plot::{draw_plots, PlotError};

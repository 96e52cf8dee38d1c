//! `bench web`: how long a move takes to reach `serve`'s spectators.

/// Move-to-spectator latency of `serve` (see `What::Web`).
pub(super) fn web(spectators: usize, moves: usize) -> anyhow::Result<()> {
    let latencies = xiangqi_zero::web::load::measure(spectators, moves).map_err(|e| anyhow::anyhow!(e))?;
    println!(
        "web broadcast to {spectators} spectators: median {:.2} ms, p99 {:.2} ms ({} arrivals over {moves} moves)",
        latencies.quantile(0.5).as_secs_f64() * 1e3,
        latencies.quantile(0.99).as_secs_f64() * 1e3,
        latencies.samples.len()
    );
    Ok(())
}

//! Self-play's threads: one per worker, each in its own rayon pool of `cores / workers`
//! threads (at least one), which our CPU forward pass splits its batches over.
//!
//! The default is one worker per core, each with a single-threaded forward: a lone
//! worker's search (gathering leaves, backing up, playing moves) runs on one thread while
//! the other cores wait, and splitting a batch across threads adds a hand-over per
//! forward, where separate workers share nothing (docs/training-speed.md has the figures).

/// Runs `work(worker)` for each of `workers` workers on its own thread, inside a rayon
/// pool of `rayon::current_num_threads() / workers` threads (a lone worker keeps the
/// current pool, as does any worker whose pool fails to start), and returns the results
/// in worker order. A panic in a worker is resumed here.
pub fn on_worker_threads<T: Send>(workers: usize, work: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let pool_threads = (rayon::current_num_threads() / workers.max(1)).max(1);
    let work = &work;
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|worker| {
                scope.spawn(move || {
                    let pool = (workers > 1).then(|| rayon::ThreadPoolBuilder::new().num_threads(pool_threads).build());
                    match pool {
                        Some(Ok(pool)) => pool.install(|| work(worker)),
                        _ => work(worker),
                    }
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).collect()
    })
}

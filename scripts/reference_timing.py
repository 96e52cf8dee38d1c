"""The timing of the reference scripts (pytorch-reference.py, onnxruntime-reference.py),
which mirrors `timed_rate` in src/cli/bench.rs: one warm-up call, then RUNS runs of at
least half a second each; the median run is reported (the upper one of an even count)."""

import time


def timed_rate(runs, batch, step):
    """Items per second of `step`, which handles `batch` items, as described above."""
    step()
    rates = []
    for _ in range(runs):
        started = time.perf_counter()
        done = 0
        while done == 0 or time.perf_counter() - started < 0.5:
            step()
            done += batch
        rates.append(done / (time.perf_counter() - started))
    return sorted(rates)[len(rates) // 2]

"""What the in-process benchmarks share: a median of CPU time."""

from __future__ import annotations

import statistics
import time


def median_cpu_ms(func, runs: int) -> float:
    """The median CPU time of ``func()`` over ``runs`` calls, in ms: process
    time, which other work on a shared machine disturbs less than the clock."""
    times = []
    for _i in range(runs):
        started = time.process_time()
        func()
        times.append(time.process_time() - started)
    return statistics.median(times) * 1000

"""The one timing helper the benchmark scripts share: the median of repeated runs, by wall clock or CPU time."""

from __future__ import annotations

import statistics
import time
from typing import Callable


def median_seconds(fn: Callable[[], object], repeat: int = 1, clock: Callable[[], float] = time.perf_counter) -> float:
    """Median time of `repeat` calls of fn by `clock` (the machine is noisy: compare medians from one run)."""
    times = []
    for _ in range(max(repeat, 1)):
        t0 = clock()
        fn()
        times.append(clock() - t0)
    return statistics.median(times)


def median_cpu_seconds(fn: Callable[[], object], repeat: int = 1) -> float:
    """Median CPU time of this process over `repeat` calls of fn: what the speed targets are stated in."""
    return median_seconds(fn, repeat, time.process_time)

"""The one timing helper the benchmark scripts share: the median of repeated wall-clock runs."""

from __future__ import annotations

import statistics
import time
from typing import Callable


def median_seconds(fn: Callable[[], object], repeat: int = 1) -> float:
    """Median wall time of `repeat` calls of fn (the machine is noisy: compare medians from one run)."""
    times = []
    for _ in range(max(repeat, 1)):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def median_cpu_seconds(fn: Callable[[], object], repeat: int = 1) -> float:
    """Median CPU time (this process) of `repeat` calls of fn: what the speed targets are stated in."""
    times = []
    for _ in range(max(repeat, 1)):
        t0 = time.process_time()
        fn()
        times.append(time.process_time() - t0)
    return statistics.median(times)

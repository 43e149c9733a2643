"""The timing helpers the benchmark scripts share: the median of repeated runs, by wall clock or CPU time, and the
CPU seconds commands spend, their pool workers included."""

from __future__ import annotations

import os
import resource
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


def spent_cpu_seconds() -> float:
    """CPU seconds spent so far, for a difference around a command: the whole machine's (user, nice, system, irq,
    softirq in /proc/stat) on Linux, since a census's pool workers are children of a forkserver nobody waits for and
    so escape the command's rusage (run on a quiet machine); elsewhere this process's waited-for children's."""
    try:
        with open("/proc/stat") as stat:
            ticks = [int(x) for x in stat.readline().split()[1:8]]
        return (sum(ticks[:3]) + sum(ticks[5:7])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime

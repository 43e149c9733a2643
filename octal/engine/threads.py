"""How many threads one run's kernels use: by default every core this process may run on (its CPU affinity), at
most numba's own limit (NUMBA_NUM_THREADS, or the machine's CPU count). A run sets its count for the time it
computes; the kernels share a block's work among that many threads, and a value never depends on it (each heap's
options are the same set however they are shared out: kernels/naive.py and kernels/sparse.py say how)."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from ..errors import InvalidArgumentError
from ..validate import whole_number

_local = threading.local()  # the count in force for runs on this Python thread (numba's own count is per thread too)


def thread_limit() -> int:
    """The most threads numba's pool holds in this process: NUMBA_NUM_THREADS, else the machine's CPU count."""
    env = os.environ.get("NUMBA_NUM_THREADS", "").strip()
    return int(env) if env.isdigit() and int(env) > 0 else (os.cpu_count() or 1)


def available_threads() -> int:
    """The default: the cores this process may use (os.sched_getaffinity, so a `taskset` or a container's CPU set
    counts), within thread_limit()."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, min(cores, thread_limit()))


def check_threads(threads: int | None) -> int:
    """--threads / threads=: a whole number from 1 to thread_limit(); None means current_threads() (a census worker's
    single thread, say, or every core available)."""
    if threads is None:
        return current_threads()
    threads = whole_number(threads, "--threads", 1)
    limit = thread_limit()
    if threads > limit:
        raise InvalidArgumentError(f"--threads {threads}: this process may start at most {limit} (set "
                                   "NUMBA_NUM_THREADS before octal starts to allow more)")
    return threads


def current_threads() -> int:
    """The count a kernel called now should use: the innermost using_threads, else available_threads()."""
    return getattr(_local, "threads", None) or available_threads()


@contextmanager
def using_threads(threads: int | None) -> Iterator[int]:
    """Run the block with `threads` kernel threads (checked; None: the count in force), restoring the count after."""
    threads = check_threads(threads)
    before = getattr(_local, "threads", None)
    _local.threads = threads
    try:
        yield threads
    finally:
        _local.threads = before

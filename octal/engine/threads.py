"""How many threads one run's kernels may use: by default every core this process may run on (its CPU affinity), at
most numba's own limit (NUMBA_NUM_THREADS, else that same affinity: what numba's pool can start here). A run sets its
count for the time it computes, with a ThreadChoice that decides, piece by piece, whether one thread or all of them
are faster now (thread_choice.py); a value never depends on it (each heap's options are the same set however they
are shared out: kernels/naive.py and kernels/sparse.py say how)."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from ..errors import InvalidArgumentError
from ..validate import whole_number
from .thread_choice import ThreadChoice

_local = threading.local()  # the count in force for runs on this Python thread (numba's own count is per thread too)


def usable_cores() -> int:
    """The cores this process may run on (os.sched_getaffinity, so a `taskset` or a container's CPU set counts)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def thread_limit() -> int:
    """The most threads numba's pool holds in this process: NUMBA_NUM_THREADS, else usable_cores() (numba sizes its
    pool by the affinity too, so a `taskset -c 1` process may start one)."""
    env = os.environ.get("NUMBA_NUM_THREADS", "").strip()
    return int(env) if env.isdigit() and int(env) > 0 else usable_cores()


def available_threads() -> int:
    """The default: usable_cores(), within thread_limit()."""
    return max(1, min(usable_cores(), thread_limit()))


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
    """The most threads a kernel called now may use: the innermost using_threads, else available_threads()."""
    return getattr(_local, "threads", None) or available_threads()


def current_choice() -> ThreadChoice:
    """The ThreadChoice of the run computing now: the innermost using_threads' (one per run), else one kept for
    this Python thread at available_threads()."""
    choice = getattr(_local, "choice", None)
    if choice is None or choice.most != current_threads():
        choice = _local.choice = ThreadChoice(current_threads())
    return choice


@contextmanager
def using_threads(threads: int | None) -> Iterator[int]:
    """Run the block with at most `threads` kernel threads (checked; None: the count in force) and a fresh
    ThreadChoice, restoring both after."""
    threads = check_threads(threads)
    before = getattr(_local, "threads", None), getattr(_local, "choice", None)
    _local.threads, _local.choice = threads, ThreadChoice(threads)
    try:
        yield threads
    finally:
        _local.threads, _local.choice = before

"""The compiled kernels' side of engine/threads.py: numba's thread count for the parallel passes that follow."""

from __future__ import annotations

from numba import get_num_threads, set_num_threads


def set_threads(threads: int) -> int:
    """Let the parallel passes called from this Python thread use `threads` threads; returns it (numba keeps the
    count per calling thread)."""
    if get_num_threads() != threads:
        set_num_threads(threads)
    return threads

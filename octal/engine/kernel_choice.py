"""Which kernel runs the next stretch of a whole-array run, and how long that stretch is: chosen by the measured cost
per heap, so the cheaper kernel runs and progress is shown every CHUNK_SECONDS. Timing decides only which kernel
computes a value, never the value: every kernel gives the same sequence."""

from __future__ import annotations

import math

KERNELS = ("auto", "naive", "sparse")
CHUNK_SECONDS = 0.2  # a stretch's length in time: progress lines and Ctrl-C land between stretches
AUTO_MIN_N = 2048  # below this the naive kernel always wins
PROBE_SHARE = 4  # a re-timing of the dearer kernel runs this share of a stretch: it only has to measure


def stretch(kernel: str, cost: float | None, n: int) -> int:
    """Heaps for the next stretch from heap n: about CHUNK_SECONDS of work, never more than doubling n.

    The naive cost per heap grows like c·n, so L heaps cost c·(n·L + L²/2): L = √(n² + 2T/c) − n.
    """
    n = max(n, 1)
    if not cost:
        size = 1024
    elif kernel == "naive":
        size = int(math.sqrt(n * n + 2 * CHUNK_SECONDS / cost) - n)
    else:
        size = int(CHUNK_SECONDS / cost)
    return max(64, min(size, max(n, 1024), 1 << 24))


def auto_choice(cost: dict, timed_at: dict, n: int, rare: int) -> tuple[str, bool]:
    """(the kernel with the lower measured cost per heap at heap n, whether the naive one is out for good); the
    other kernel is re-timed when n doubles. `cost` holds seconds per heap (naive: per heap and unit of heap size,
    its cost grows with n), `timed_at` the heap each was last timed at (the untimed sparse kernel: last kept out by
    sparse_hopeless), `rare` the rare positions so far."""
    if cost["sparse"] is None:  # untimed: tried unless the rare count kept it out lately (sparse_hopeless)
        return ("sparse" if timed_at["sparse"] * 2 <= n else "naive"), False
    if cost["naive"] is None:
        return ("naive" if sparse_hopeless(rare, n) else "sparse"), False
    naive = cost["naive"] * n
    if cost["sparse"] <= naive:
        # the naive cost only grows with n: once four times dearer it is not worth timing again
        if naive >= 4 * cost["sparse"]:
            return "sparse", True
        return ("naive" if timed_at["naive"] * 2 <= n else "sparse"), False
    return ("sparse" if timed_at["sparse"] * 2 <= n else "naive"), False


def sparse_hopeless(rare: int, n: int) -> bool:
    """Whether more than a quarter of n heaps are rare. The naive kernel reads about n/2 pairs a heap per split digit,
    the sparse one about #rare, each some 4 times dearer (3.3 ns against 0.8 here): with that many rare positions the
    sparse kernel cannot win, so it is not timed (nor, on a first run, compiled) until they thin out; with at most a
    quarter the naive one is not timed before it."""
    return 4 * rare > n


def dearer(cost: dict, n: int) -> str | None:
    """The kernel whose cost per heap at heap n, as last measured, is the higher (None until both are timed): running
    it is a re-timing."""
    if cost["naive"] is None or cost["sparse"] is None:
        return None
    return "naive" if cost["naive"] * n > cost["sparse"] else "sparse"

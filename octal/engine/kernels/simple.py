"""The moves every octal kernel treats alike, written once: take the whole heap (value 0), leave one heap (value
G(n − k)), leave two equal heaps (value 0). Each kernel marks the values in its own representation — bits of a word,
stamps, words of a bitset — and handles the splits into two or three different heaps its own way."""

from __future__ import annotations

import numpy as np
from numba import njit

from ..compile_lock import share_compiles


@njit(cache=True, inline="always")
def simple_options(n, whole, one, eq, V, off, out):
    """Write into out[:count] the values of heap n's moves that leave no heap, one heap (G(n − k) = V[n − k − off]),
    or two equal heaps; returns count (out holds len(whole) + len(one) + len(eq) values at most)."""
    c = 0
    for k in whole:
        if k == n:
            out[c] = 0
            c += 1
    for k in one:
        if k >= n:
            break
        out[c] = V[n - k - off]
        c += 1
    for k in eq:
        if n - k >= 2 and (n - k) % 2 == 0:
            out[c] = 0
            c += 1
    return c


@njit(cache=True, inline="always")
def simple_bits(n, whole, one, eq, V, off):
    """The same values as bits of one word, for kernels whose values are all below 64 (no buffer: the small-value
    kernels are the cheapest per heap, where a buffer's writes and reads cost a fifth of the time, measured)."""
    acc = np.uint64(0)
    for k in whole:
        if k == n:
            acc |= np.uint64(1)
    for k in one:
        if k >= n:
            break
        acc |= np.uint64(1) << np.uint64(V[n - k - off])
    for k in eq:
        if n - k >= 2 and (n - k) % 2 == 0:
            acc |= np.uint64(1)
    return acc


share_compiles(globals())  # processes sharing the cache compile each function once

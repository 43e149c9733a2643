"""Popcount parity under a mask, in numpy (nothing here compiles): which values are common, which heaps are rare
positions, and how many are rare under every mask at once (the Walsh–Hadamard transform of the value histogram).
Run once per choice of mask, on whole arrays: numba would add three compiles to a first run (about 0.5 s) and be
no faster."""

from __future__ import annotations

import numpy as np


def parity_table(mask: int, size: int) -> np.ndarray:
    """odd[x] = popcount(x & mask) mod 2 for x < size (an int64 array): whether x is common (before the parity flip)."""
    x = np.arange(size, dtype=np.int64) & mask
    for shift in (32, 16, 8, 4, 2, 1):
        x ^= x >> shift
    return x & 1


def rare_positions(values: np.ndarray, mask: int, e: int = 0, k0: int = 0) -> np.ndarray:
    """The rare positions among heaps 0..len(values)−1, ascending (int64): popcount(G(n) & mask) ⊕ e·((n − k0) mod 2)
    even. One byte per heap besides the answer."""
    if len(values) == 0:
        return np.zeros(0, np.int64)
    flags = parity_table(mask, int(values.max()) + 1).astype(np.uint8)[values]
    if e:
        flags[(k0 + 1) % 2 :: 2] ^= 1  # heaps n with n − k0 odd
    return np.flatnonzero(flags == 0).astype(np.int64, copy=False)


def walsh_hadamard(h: np.ndarray) -> np.ndarray:
    """In place, for h of a power-of-two length: afterwards h[m] = Σ_v h[v]·(−1)^popcount(v & m) (butterflies of
    width 1, 2, 4, … over the whole array at once)."""
    step = 1
    while step < len(h):
        pairs = h.reshape(-1, 2, step)
        low = pairs[:, 0, :].copy()
        pairs[:, 0, :] += pairs[:, 1, :]
        pairs[:, 1, :] = low - pairs[:, 1, :]
        step *= 2
    return h

"""The general kernel: any take-and-break code, by tables of the nim-sums of partitions (a knapsack over part sizes).

For every total t and count j (column J: any count ≥ J) the tables hold, as bitsets of W words, the nim-sums
G(a_1) ⊕ … ⊕ G(a_j) of the partitions of t into parts already folded in: `M[d, j, t]` for multisets with
d = 0, 1, or ≥ 2 distinct sizes (`?`, not all equal, is d = 2) and `D[j, t]` for distinct parts (`!`).
`=` (all equal) needs no table: G(t/j) when j is odd, 0 when even. Heap n folds in as a part size once G(n)
is known: one pass over t descending, with every multiplicity μ (μ copies add G(n) when μ is odd).
Cost O(N² log N · J · W) for N heaps: slower than the octal kernels, exact for every digit.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..compile_lock import share_compiles
from ..compile_notice import loaded
from .bits import mex_words, xor_permute

NONE, FREE, NOT_ALL_EQUAL, UNEQUAL, EQUAL = 0, 1, 2, 3, 4  # digits.TIE_CODES


@njit(cache=True, inline="always")
def _or_shifted(dst, src, x):
    """dst |= {v ⊕ x : v ∈ src} for bitsets of W words (W a power of two, x < 64·W)."""
    hi = x >> 6
    lo = x & 63
    for w in range(src.shape[0]):
        word = src[w]
        if word:
            dst[w ^ hi] |= xor_permute(word, lo)


@njit(cache=True)
def _fold(M, D, s, g, N, jmax):
    """Add part size s of value g to both tables, for totals t < N (descending, so each source is old).

    `jmax` < J when no rule leaves J heaps or more (column J unused): counts above jmax are never read, so they are
    not built — a multiplicity μ only up to jmax, which takes the log N factor of the μ loop out of the cost."""
    J = M.shape[1] - 1
    for t in range(N - 1, s - 1, -1):
        mu = 1
        while mu * s <= t and (mu <= jmax or jmax == J):
            src = t - mu * s
            x = g if mu & 1 else 0
            if src == 0:  # the empty multiset: only (d, j) = (0, 0)
                _or_shifted(M[1, min(mu, J), t], M[0, 0, 0], x)
            else:  # j parts need a total of at least j; two distinct sizes need two parts
                for j in range(1, min(J, src, jmax - mu if jmax < J else J) + 1):
                    jd = min(j + mu, J)
                    _or_shifted(M[2, jd, t], M[1, j, src], x)
                    if j >= 2:
                        _or_shifted(M[2, jd, t], M[2, j, src], x)
            mu += 1
        for j in range(min(J, t - s, jmax - 1 if jmax < J else J) + 1):
            _or_shifted(D[min(j + 1, J), t], D[j, t - s], g)


def largest_count(ties: np.ndarray) -> int:
    """The largest heap count a rule leaves, or J when column J (every count ≥ J) is in use: the tables need no
    count above it."""
    J = ties.shape[1] - 1
    if ties[:, J].any():
        return J
    used = np.flatnonzero(ties.any(axis=0))
    return int(used[-1]) if len(used) else 0


def general_tables(ties: np.ndarray, totals: int, words: int) -> tuple[np.ndarray, np.ndarray]:
    """Empty tables (M, D) for partition totals below `totals`, bitsets of `words` words, the empty multiset in."""
    J = ties.shape[1] - 1
    M = np.zeros((3, J + 1, totals, words), np.uint64)
    D = np.zeros((J + 1, totals, words), np.uint64)
    M[0, 0, 0, 0] = 1
    D[0, 0, 0] = 1
    return M, D


def fill_general(G, start, stop, maxv, ties, words, vlimit):
    """Fill G[start:stop] in one call, tables built afresh from G[1:start]: (heap reached, largest value)."""
    M, D = general_tables(ties, stop, words)
    reached, top, _ = fill_general_from(G, start, stop, maxv, ties, M, D, 1, largest_count(ties), vlimit)
    return reached, top


@njit(cache=True)
def fill_general_from(G, start, stop, maxv, ties, M, D, folded, jmax, vlimit):
    """Fill G[start:stop] for any code; ties[k, j] is digit k's constraint on leaving j heaps (TIE codes).

    The tables (M, D, totals below their length) already hold the part sizes 1..folded−1; sizes folded..start−1
    are folded in first, then each new heap as soon as its value is known, so a driver keeps the tables from one
    stretch to the next. Returns (heap reached, largest value, next size to fold): early when a value would not
    fit in G's dtype or in the tables' 64·words bits (the driver widens and calls again).
    """
    K = ties.shape[0]
    J = ties.shape[1] - 1
    W = M.shape[3]
    N = M.shape[2]
    for s in range(max(folded, 1), start):
        _fold(M, D, s, np.int64(G[s]), N, jmax)
    opts = np.zeros(W, np.uint64)
    for n in range(start, stop):
        for w in range(W):
            opts[w] = 0
        for k in range(min(n, K - 1) + 1):
            m = n - k
            for j in range(J + 1):
                tie = ties[k, j]
                if tie == NONE:
                    continue
                if j == 0:
                    if m == 0 and k > 0:
                        opts[0] |= np.uint64(1)
                elif j == 1:
                    if m >= 1 and k > 0:
                        x = np.int64(G[m])
                        opts[x >> 6] |= np.uint64(1) << np.uint64(x & 63)
                elif m >= j:
                    if tie == EQUAL:
                        top = j if j < J else m  # column J: every count ≥ J
                        for jj in range(j, top + 1):
                            if m % jj == 0:
                                x = np.int64(G[m // jj]) if jj & 1 else np.int64(0)
                                opts[x >> 6] |= np.uint64(1) << np.uint64(x & 63)
                    elif tie == UNEQUAL:
                        for w in range(W):
                            opts[w] |= D[j, m, w]
                    elif tie == NOT_ALL_EQUAL:
                        for w in range(W):
                            opts[w] |= M[2, j, m, w]
                    else:
                        for w in range(W):
                            opts[w] |= M[1, j, m, w] | M[2, j, m, w]
        v = mex_words(opts, W)
        if v > vlimit or v >= 64 * W:
            return n, maxv, max(n, 1)
        G[n] = v
        if v > maxv:
            maxv = v
        if n >= 1:
            _fold(M, D, n, np.int64(v), N, jmax)
    return stop, maxv, max(stop, 1)


loaded(globals())  # tells the front, once, when this module will compile on first use
share_compiles(globals())  # processes sharing the cache compile each function once

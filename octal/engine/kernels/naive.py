"""Naive Grundy kernels: G(n) = mex of every option value, O(n) work per heap (O(n·V/64) for hex codes).

Move lists come pre-decoded from the code: `whole` (k with bit 1: a heap of exactly k may vanish),
`one` (bit 2: leave n−k), `two` (bit 4: leave a, b ≥ 1 with a+b = n−k; `tie2[i]` = 1 when the split must be
unequal, as in Grundy's game), `eq` (only the equal split: option 0 when n−k is even), `three` (bit 8), sorted.
Each kernel fills G[start:stop] and returns early, with the heap it stopped at, when a value would not
fit G's dtype (the driver widens the array and calls again), so values never wrap.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..compile_lock import share_compiles
from ..compile_notice import loaded
from .bits import mex_words, or_onehot, stamped_mex, xor_permute
from .simple import simple_bits, simple_options


@njit(cache=True, inline="always")
def _pairs(n, k, unequal, N):
    """Heap n's split pairs (a, m − a), a = 1..h, for a removal of k leaving m = n − k: (h, off), read as G[1:h+1]
    against R[off:off+h] (R reversed); h = −1 when m < 2, as for every larger k (the digits come in order)."""
    m = n - k
    if m < 2:
        return -1, 0
    return (m - unequal) // 2, N - m


@njit(cache=True, inline="always")
def _pow2_above(x):
    """Least power of two P > x (every nim-sum of values ≤ x is < P)."""
    p = 1
    while p <= x:
        p *= 2
    return p


@njit(cache=True)
def _stamp_xor(a, b, length, seen, stamp):
    """seen[a[i] ^ b[i]] = stamp: the general scatter path for values ≥ 64."""
    for i in range(length):
        seen[a[i] ^ b[i]] = stamp


@njit(cache=True, inline="always")
def block_size(s):
    """Heaps in the block that starts at heap s: about s/32, so that the pairs with a part inside the block (finished
    one heap at a time) are a few hundredths of a heap's pairs, at most 4,096 heaps."""
    return max(1, min(s // 32, 4096))


@njit(cache=True, parallel=True)
def _far_pairs(G, R, s, nb, two, tie2, words, seen, P):
    """For each heap n = s + b of a block (b < nb, in parallel): its split pairs (a, m − a) whose parts both lie below
    s, known before the block starts — words[b] = their OR as one-hot bits while P ≤ 64, else seen[b, x] = n + 1.
    Each heap writes its own row only: what a row holds does not depend on how the heaps are shared out."""
    N = R.shape[0]
    for b in prange(nb):
        n = s + b
        acc = np.uint64(0)
        for i in range(two.shape[0]):
            h, off = _pairs(n, two[i], tie2[i], N)
            if h < 0:
                break
            a0 = max(1, n - two[i] - s + 1)  # G(m − a) is known for m − a < s
            if a0 > h:
                continue
            if P <= 64:
                acc |= or_onehot(G[a0 : h + 1], R[off + a0 - 1 : off + h], h - a0 + 1)
            else:
                _stamp_xor(G[a0 : h + 1], R[off + a0 - 1 : off + h], h - a0 + 1, seen[b], n + 1)
        words[b] = acc


MARK_BYTES = 1 << 24  # the most a block's rows of stamps may hold (values past 64): fewer heaps a block beyond it


@njit(cache=True, inline="always")
def _block_rows(B, P):
    """Rows of stamps a block of up to B heaps keeps for values below P (one row a heap, within MARK_BYTES)."""
    return max(1, min(B, MARK_BYTES // (8 * (P + 1))))


DOUBLED = 1  # _turns stopped after a value that doubled the value range: the marks are made again for the new range
TOO_LARGE = 2  # _turns stopped before a value that does not fit G's dtype


@njit(cache=True)
def _turns(G, R, s, nb, P, maxv, whole, one, two, tie2, eq, vlimit, words, seen, simple, shared):
    """Heaps s..s+nb−1 in order, each with the mex of its options: with `shared`, the far marks of words[b] or
    seen[b] (_far_pairs) and its own pairs that reach into the block (a ≤ m − s); alone, every pair itself. Returns
    (heap reached, largest value, 0 at the block's end, else DOUBLED after heap reached − 1 or TOO_LARGE before it)."""
    N = R.shape[0]
    for b in range(nb):  # in order: the pairs (a, m − a) with m − a ≥ s, a ≤ m − s < nb (all of them alone)
        n = s + b
        stamp = n + 1
        if P <= 64:
            acc = (words[b] if shared else np.uint64(0)) | simple_bits(n, whole, one, eq, G, 0)
            for i in range(two.shape[0]):
                h, off = _pairs(n, two[i], tie2[i], N)
                if h < 0:
                    break
                near = min(h, n - two[i] - s) if shared else h
                if near > 0:
                    acc |= or_onehot(G[1 : near + 1], R[off : off + near], near)
            v = 0
            while v < 64 and (acc >> np.uint64(v)) & np.uint64(1):
                v += 1
        else:
            row = seen[b if shared else 0]
            for i in range(simple_options(n, whole, one, eq, G, 0, simple)):
                row[simple[i]] = stamp
            for i in range(two.shape[0]):
                h, off = _pairs(n, two[i], tie2[i], N)
                if h < 0:
                    break
                near = min(h, n - two[i] - s) if shared else h
                if near > 0:
                    _stamp_xor(G[1 : near + 1], R[off : off + near], near, row, stamp)
            v = stamped_mex(row, stamp)
        if v > vlimit:
            return n, maxv, TOO_LARGE
        G[n] = v
        R[N - 1 - n] = v
        if v > maxv:
            maxv = v
            if v >= P:  # the value range doubled: the block's far marks were made for the old range
                return n + 1, maxv, DOUBLED
    return s + nb, maxv, 0


def fill_octal(G, R, start, stop, maxv, whole, one, two, tie2, eq, vlimit, threads):
    """Fill G[start:stop] for codes whose moves leave at most two heaps, on one thread (`threads` is 1: the same
    arguments as fill_octal_parallel; apart from it, a run that stays on one thread compiles no parallel pass; plain
    Python around the compiled turns, called again only when the value range doubles, as fill_sparse).

    R is G reversed (R[len(R)-1-n] = G[n]) so that the split pairs G(a) ⊕ G(m−a), a = 1..m/2 (a < m/2 for
    an unequal split), read two ascending streams. Values < 64 use a one-hot uint64 mask (mex = count of trailing
    ones); larger values a stamp array. Each heap marks all its pairs itself. Returns (heap reached, largest value
    so far).
    """
    P = 1 << int(maxv).bit_length()  # _pow2_above, in Python
    words = np.zeros(1, np.uint64)
    seen = np.zeros((1, P + 1), np.int64)
    simple = np.zeros(len(whole) + len(one) + len(eq), np.int64)
    n = start
    while n < stop:
        n, maxv, why = _turns(G, R, n, stop - n, P, maxv, whole, one, two, tie2, eq, vlimit, words, seen, simple,
                              threads > 1)
        if why == TOO_LARGE:
            return n, maxv
        if why == DOUBLED:
            P = 1 << int(maxv).bit_length()
            seen = np.zeros((1, P + 1), np.int64)
    return stop, maxv


@njit(cache=True)
def fill_octal_parallel(G, R, start, stop, maxv, whole, one, two, tie2, eq, vlimit, threads):
    """fill_octal on `threads` > 1 threads: heaps go in blocks; the pairs with both parts below the block are marked
    for all its heaps at once, on every thread (_far_pairs), then each heap in turn adds its pairs that reach into
    the block and takes the mex (_turns); a heap's options are the same pairs either way."""
    P = _pow2_above(maxv)
    B = max(1, min(block_size(stop), stop - start))  # the most heaps a block of this call holds
    words = np.zeros(B, np.uint64)
    seen = np.zeros((_block_rows(B, P) if P > 64 else 1, P + 1), np.int64)
    simple = np.zeros(len(whole) + len(one) + len(eq), np.int64)
    n = start
    while n < stop:
        s = n
        nb = min(block_size(s), stop - s, seen.shape[0] if P > 64 else B)
        _far_pairs(G, R, s, nb, two, tie2, words, seen, P)
        n, maxv, why = _turns(G, R, s, nb, P, maxv, whole, one, two, tie2, eq, vlimit, words, seen, simple,
                              threads > 1)
        if why == TOO_LARGE:
            return n, maxv
        if why == DOUBLED:
            P = _pow2_above(maxv)
            seen = np.zeros((_block_rows(B, P) if P > 64 else 1, P + 1), np.int64)
    return stop, maxv


@njit(cache=True, inline="always")
def _split_set(G, S2, j):
    """S2[j] = bitset of {G(b) ⊕ G(j−b) : 1 ≤ b < j}, the values of splitting a heap of j into two."""
    for w in range(S2.shape[1]):
        S2[j, w] = 0
    for b in range(1, j // 2 + 1):
        x = np.int64(G[b] ^ G[j - b])
        S2[j, x >> 6] |= np.uint64(1) << np.uint64(x & 63)


@njit(cache=True)
def split_sets(G, S2, start, stop):
    """S2[j] for j = start..stop−1 (see _split_set)."""
    for j in range(start, stop):
        _split_set(G, S2, j)


@njit(cache=True, inline="always")
def one_and_two_heap_options(G, S2, n, whole, one, two, simple, opts):
    """opts = the bitset of heap n's options that leave no heap, one heap or two (S2[m]: the splits of m)."""
    for w in range(opts.shape[0]):
        opts[w] = 0
    for i in range(simple_options(n, whole, one, one[:0], G, 0, simple)):
        x = simple[i]
        opts[x >> 6] |= np.uint64(1) << np.uint64(x & 63)
    for k in two:
        m = n - k
        if m < 2:
            break
        for w in range(opts.shape[0]):
            opts[w] |= S2[m, w]


@njit(cache=True)
def fill_hex(G, S2, start, stop, maxv, whole, one, two, three, vlimit):
    """Fill G[start:stop] for codes whose moves may leave three heaps, with option bitsets.

    S2[j] holds the two-heap split values of j (see split_sets). A split of m into three heaps has a least part
    a ≤ m/3, and the other two are a split of m − a: the three-heap options of m are ∪_{a ≤ m/3} G(a) ⊕ S2[m − a].
    XOR-translating a bitset by g moves its words by g >> 6 (an index change) and its bits within words by g & 63
    (xor_permute, a dozen operations a word): rows are OR-ed into U[g & 63] at the moved word positions, one
    operation a word, and each of the 64 rows of U is permuted once. O(m·W/3) a heap for W words. Returns (heap
    reached, largest value): early when a value would not fit G's dtype or the bitsets' width 64·W (the driver
    widens either).
    """
    W = S2.shape[1]
    P = 64 * W
    opts = np.zeros(W, np.uint64)
    U = np.zeros((64, W), np.uint64)
    used = np.zeros(64, np.bool_)
    simple = np.zeros(len(whole) + len(one), np.int64)
    for n in range(start, stop):
        _split_set(G, S2, n)  # needs only G[0..n-1]
        one_and_two_heap_options(G, S2, n, whole, one, two, simple, opts)
        for k in three:
            m = n - k
            if m < 3:
                break
            for a in range(1, m // 3 + 1):
                g = np.int64(G[a])
                hi = g >> 6
                lo = g & 63
                used[lo] = True
                row = S2[m - a]
                dest = U[lo]
                for w in range(W):
                    dest[w ^ hi] |= row[w]
        for lo in range(64):
            if used[lo]:
                for w in range(W):
                    opts[w] |= xor_permute(U[lo, w], lo)
                    U[lo, w] = 0
                used[lo] = False
        v = mex_words(opts, W)
        if v > vlimit or _pow2_above(max(v, maxv)) > P:
            return n, maxv
        G[n] = v
        if v > maxv:
            maxv = v
    return stop, maxv


loaded(globals())  # tells the front, once, when this module will compile on first use
share_compiles(globals())  # processes sharing the cache compile each function once

"""The word kernel of the rare/common method (sparse.py explains it): while every value is below SMALL = 64, a heap's
option set is one 64-bit word, so marking is an OR and the mex a count of trailing ones. Same steps as the stamp
kernel (`sparse_stamp.fill_sparse`), same arguments and values; 2.5–2.9× faster on the same heaps
(benchmarks/sparse.py)."""

from __future__ import annotations

import numpy as np
from numba import njit

from ..compile_lock import share_compiles
from ..compile_notice import loaded
from .bits import ctz64, or_onehot
from .parity import parity_table
from .reasons import GAP, LARGE_VALUE, NEW_RARE, RARE_FULL, RARE_SEEN
from .sparse import (
    BLOCK,
    _block_range,
    _hole_alone,
    _rare_ranges,
    _skip_block,
    reversed_head,
    super_block,
)


@njit(cache=True)
def _block_bits(exB, n0, W, base, rare, rval, lo, hi, k):
    """exB[b] |= 1 << (G(n0 + b − k − r) ⊕ G(r)) for every b < BLOCK and r = rare[lo:hi]: the word form of
    _block_stamp. The BLOCK = 8 words stay in registers (written back once: 7 % off 0.167), and every lane is
    filled, past a short last block too, since r ≥ BLOCK keeps each read below n0."""
    one = np.uint64(1)
    e0 = e1 = e2 = e3 = e4 = e5 = e6 = e7 = np.uint64(0)
    for i in range(lo, hi):
        off = n0 - k - rare[i] - base
        v = rval[i]
        e0 |= one << np.uint64(W[off] ^ v)
        e1 |= one << np.uint64(W[off + 1] ^ v)
        e2 |= one << np.uint64(W[off + 2] ^ v)
        e3 |= one << np.uint64(W[off + 3] ^ v)
        e4 |= one << np.uint64(W[off + 4] ^ v)
        e5 |= one << np.uint64(W[off + 5] ^ v)
        e6 |= one << np.uint64(W[off + 6] ^ v)
        e7 |= one << np.uint64(W[off + 7] ^ v)
    exB[0] |= e0
    exB[1] |= e1
    exB[2] |= e2
    exB[3] |= e3
    exB[4] |= e4
    exB[5] |= e5
    exB[6] |= e6
    exB[7] |= e7



SMALL = 64  # the small-value kernel holds every option set in one 64-bit word: values below 64 XOR to values below 64


@njit(cache=True)
def _word_marks(F, s, ns, j, b, W, base, rare, rval, nrare, two, tie2):
    """Block j of the super-block [s, s + ns): its bits from values below the boundary b ≤ s (the word form of
    sparse_stamp._far_marks): its rare ranges per split digit and their bits, then for each heap the correction of an
    unequal split's (m/2, m/2) pair; no far scan (c′ = 64), so the one-thread turn, which calls this, compiles none."""
    exS, bloS, bhiS, candS, _, reachS = F
    n0 = s + j * BLOCK
    nb = min(BLOCK, s + ns - n0)
    words = exS[j * BLOCK : (j + 1) * BLOCK]
    words[:] = 0
    for d in range(two.shape[0]):
        lo, hi = _block_range(rare, nrare, n0, two[d], base, n0 - b)
        bloS[j, d] = lo
        bhiS[j, d] = hi
        _block_bits(words, n0, W, base, rare, rval, lo, hi, two[d])
    for q in range(nb):
        n = n0 + q
        for d in range(two.shape[0]):  # an unequal split's (m/2, m/2) pair may have set bit 0 in the block pass
            if tie2[d] and _hole_alone(W, base, rare, rval, bloS[j, d], bhiS[j, d], n - two[d]):
                words[q] &= ~np.uint64(1)
        candS[n - s] = SMALL  # no far scan (yet): `found` is not read
        reachS[n - s] = 0


@njit(cache=True)
def _far_words(F, s, ns, j, b, W, base, Hr, L, Hd, rare, rval, nrare, two, tie2, common0, e, k0):
    """Block j's far work on several threads (the word form of sparse_stamp._far_block): its bits (_word_marks), then
    each heap's far scan: the candidate c′ (least common value its far bits leave clear), the values its far pairs
    a = m − b + 1 … give (`found`), read until every rare value below c′ is found, and the a below which every
    digit's far pairs were read (`reach`, 0: none)."""
    _word_marks(F, s, ns, j, b, W, base, rare, rval, nrare, two, tie2)
    exS, candS, foundS, reachS = F[0], F[3], F[4], F[5]
    n0 = s + j * BLOCK
    words = exS[j * BLOCK : (j + 1) * BLOCK]
    hlen = Hd.shape[0]
    for q in range(min(BLOCK, s + ns - n0)):
        n = n0 + q
        ex = words[q]
        avail = (~common0 if e & ((n - k0) & 1) else common0) & ~ex
        if avail == np.uint64(0):
            continue
        c = ctz64(avail)
        below = ((np.uint64(1) << np.uint64(c)) - np.uint64(1)) & ~ex
        a = n  # the far pairs' range, as in sparse_stamp._far_scan
        top = 0
        for d in range(two.shape[0]):
            m = n - two[d]
            if m < 2:
                break
            a = min(a, max(1, m - b + 1))
            top = max(top, (m - tie2[d]) // 2 + 1)
        a0 = a
        found = np.uint64(0)
        chunk = SCAN_FIRST
        while below != np.uint64(0) and a < top:
            a_end = min(a + chunk, top, max(hlen, a + 1))
            chunk = min(2 * chunk, 256)
            gap = False
            for d in range(two.shape[0]):
                m = n - two[d]
                if m < 2:
                    break
                lo = max(a, m - b + 1)
                hi = min(a_end, (m - tie2[d]) // 2 + 1)
                if hi <= lo:
                    continue
                if hi > hlen or m - hi + 1 < base:  # past what is held: the heap's own scan goes on from a
                    gap = True
                    break
                hi_part = W[m - hi + 1 - base : m - lo + 1 - base]
                if hi <= L:  # see reversed_head
                    found |= or_onehot(Hr[L - hi : L - lo], hi_part, hi - lo)
                else:
                    found |= or_onehot(Hd[lo:hi][::-1].copy(), hi_part, hi - lo)
                below &= ~found
            if gap:
                break
            a = a_end
        candS[n - s] = c
        foundS[n - s] = found
        reachS[n - s] = a if a > a0 else 0


@njit(cache=True, inline="always")
def _or_rare(ex, V, off, rare, rval, lo, hi, m, hole):
    """ex | OR of 1 << (G(m − r) ⊕ G(r)) over rare[lo:hi] except index `hole` (the word form of _mark_rare)."""
    if lo <= hole < hi:
        for i in range(lo, hole):
            ex |= np.uint64(1) << np.uint64(V[m - rare[i] - off] ^ rval[i])
        lo = hole + 1
    for i in range(lo, hi):
        ex |= np.uint64(1) << np.uint64(V[m - rare[i] - off] ^ rval[i])
    return ex


SCAN_FIRST = 64  # the small kernel's first scan chunk (0.167 2²²: 16 → 64 is 0.84 → 0.74 s; Kayles unchanged)


@njit(cache=True, nogil=True)
def _words_turn(F, sb, se, b, W, base, Hd, Hr, L, whole, one, two, tie2, eq, rare, nrare, rval, common0, known, e,
                k0, maxv, alone):
    """Heaps sb..se−1 in order, each on its super-block's far work (F, done from values below b): the word form of
    sparse_stamp._turn, with the same return (RARE_SEEN included), plus LARGE_VALUE: heap n would get a value ≥ SMALL
    (nothing stored).
    `alone` (one thread): the turn does each block's far work itself, without a far scan, just before its heaps."""
    exS, bloS, bhiS, candS, foundS, reachS = F
    common1 = ~common0
    nk = two.shape[0]
    hlen = Hd.shape[0]
    kmax = one[-1] if one.shape[0] else 0
    r0 = sb  # the first heap of F's rows
    fresh = False  # a rare value never seen before (or the value range doubled), and the parallel pass went on
    for n in range(sb, se):
        if n - kmax < base and kmax < n:
            return n, maxv, nrare, NEW_RARE if fresh else GAP
        if alone and (n - sb) % BLOCK == 0:
            r0 = b = n
            _word_marks(F, r0, min(BLOCK, se - r0), np.int64(0), b, W, base, rare, rval, nrare, two, tie2)
        ex = exS[n - r0]
        q = (n - r0) // BLOCK  # the block of the super-block that heap n is in
        # the simple moves written out here, not by simple.simple_bits: this is the cheapest kernel per
        # heap, and the shared helper measured 10–20 % slower in it (Kayles 10⁷: 1.14 → 1.24–1.36 s CPU)
        for k in whole:
            if k == n:
                ex |= np.uint64(1)
        for k in one:
            if k >= n:
                break
            ex |= np.uint64(1) << np.uint64(W[n - k - base])
        for k in eq:
            if n - k >= 2 and (n - k) % 2 == 0:
                ex |= np.uint64(1)
        flip = e & ((n - k0) & 1)  # position parity: every split digit k has k0's parity
        top_m = 0
        for j in range(nk):
            m = n - two[j]
            if m < 2:
                break
            if m > top_m:
                top_m = m
            skip = m // 2 if tie2[j] and m % 2 == 0 else 0  # an unequal split has no pair (m/2, m/2)
            if base == 0 and bloS[q, j] == bhiS[q, j]:  # whole array, no block: one plain pass (short rare lists)
                for i in range(nrare):
                    r = rare[i]
                    if r >= m:
                        break
                    if r != 0 and r != skip:
                        ex |= np.uint64(1) << np.uint64(W[m - r] ^ rval[i])
                continue
            lo, cut, hi, hole, ok = _rare_ranges(rare, nrare, m, base, hlen, skip)
            if not ok:
                return n, maxv, nrare, NEW_RARE if fresh else GAP
            a2, a3 = _skip_block(lo, cut, bloS[q, j], bhiS[q, j])
            ex = _or_rare(ex, W, base, rare, rval, lo, a2, m, hole)
            ex = _or_rare(ex, W, base, rare, rval, a3, cut, m, hole)
            ex = _or_rare(ex, Hd, 0, rare, rval, cut, hi, m, hole)
        c = far_c = candS[n - r0]
        reach = reachS[n - r0]  # the far scan read every digit's pairs a = m − b + 1 … reach − 1
        if c >= SMALL or (ex >> np.uint64(c)) & np.uint64(1):  # no far scan, or its candidate c′ is marked: the least
            avail = (common1 if flip else common0) & ~ex  # common value left unmarked (every common option is marked)
            if avail == np.uint64(0):
                return n, maxv, nrare, NEW_RARE if fresh else LARGE_VALUE
            c = ctz64(avail)
        # the rare values below c that neither the marks nor the far scan's pairs give (those pairs are options too,
        # read until c′'s rare values were found: a candidate past c′ keeps them and seeks the rest past `reach`)
        found = foundS[n - r0] if far_c < SMALL else np.uint64(0)
        below = ((np.uint64(1) << np.uint64(c)) - np.uint64(1)) & ~ex & ~found
        a = 1
        half = top_m // 2
        chunk = SCAN_FIRST
        near = top_m - b + 1  # from here on every digit's pairs up to reach were read by the far scan
        while below != np.uint64(0) and a <= half:
            if reach and near <= a < reach:
                a = reach
                continue
            a_end = min(a + chunk, half + 1, max(hlen, a + 1))  # a chunk past the head only when it must go there
            chunk = min(2 * chunk, 256)
            for j in range(nk):
                m = n - two[j]
                hi = min(a_end, (m - tie2[j]) // 2 + 1)
                if hi <= a:
                    continue
                if hi > hlen or m - hi + 1 < base:
                    return n, maxv, nrare, NEW_RARE if fresh else GAP
                far = max(1, m - b + 1)  # this digit's far pairs start here
                around = reach > far and a < reach and hi > far  # the chunk meets the pairs the far scan read
                for part in range(2 if around else 1):  # then the pairs before them, and those after
                    x0 = a if part == 0 else max(a, reach)
                    x1 = (min(hi, far) if around else hi) if part == 0 else hi
                    if x1 <= x0:
                        continue
                    hi_part = W[m - x1 + 1 - base : m - x0 + 1 - base]
                    if x1 <= L:  # see reversed_head
                        below &= ~or_onehot(Hr[L - x1 : L - x0], hi_part, x1 - x0)
                    else:
                        below &= ~or_onehot(Hd[x0:x1][::-1].copy(), hi_part, x1 - x0)
            a = a_end
        v = c if below == np.uint64(0) else ctz64(below)
        if v >= SMALL:
            return n, maxv, nrare, NEW_RARE if fresh else LARGE_VALUE
        W[n - base] = v
        grew = v > maxv and (v & (v - 1)) == 0 and v > 1  # a new power of two: the value range doubled
        if v > maxv:
            maxv = v
        if below != np.uint64(0):
            if nrare == rare.shape[0]:
                return n, maxv, nrare, NEW_RARE if fresh else RARE_FULL
            rare[nrare] = n
            rval[nrare] = v
            nrare += 1
            bit = np.uint64(1) << np.uint64(v)
            if not (known & bit):
                if alone:
                    return n + 1, maxv, nrare, NEW_RARE
                known |= bit
                fresh = True
        if grew:
            if alone:
                return n + 1, maxv, nrare, NEW_RARE
            fresh = True
    return se, maxv, nrare, RARE_SEEN if fresh else 0


def _word_arrays(S, nk):
    """What a super-block's far work writes (see _far_words)."""
    return (np.zeros(S, np.uint64), np.zeros((S // BLOCK, nk), np.int64), np.zeros((S // BLOCK, nk), np.int64),
            np.zeros(S, np.int64), np.zeros(S, np.uint64), np.zeros(S, np.int64))


def _word(values):
    """The 64-bit word with bit v set for each v in `values` (all below SMALL), in numpy: a loop over the values, once
    per call of the kernel, cost 0.2 ms, which a try of one thread for a few heaps timed more than its heaps."""
    bits = np.zeros(SMALL, np.uint8)
    bits[values] = 1
    return np.uint64(np.packbits(bits, bitorder="little").view("<u8")[0])


def _prepare_words(Hd, start, nk, rval, nrare, mask, threads):
    """What both entries set up, in numpy: the common values as one word (no flip), the rare values met so far, the
    super-block S and its far arrays, and the head reversed."""
    common0 = _word(np.flatnonzero(parity_table(mask, SMALL)))  # popcount(x & mask) odd: common with no flip
    known = _word(rval[:nrare])
    S = super_block(threads)
    return common0, known, S, _word_arrays(S, nk), reversed_head(Hd, start)


def fill_sparse_small(W, base, Hd, start, stop, maxv, whole, one, two, tie2, eq, rare, nrare, rval, mask, e, k0,
                      threads):
    """fill_sparse for values below 64, on one thread: marks, candidate and scan all live in 64-bit words.

    Same arguments and return convention as fill_sparse, plus LARGE_VALUE: heap n would get a value ≥ SMALL
    (nothing stored), so the driver continues with fill_sparse. `threads` is 1; plain Python around one compiled call,
    as fill_sparse.
    """
    common0, known, S, F, Hr = _prepare_words(Hd, start, len(two), rval, nrare, mask, threads)
    return _words_turn(F, start, stop, start, W, base, Hd, Hr, len(Hr), whole, one, two, tie2, eq, rare, nrare, rval,
                       common0, known, e, k0, maxv, threads == 1)


loaded(globals())  # tells the front, once, when this module will compile on first use
share_compiles(globals())  # processes sharing the cache compile each function once

"""The stamp kernel of the rare/common method (sparse.py explains the method, the split among threads, and why no
value can change): a heap's option values are marked in a row of stamps, so values of any size fit. Here are its
super-block's far work (_far_block: rare pairs, the far scan), the turn each heap takes in order (_turn), and its
one-thread entry (`fill_sparse`); sparse_stamp_parallel overlaps the two on several threads."""

from __future__ import annotations

import numpy as np
from numba import njit

from ..compile_lock import share_compiles
from ..compile_notice import loaded
from .parity import parity_table
from .reasons import GAP, NEW_RARE, RARE_FULL, RARE_SEEN, WIDEN
from .simple import simple_options
from .sparse import (
    BLOCK,
    _block_range,
    _hole_alone,
    _rare_ranges,
    _skip_block,
    reversed_head,
    super_block,
)

SCAN_CHUNK = 32
SCAN_CHUNK_MAX = 512


@njit(cache=True)
def _take_needed(lo, hi, length, need):
    """Clear need[x] for every pair value x = lo[i] ^ hi[i]; returns how many were cleared.

    Branch-free: each pair subtracts need[x] and stores 0, so the loop runs at a steady pace whatever
    the values, instead of mispredicting on the rare hits.
    """
    found = 0
    for i in range(length):
        x = lo[i] ^ hi[i]
        found += need[x]
        need[x] = 0
    return found


@njit(cache=True, inline="always")
def _mark_rare(seen, stamp, V, off, rare, rval, lo, hi, m, hole):
    """seen[G(m − r) ⊕ G(r)] = stamp for the rare positions r = rare[lo:hi] except index `hole`;
    G(m − r) = V[m − r − off]."""
    if lo <= hole < hi:
        for i in range(lo, hole):
            seen[V[m - rare[i] - off] ^ rval[i]] = stamp
        lo = hole + 1
    for i in range(lo, hi):
        seen[V[m - rare[i] - off] ^ rval[i]] = stamp


@njit(cache=True)
def _block_stamp(seenB, n0, nb, W, base, rare, rval, lo, hi, k):
    """seenB[b, G(n0 + b − k − r) ⊕ G(r)] = n0 + b + 1 for b < nb and the rare r = rare[lo:hi]."""
    for i in range(lo, hi):
        off = n0 - k - rare[i] - base
        v = rval[i]
        for b in range(nb):
            seenB[b, W[off + b] ^ v] = n0 + b + 1


@njit(cache=True)
def _far_marks(F, s, ns, j, b, W, base, rare, rval, nrare, two, tie2):
    """Block j of the super-block [s, s + ns): its marks from values below the boundary b ≤ s (s itself on one thread;
    the previous super-block's start on more, whose heaps are computed meanwhile): its rare ranges per split digit
    and their stamps, then for each heap the correction of an unequal split's (m/2, m/2) pair. No far scan: on one
    thread the heap's own scan does it all (and the one-thread turn, which calls this, compiles no far scan)."""
    seenS, bloS, bhiS, infoS = F[0], F[1], F[2], F[3]
    n0 = s + j * BLOCK
    nb = min(BLOCK, s + ns - n0)
    rows = seenS[j * BLOCK : (j + 1) * BLOCK]
    for d in range(two.shape[0]):
        lo, hi = _block_range(rare, nrare, n0, two[d], base, n0 - b)
        bloS[j, d] = lo
        bhiS[j, d] = hi
        _block_stamp(rows, n0, nb, W, base, rare, rval, lo, hi, two[d])
    for q in range(nb):
        n = n0 + q
        for d in range(two.shape[0]):  # an unequal split's (m/2, m/2) pair may have marked 0 in the block pass
            if tie2[d] and _hole_alone(W, base, rare, rval, bloS[j, d], bhiS[j, d], n - two[d]):
                rows[q, 0] = 0
        infoS[n - s, 2] = -1  # no far scan (yet): the heap's own scan does it all


@njit(cache=True)
def _far_block(F, s, ns, j, b, W, base, Hr, L, Hd, rare, rval, nrare, two, tie2, odd, e, k0, P):
    """Block j's far work on several threads: its marks (_far_marks), then each heap's far scan (_far_scan), whose
    verdicts the heap's own turn takes up."""
    _far_marks(F, s, ns, j, b, W, base, rare, rval, nrare, two, tie2)
    seenS, infoS, needS = F[0], F[3], F[4]
    n0 = s + j * BLOCK
    for q in range(min(BLOCK, s + ns - n0)):
        n = n0 + q
        _far_scan(seenS[j * BLOCK + q], n + 1, infoS[n - s], needS[j], n, b, W, base, Hr, L, Hd, two, tie2, odd,
                  e & ((n - k0) & 1), P)


def _far_arrays(S, nk, P):
    """What a super-block's far work writes, per heap (stamps, the far scan's findings) and per block (rare ranges,
    the far scan's scratch)."""
    return (np.zeros((S, 2 * P + 2), np.int64), np.zeros((S // BLOCK, nk), np.int64),
            np.zeros((S // BLOCK, nk), np.int64), np.zeros((S, FAR_INFO), np.int64),
            np.zeros((S // BLOCK, 2 * P + 2), np.uint8))


TARGETS = 4  # a scan seeking at most this many rare values compares against them instead of looking each pair up


@njit(cache=True, inline="always")
def _hits(lo, hi, length, t0, t1, t2, t3):
    """Which of t0..t3 occur among lo[i] ^ hi[i] (bit s for t_s): compares that vectorise, no gathers."""
    f0 = False
    f1 = False
    f2 = False
    f3 = False
    for i in range(length):
        x = lo[i] ^ hi[i]
        f0 |= x == t0
        f1 |= x == t1
        f2 |= x == t2
        f3 |= x == t3
    return np.int64(f0) | (np.int64(f1) << 1) | (np.int64(f2) << 2) | (np.int64(f3) << 3)


@njit(cache=True)
def _targets(t, need, c):
    """Write into t the values x < c with need[x] set, padded to TARGETS slots by repeating the first."""
    k = 0
    for x in range(c):
        if need[x] and k < TARGETS:
            t[k] = x
            k += 1
    for s in range(k, TARGETS):
        t[s] = t[0]


UNFOUND = 8  # values a far scan may leave unfound and still hand on (more: the heap's own scan starts afresh)
FAR_INFO = 3 + UNFOUND  # per heap: how far the far scan read, its candidate, how many it left unfound, which


@njit(cache=True)
def _far_scan(row, stamp, info, need, n, s, W, base, Hr, L, Hd, two, tie2, odd, flip, P):
    """The scan of heap n done early, on far pairs only: (a, m − a) with both parts below the super-block start s.

    From its far marks alone (row), the least common value not marked is a candidate c′, and the rare values below it
    not marked are sought among the far pairs, a = m − s + 1 …, until all are found. info = [a below which every
    digit's far pairs were read (0: none), c′, how many sought values stayed unfound (−1: more than UNFOUND), those
    values]. The heap's own marks only add: unless they mark c′, its mex candidate is c′, and only the values left
    unfound can still be needed. (Seeking past a second candidate too, or stopping after so many pairs, measured
    slower: the far scans grow more than the heaps' own scans shrink.)"""
    c = 0
    missing = 0
    t = np.zeros(TARGETS, W.dtype)
    while c < 2 * P:
        if row[c] != stamp:
            if (odd[c] ^ flip) == 1:
                break
            need[c] = 1
            if missing < TARGETS:
                t[missing] = c
            missing += 1
        c += 1
    info[1] = c  # 2P: no common value unmarked (a zero mask), and the heap's own scan starts afresh
    for q in range(missing, TARGETS):
        t[q] = t[0]
    a = n
    top = 0
    for j in range(two.shape[0]):
        m = n - two[j]
        if m < 2:
            break
        a = min(a, max(1, m - s + 1))
        top = max(top, (m - tie2[j]) // 2 + 1)
    hlen = Hd.shape[0]
    a0 = a
    chunk = SCAN_CHUNK
    while missing and a < top:
        a_end = min(a + chunk, top, max(hlen, a + 1))
        chunk = min(2 * chunk, SCAN_CHUNK_MAX)
        gap = False
        for j in range(two.shape[0]):
            m = n - two[j]
            if m < 2 or not missing:
                break
            lo = max(a, m - s + 1)
            hi = min(a_end, (m - tie2[j]) // 2 + 1)
            if hi <= lo:
                continue
            if hi > hlen or m - hi + 1 < base:  # past what is held: the heap's own scan goes on from a
                gap = True
                break
            # the scan's body, as in fill_sparse: written out in both, since a shared helper (inlined or called)
            # measured 25–40 % slower in either (Grundy's game 2²⁰, one thread: 2.8 → 3.6–3.7 s)
            hi_part = W[m - hi + 1 - base : m - lo + 1 - base]
            lo_part = Hr[L - hi : L - lo] if hi <= L else Hd[lo:hi][::-1].copy()  # see reversed_head
            if missing <= TARGETS:
                found = _hits(lo_part, hi_part, hi - lo, t[0], t[1], t[2], t[3])
                if found:
                    for q in range(TARGETS):
                        if (found >> q) & 1 and need[t[q]]:
                            need[t[q]] = 0
                            missing -= 1
                    if missing:
                        _targets(t, need, c)
            else:
                missing -= _take_needed(lo_part, hi_part, hi - lo, need)
                if missing <= TARGETS:
                    _targets(t, need, c)
        if gap:
            break
        a = a_end
    info[0] = a if a > a0 else 0
    info[2] = missing if missing <= UNFOUND else -1
    k = 3
    for x in range(c):
        if need[x] and k < FAR_INFO:
            info[k] = x
            k += 1
        need[x] = 0


@njit(cache=True, nogil=True)
def _turn(F, sb, se, b, W, base, Hd, Hr, L, whole, one, two, tie2, eq, rare, nrare, rval, odd, known_rare, need, t,
          simple, e, k0, P, maxv, vlimit, alone):
    """Heaps sb..se−1 in order, each on its super-block's far work (F, done from values below b): its near marks, its
    candidate (the far scan's, unless a near mark took it: then steps 3–4 afresh), and a scan of its near pairs and
    past the far scan's reach for the values still needed. Returns (heap reached, largest value, rare count,
    reason): 0 at se, else a stop of fill_sparse, before the heap (GAP, WIDEN, RARE_FULL) or after it (NEW_RARE).
    Within a parallel pass (not `alone`) a rare value never seen before does not stop it: the turn goes on, returns
    RARE_SEEN at se, and NEW_RARE in place of any other stop after it (the pass keeps its far work; sparse.py).
    `alone` (one thread): the turn does each block's far work itself, without a far scan, just before its heaps
    (one call for the whole range: a call per block of 8 heaps measured 8 % slower on 0.167)."""
    seenB, bloS, bhiS, infoS = F[0], F[1], F[2], F[3]
    nk = two.shape[0]
    hlen = Hd.shape[0]
    kmax = one[-1] if one.shape[0] else 0
    r0 = sb  # the first heap of F's rows
    fresh = False  # a rare value never seen before was met, and the parallel pass went on
    for n in range(sb, se):
        if n - kmax < base and kmax < n:
            return n, maxv, nrare, NEW_RARE if fresh else GAP
        if alone and (n - sb) % BLOCK == 0:
            r0 = b = n
            _far_marks(F, r0, min(BLOCK, se - r0), np.int64(0), b, W, base, rare, rval, nrare, two, tie2)
        seen = seenB[n - r0]
        q = (n - r0) // BLOCK  # the block of the super-block that heap n is in
        stamp = n + 1
        for i in range(simple_options(n, whole, one, eq, W, base, simple)):
            seen[simple[i]] = stamp
        flip = e & ((n - k0) & 1)  # position parity: every split digit k has k0's parity
        top_m = 0
        for j in range(nk):
            m = n - two[j]
            if m < 2:
                break
            if m > top_m:
                top_m = m
            skip = m // 2 if tie2[j] and m % 2 == 0 else 0  # an unequal split has no pair (m/2, m/2)
            lo, cut, hi, hole, ok = _rare_ranges(rare, nrare, m, base, hlen, skip)
            if not ok:
                return n, maxv, nrare, NEW_RARE if fresh else GAP
            a2, a3 = _skip_block(lo, cut, bloS[q, j], bhiS[q, j])
            _mark_rare(seen, stamp, W, base, rare, rval, lo, a2, m, hole)
            _mark_rare(seen, stamp, W, base, rare, rval, a3, cut, m, hole)
            _mark_rare(seen, stamp, Hd, 0, rare, rval, cut, hi, m, hole)
        info = infoS[n - r0]
        skip = info[0]  # the far scan read every digit's pairs a = m − b + 1 … skip − 1
        c = -1
        if info[2] >= 0 and info[1] < 2 * P and seen[info[1]] != stamp:  # the far scan's candidate stands
            c = info[1]
        missing = 0
        if c >= 0:  # only the values the far scan left unfound can still be needed
            for i in range(info[2]):
                x = info[3 + i]
                if x < c and seen[x] != stamp:
                    need[x] = 1
                    if missing < TARGETS:
                        t[missing] = x
                    missing += 1
        else:
            # c: least common value not yet marked ("common" relative to this heap's parity flip); on the way, the
            # rare values below it not yet marked are needed, and the first TARGETS of them are the scan's targets
            skip = 0
            c = 0
            while c < 2 * P:  # with a zero value mask and no flip every value is rare: c stays 2P
                if seen[c] != stamp:
                    if (odd[c] ^ flip) == 1:
                        break
                    need[c] = 1
                    if missing < TARGETS:
                        t[missing] = c
                    missing += 1
                c += 1
        for s in range(missing, TARGETS):  # pad with the first (valid while missing ≤ TARGETS)
            t[s] = t[0]
        a = 1
        half = top_m // 2
        chunk = SCAN_CHUNK
        near = top_m - b + 1  # from here on every digit's pairs up to skip were read by the far scan
        while missing and a <= half:
            if skip and near <= a < skip:
                a = skip
                continue
            a_end = min(a + chunk, half + 1, max(hlen, a + 1))  # a chunk past the head only when it must go there
            chunk = min(2 * chunk, SCAN_CHUNK_MAX)  # most scans end early; long ones run in big chunks
            for j in range(nk):  # digits interleaved per chunk of a: a outer, digit inner
                m = n - two[j]
                hi = min(a_end, (m - tie2[j]) // 2 + 1)
                if hi <= a or not missing:
                    continue
                if hi > hlen or m - hi + 1 < base:
                    for x in range(c):
                        need[x] = 0
                    return n, maxv, nrare, NEW_RARE if fresh else GAP
                far = max(1, m - b + 1)  # this digit's far pairs start here
                around = skip > far and a < skip and hi > far  # the chunk meets the pairs the far scan read
                for part in range(2 if around else 1):  # then the pairs before them, and those after
                    x0 = a if part == 0 else max(a, skip)
                    x1 = (min(hi, far) if around else hi) if part == 0 else hi
                    if x1 <= x0 or not missing:
                        continue
                    hi_part = W[m - x1 + 1 - base : m - x0 + 1 - base]
                    lo_part = Hr[L - x1 : L - x0] if x1 <= L else Hd[x0:x1][::-1].copy()  # see reversed_head
                    if missing <= TARGETS:
                        found = _hits(lo_part, hi_part, x1 - x0, t[0], t[1], t[2], t[3])
                        if found:
                            for s in range(TARGETS):
                                if (found >> s) & 1 and need[t[s]]:
                                    need[t[s]] = 0
                                    missing -= 1
                            if missing:
                                _targets(t, need, c)
                    else:
                        missing -= _take_needed(lo_part, hi_part, x1 - x0, need)
                        if missing <= TARGETS:
                            _targets(t, need, c)
            a = a_end
        v = c
        if missing:  # the least rare value no pair produced is the mex
            v = -1
            for x in range(c):
                if need[x] and v < 0:
                    v = x
                need[x] = 0
        if v > vlimit:
            return n, maxv, nrare, NEW_RARE if fresh else WIDEN
        W[n - base] = v
        maxv = max(maxv, v)
        if missing:  # G(n) is a rare value: n is a rare position
            if nrare == rare.shape[0]:
                return n, maxv, nrare, NEW_RARE if fresh else RARE_FULL
            rare[nrare] = n
            rval[nrare] = v
            nrare += 1
            if not known_rare[v]:
                if alone:
                    return n + 1, maxv, nrare, NEW_RARE
                known_rare[v] = True
                fresh = True
        if v >= P:  # the value range doubled: the driver re-chooses the mask (and the tables grow)
            return n + 1, maxv, nrare, NEW_RARE
    return se, maxv, nrare, RARE_SEEN if fresh else 0


def _prepare(W, Hd, start, maxv, whole, one, two, eq, rval, nrare, mask, threads):
    """Both entries' set-up, in numpy (compiled, it cost 1.3 s on a first run): value range P, super-block S and its
    far arrays, a scan's scratch, odd, the rare values met, the head reversed."""
    P = 1 << int(maxv).bit_length()  # the least power of two above maxv
    known_rare = np.zeros(2 * P + 2, np.bool_)
    known_rare[rval[:nrare]] = True
    S = super_block(threads)
    return (P, S, _far_arrays(S, len(two), P), np.zeros(2 * P + 2, np.uint8), known_rare,
            parity_table(mask, 2 * P + 2), np.zeros(len(whole) + len(one) + len(eq), np.int64),
            reversed_head(Hd, start), np.zeros(TARGETS, W.dtype))


def fill_sparse(W, base, Hd, start, stop, maxv, whole, one, two, tie2, eq, rare, nrare, rval, mask, e, k0, vlimit,
                threads):
    """Fill heaps start..stop−1 by the rare/common method on one thread; `rare[:nrare]` (ascending) grows in place.

    Values live in W (W[x − base] = G(x)), those below `base` in the head Hd = G(0..len(Hd)−1): (G, 0, G) for a
    whole-array run, its window and head for a stream run. Returns (heap reached, largest value, rare count, reason):
    0 at stop; NEW_RARE right after a heap whose value is a rare value new at a rare position or doubles the value
    range (the driver may re-choose the mask); WIDEN when a value would not fit W's dtype; RARE_FULL when `rare` is
    full; GAP (nothing stored) when heap n needs a value in neither W nor Hd. `threads` is 1 (the arguments of
    fill_sparse_parallel). Plain Python around one compiled call, so the turn is not linked into one more library
    (numba processes every callee again in each caller's: about 1 s); it gets a bool, as from _turn_and_far, so it
    compiles once for both entries.
    """
    P, S, F, need, known_rare, odd, simple, Hr, t = _prepare(W, Hd, start, maxv, whole, one, two, eq, rval, nrare,
                                                             mask, threads)
    return _turn(F, start, stop, start, W, base, Hd, Hr, len(Hr), whole, one, two, tie2, eq, rare, nrare, rval, odd,
                 known_rare, need, t, simple, e, k0, P, maxv, vlimit, threads == 1)


loaded(globals())  # tells the front, once, when this module will compile on first use
share_compiles(globals())  # processes sharing the cache compile each function once

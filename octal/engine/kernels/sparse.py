"""Sparse-space (rare/common) kernel: exact for any mask, fast once the rare positions stop appearing.

With a mask m, a value x is rare when popcount(x & m) is even; rare values form an XOR subgroup, so a
common split value G(a) ⊕ G(b) needs exactly one of a, b at a rare position. Per heap n:
  1. one-heap and whole-heap options are marked (and 0 for an equal-split-only digit);
  2. for each split digit k, G(r) ⊕ G(n−k−r) is marked for every rare position r — O(#rare);
  3. c = the least common value not marked; rare values below c still unmarked are sought among the
     split pairs a = 1, 2, … (a outer, digits inner), stopping as soon as none is left;
  4. a rare value that survives the scan is G(n), and n becomes a rare position.
A split digit that must leave unequal heaps (`tie2` = 1, Grundy's game) skips the pair (m/2, m/2) in steps 2
and 3; that pair's value 0 is never common, so the subgroup argument is untouched. The block pass (below) cannot
skip one pair per heap: a heap whose (m/2, m/2) pair was among the block's pairs, and whose 0 no other of them gave,
has 0 unmarked again (`_hole_alone`), and the scan confirms it like any rare value.
The position-parity variant adds one bit: with e = 1, "rare" also flips with (n − k0) mod 2, which
keeps the subgroup argument when every split digit k has the parity of k0.
Speed: step 2 runs once per block of BLOCK heaps for the rare positions far enough back (adjacent loads, one
pass over the rare list); step 3 compares pairs against the sought values when there are at most TARGETS.
Threads: heaps go in super-blocks of S heaps, and a super-block's "far" work reads only heaps below a boundary b
known before it starts (the start of the super-block before it): the far rare pairs (step 2), then a far scan
(step 3 on the pairs with both parts below b) for the rare values the far marks leave needed. Each heap then takes
its turn in order: its near marks (pairs reaching past b, one-heap moves), its candidate (the far scan's, unless a
near mark took it: then steps 3–4 afresh), and a scan of its near pairs and past the far scan's reach for the
values still unfound. The two overlap (_turn_and_far): while one thread takes the turns of a super-block, the
others do the next one's far work, whose boundary is this super-block's start; the turn's thread then joins them,
each block of far work going to the first thread free. A heap's option set is the same union of pairs however the
work is split, so its mex, and every value, is the same for any thread count. On one thread there is no far scan
and no overlap: each block's far rare pairs, with b its own start, just before its heaps' turns.
Values are read through a window W (heaps base…) and a head Hd (heaps 0…): stream runs keep only those.
This file holds the steps both kernels share and the stamp kernel (`fill_sparse`, any value), its super-block's far
work included: that is the kernel's own steps 2–3 done early, and a file of its own would split one kernel (and
import its shared steps back). The word kernel for values below 64 (`fill_sparse_small`) is in sparse_small.py.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..compile_notice import loaded
from .atomic import fetch_add
from .reasons import GAP, NEW_RARE, RARE_FULL, WIDEN
from .simple import simple_options


@njit(cache=True, inline="always")
def _parity(x):
    x ^= x >> 32
    x ^= x >> 16
    x ^= x >> 8
    x ^= x >> 4
    x ^= x >> 2
    x ^= x >> 1
    return x & 1


@njit(cache=True)
def rare_positions(G, N, mask, e, k0):
    """All rare positions among heaps 0..N−1, ascending."""
    out = np.empty(N, np.int64)
    c = 0
    for n in range(N):
        if (_parity(np.int64(G[n]) & mask) ^ (e & ((n - k0) & 1))) == 0:
            out[c] = n
            c += 1
    return out[:c].copy()


SCAN_CHUNK = 32
SCAN_CHUNK_MAX = 512


@njit(cache=True)
def _odd_table(mask, size):
    """odd[x] = popcount(x & mask) mod 2: whether x is common (before the parity flip)."""
    odd = np.zeros(size, np.int64)
    for x in range(size):
        odd[x] = _parity(np.int64(x) & mask)
    return odd


REVERSED_HEAD = 1 << 16  # heaps of the head kept reversed, so that a scan reads both sides of its pairs ascending


@njit(cache=True)
def _reversed_head(Hd, start):
    """Hr with Hr[len(Hr) − 1 − a] = G(a) for the computed heaps a < min(start, len(Hd), REVERSED_HEAD).

    A scan reads the split pairs (a … hi − 1, m − a …): Hr[L − hi : L − a] is G(hi − 1), …, G(a), the order that
    pairs them with W's ascending G(m − hi + 1), …, G(m − a). Both sides read ascending vectorise 2–2.5× better
    than one reversed read (0.167 2²²: 1.23 → 0.97 s); a scan past Hr (rare) reverses a copy of its slice.
    """
    return Hd[: min(Hd.shape[0], start, REVERSED_HEAD)][::-1].copy()


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





@njit(cache=True)
def _first_at_least(a, lo, hi, x):
    """The least i in [lo, hi] with a[i] ≥ x, or hi (a ascending): np.searchsorted's left side, written out because
    numba's generic one costs about a second of compiling on a first run."""
    while lo < hi:
        mid = (lo + hi) // 2
        if a[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit(cache=True)
def _rare_ranges(rare, nrare, m, base, hlen, skip):
    """Index ranges of the rare positions 0 < r < m, r ≠ skip, split by where G(m − r) lives.

    Returns (lo, cut, hi, hole, ok): indices [lo, cut) read the window, [cut, hi) the head, `hole` is the index
    of r = skip (or −1); ok = False when some G(m − r) lies in neither (the gap between head and window).
    """
    lo = 1 if nrare > 0 and rare[0] == 0 else 0
    if nrare == 0 or (rare[nrare - 1] < m and rare[nrare - 1] <= m - base):  # the usual case: every r, all in W
        hi = nrare
        cut = max(lo, hi)
    else:
        hi = _first_at_least(rare, 0, nrare, m)
        cut = max(lo, min(hi, _first_at_least(rare, 0, nrare, m - base + 1)))
    hole = -1
    if skip > 0:
        h = _first_at_least(rare, 0, nrare, skip)
        if h < hi and rare[h] == skip:
            hole = h
    ok = cut == hi or m - rare[cut] < hlen
    return lo, cut, hi, hole, ok


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


BLOCK = 8  # heaps whose rare pairs are marked together: one pass over the rare list, B adjacent loads per entry
# (_block_bits is written out for exactly 8)


@njit(cache=True)
def _block_range(rare, nrare, n0, k, base, inside):
    """Rare indices [lo, hi) whose pairs every heap n0..n0+BLOCK−1 can take from the block pass: G(n0 + b − k − r)
    below the far work's boundary, `inside` heaps before n0 (r ≥ inside + BLOCK), and in the window
    (r ≤ n0 − k − base, r ≤ n0 − k − 1 with base ≥ 0). None for short rare lists."""
    if nrare < 4 * BLOCK:  # a short rare list: the per-heap loop is cheaper than the block's bookkeeping
        return 0, 0
    lo = _first_at_least(rare, 0, nrare, inside + BLOCK)
    hi = _first_at_least(rare, 0, nrare, min(n0 - k - 1, n0 - k - base) + 1)
    return lo, max(lo, hi)


PARALLEL_RARE = 4 * BLOCK  # rare positions from which a super-block's far work is shared out (below it the block
# pass does not run: _block_range)


@njit(cache=True, inline="always")
def super_block(threads):
    """Heaps whose far work is done in one parallel pass, beside the turns of the super-block before: one block on one
    thread (no pass to share out), else four blocks per thread, so each thread has work and the pairs a turn reads
    itself (those reaching past the boundary, up to two super-blocks back) stay few (2 or 8 blocks per thread: no
    better, measured on Officers 2²¹ and Grundy's game 2²¹)."""
    return BLOCK if threads == 1 else 4 * BLOCK * threads


@njit(cache=True)
def _hole_alone(W, base, rare, rval, lo, hi, m):
    """For an unequal split, whose pair (m/2, m/2) the block pass cannot skip: True when value 0 came from the block's
    pairs r = rare[lo:hi] only through that pair (m even, m/2 a rare position among them, no other G(m − r) = G(r)),
    so 0 must be unmarked again. Unmarking is always safe: the scan then confirms 0 like any rare value."""
    if m % 2 or lo >= hi:
        return False
    h = _first_at_least(rare, lo, hi, m // 2)
    if h >= hi or rare[h] != m // 2:
        return False
    for i in range(lo, hi):
        if i != h and W[m - rare[i] - base] == rval[i]:
            return False
    return True


@njit(cache=True)
def _block_stamp(seenB, n0, nb, W, base, rare, rval, lo, hi, k):
    """seenB[b, G(n0 + b − k − r) ⊕ G(r)] = n0 + b + 1 for b < nb and the rare r = rare[lo:hi]."""
    for i in range(lo, hi):
        off = n0 - k - rare[i] - base
        v = rval[i]
        for b in range(nb):
            seenB[b, W[off + b] ^ v] = n0 + b + 1


@njit(cache=True)
def _far_block(F, s, ns, j, b, W, base, Hr, L, Hd, rare, rval, nrare, two, tie2, odd, e, k0, P, scan):
    """Block j of the super-block [s, s + ns): its far work, all of it from values below the boundary b ≤ s (s itself
    on one thread; the previous super-block's start on more, whose heaps are computed meanwhile). Its rare ranges per
    split digit and their stamps; then for each heap the correction of an unequal split's (m/2, m/2) pair, and with
    `scan` the far scan (_far_scan) whose verdicts the heap's own turn takes up."""
    seenS, bloS, bhiS, infoS, needS = F
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
        infoS[n - s, 2] = -1  # no far scan: the heap's own scan does it all
        if scan:
            _far_scan(rows[q], n + 1, infoS[n - s], needS[j], n, b, W, base, Hr, L, Hd, two, tie2, odd,
                      e & ((n - k0) & 1), P)



@njit(cache=True)
def _far_arrays(S, nk, P):
    """What a super-block's far work writes, per heap (stamps, the far scan's findings) and per block (rare ranges,
    the far scan's scratch)."""
    return (np.zeros((S, 2 * P + 2), np.int64), np.zeros((S // BLOCK, nk), np.int64),
            np.zeros((S // BLOCK, nk), np.int64), np.zeros((S, FAR_INFO), np.int64),
            np.zeros((S // BLOCK, 2 * P + 2), np.uint8))


@njit(cache=True, inline="always")
def _skip_block(lo, cut, blo, bhi):
    """Split the window range [lo, cut) around the block's [blo, bhi): returns (a2, a3), mark [lo, a2) and [a3, cut)."""
    a2 = max(lo, min(blo, cut))
    a3 = max(a2, min(bhi, cut))
    return a2, a3


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
            lo_part = Hr[L - hi : L - lo] if hi <= L else Hd[lo:hi][::-1].copy()  # see _reversed_head
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

@njit(cache=True)
def _turn(F, sb, se, b, W, base, Hd, Hr, L, whole, one, two, tie2, eq, rare, nrare, rval, odd, known_rare, need, t,
          simple, e, k0, P, maxv, vlimit, alone):
    """Heaps sb..se−1 in order, each on its super-block's far work (F, done from values below b): its near marks, its
    candidate (the far scan's, unless a near mark took it: then steps 3–4 afresh), and a scan of its near pairs and
    past the far scan's reach for the values still needed. Returns (heap reached, largest value, rare count,
    reason): 0 at se, else a stop of fill_sparse, before the heap (GAP, WIDEN, RARE_FULL) or after it (NEW_RARE).
    `alone` (one thread): the turn does each block's far work itself, without a far scan, just before its heaps
    (one call for the whole range: a call per block of 8 heaps measured 8 % slower on 0.167)."""
    seenB, bloS, bhiS, infoS = F[0], F[1], F[2], F[3]
    nk = two.shape[0]
    hlen = Hd.shape[0]
    kmax = one[-1] if one.shape[0] else 0
    r0 = sb  # the first heap of F's rows
    for n in range(sb, se):
        if n - kmax < base and kmax < n:
            return n, maxv, nrare, GAP
        if alone and (n - sb) % BLOCK == 0:
            r0 = b = n
            _far_block(F, r0, min(BLOCK, se - r0), np.int64(0), b, W, base, Hr, L, Hd, rare, rval, nrare, two, tie2,
                       odd, e, k0, P, not alone)
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
                return n, maxv, nrare, GAP
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
                    return n, maxv, nrare, GAP
                far = max(1, m - b + 1)  # this digit's far pairs start here
                around = skip > far and a < skip and hi > far  # the chunk meets the pairs the far scan read
                for part in range(2 if around else 1):  # then the pairs before them, and those after
                    x0 = a if part == 0 else max(a, skip)
                    x1 = (min(hi, far) if around else hi) if part == 0 else hi
                    if x1 <= x0 or not missing:
                        continue
                    hi_part = W[m - x1 + 1 - base : m - x0 + 1 - base]
                    lo_part = Hr[L - x1 : L - x0] if x1 <= L else Hd[x0:x1][::-1].copy()  # see _reversed_head
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
            return n, maxv, nrare, WIDEN
        W[n - base] = v
        maxv = max(maxv, v)
        if missing:  # G(n) is a rare value: n is a rare position
            if nrare == rare.shape[0]:
                return n, maxv, nrare, RARE_FULL
            rare[nrare] = n
            rval[nrare] = v
            nrare += 1
            if not known_rare[v]:
                return n + 1, maxv, nrare, NEW_RARE
        if v >= P:  # the value range doubled: the driver re-chooses the mask (and the tables grow)
            return n + 1, maxv, nrare, NEW_RARE
    return se, maxv, nrare, 0


@njit(cache=True, parallel=True)
def _turn_and_far(out, taken, F, sb, se, b, F2, s2, ns2, W, base, Hd, Hr, L, whole, one, two, tie2, eq, rare, nrare,
                  rval, odd, known_rare, need, t, simple, e, k0, P, maxv, vlimit, threads):
    """One step of the pipeline on `threads` threads: one thread takes the turn of the super-block [sb, se) (out gets
    what _turn returns) while the others do the far work of the next one, [s2, s2 + ns2), from values below sb; the
    turn's thread then joins them. Each block of far work goes to the first thread free (a shared counter, `taken`),
    so the turn's share adapts to its cost; a block's work is the same whichever thread does it."""
    blocks = (ns2 + BLOCK - 1) // BLOCK
    taken[0] = 0
    for i in prange(threads):
        if i == 0 and se > sb:
            r = _turn(F, sb, se, b, W, base, Hd, Hr, L, whole, one, two, tie2, eq, rare, nrare,
                      rval, odd, known_rare, need, t, simple, e, k0, P, maxv, vlimit, threads < 1)
            out[0] = r[0]
            out[1] = r[1]
            out[2] = r[2]
            out[3] = r[3]
        while True:
            j = fetch_add(taken, 0, 1)
            if j >= blocks:
                break
            _far_block(F2, s2, ns2, j, sb, W, base, Hr, L, Hd, rare, rval, nrare, two, tie2, odd, e, k0, P,
                       threads > 1)


@njit(cache=True)
def fill_sparse(W, base, Hd, start, stop, maxv, whole, one, two, tie2, eq, rare, nrare, rval, mask, e, k0, vlimit,
                threads):
    """Fill heaps start..stop−1 by the rare/common method; `rare[:nrare]` (ascending) grows in place.

    Values live in W (W[x − base] = G(x)); values below `base` are read from the head Hd = G(0..len(Hd)−1).
    A whole-array run passes (G, 0, G); a stream run passes its sliding window and its head.
    Returns (heap reached, largest value, rare count, reason): 0 at stop; early with NEW_RARE right after a
    heap whose value is a rare value never seen at a rare position before or doubles the value range
    (so the driver may re-choose the mask), with WIDEN when a value would not fit G's dtype, with RARE_FULL
    when `rare` is full, and with GAP (nothing stored) when heap n needs a value held in neither W nor Hd.
    """
    P = 1
    while P <= maxv:
        P *= 2
    threads = threads if nrare >= PARALLEL_RARE else 1  # a short rare list: too little far work to share out
    S = super_block(threads)
    F = _far_arrays(S, two.shape[0], P)  # the far work of the super-block whose turn it is
    F2 = _far_arrays(S, two.shape[0], P)  # and of the next one, done meanwhile on more threads
    need = np.zeros(2 * P + 2, np.uint8)
    known_rare = np.zeros(2 * P + 2, np.bool_)
    for i in range(nrare):
        known_rare[rval[i]] = True
    odd = _odd_table(mask, 2 * P + 2)
    simple = np.zeros(len(whole) + len(one) + len(eq), np.int64)
    Hr = _reversed_head(Hd, start)
    L = Hr.shape[0]
    t = np.zeros(TARGETS, W.dtype)  # the scan's targets
    if threads == 1:
        return _turn(F, start, stop, start, W, base, Hd, Hr, L, whole, one, two, tie2, eq, rare, nrare, rval, odd,
                     known_rare, need, t, simple, e, k0, P, maxv, vlimit, threads == 1)
    out = np.zeros(4, np.int64)
    taken = np.zeros(1, np.int64)
    _turn_and_far(out, taken, F2, start, start, start, F, start, min(S, stop - start), W, base, Hd, Hr, L, whole, one,
                  two, tie2, eq, rare, nrare, rval, odd, known_rare, need, t, simple, e, k0, P, maxv, vlimit, threads)
    sb = b = start  # the first super-block's far work, alone, read values below b
    while sb < stop:  # each turn beside the next super-block's far work (from values below sb)
        se = min(sb + S, stop)
        _turn_and_far(out, taken, F, sb, se, b, F2, se, min(se + S, stop) - se, W, base, Hd, Hr, L, whole, one, two,
                      tie2, eq, rare, nrare, rval, odd, known_rare, need, t, simple, e, k0, P, maxv, vlimit, threads)
        n, maxv, nrare, why = out[0], out[1], out[2], out[3]
        if why != 0:
            return n, maxv, nrare, why
        F, F2 = F2, F
        sb, b = se, sb
    return stop, maxv, nrare, 0


@njit(cache=True)
def walsh_hadamard(h):
    """In-place Walsh–Hadamard transform: afterwards h[m] = Σ_v h[v]·(−1)^popcount(v & m)."""
    n = h.shape[0]
    step = 1
    while step < n:
        for i in range(0, n, 2 * step):
            for j in range(i, i + step):
                a = h[j]
                b = h[j + step]
                h[j] = a + b
                h[j + step] = a - b
        step *= 2
    return h


loaded(globals())  # tells the front, once, when this module will compile on first use

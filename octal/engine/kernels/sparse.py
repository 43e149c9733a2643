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
near mark took it: then the least common value left unmarked, and the stamp kernel scans afresh while the word kernel
keeps every value its far scan's pairs gave), and a scan of its near pairs and past the far scan's reach for the
values still unfound. The two overlap (_turn_and_far): while one thread takes the turns of a super-block, the
others do the next one's far work, whose boundary is this super-block's start; the turn's thread then joins them,
each block of far work going to the first thread free. A heap's option set is the same union of pairs however the
work is split, so its mex, and every value, is the same for any thread count. On one thread there is no far scan
and no overlap: each block's far rare pairs, with b its own start, just before its heaps' turns.
A new rare value (one never seen at a rare position) makes the driver re-choose the mask, for speed only: the method
is exact under any mask, as long as every rare position under the mask in use is listed, and the kernel lists each
as it finds it. One thread stops right after such a heap; a parallel pass goes on to the end of its piece and says
NEW_RARE there (reasons.RARE_SEEN), since stopping threw away the far work done for the heaps after it (Treblecross,
about one new rare value every 400 heaps to 3·10⁵: 0.72 → 0.63 of one thread's wall, 1.37 → 1.20 of its CPU).
Values are read through a window W (heaps base…) and a head Hd (heaps 0…): stream runs keep only those.
This file holds the steps both kernels share. The stamp kernel (`fill_sparse`, any value) is in sparse_stamp.py, the
word kernel for values below 64 (`fill_sparse_small`) in sparse_small.py, and each one's parallel pass in
sparse_stamp_parallel.py and sparse_small_parallel.py.
"""

from __future__ import annotations

from numba import njit

from ..compile_lock import share_compiles
from ..compile_notice import loaded

REVERSED_HEAD = 1 << 16  # heaps of the head kept reversed, so that a scan reads both sides of its pairs ascending


def reversed_head(Hd, start):
    """Hr with Hr[len(Hr) − 1 − a] = G(a) for the computed heaps a < min(start, len(Hd), REVERSED_HEAD).

    A scan reads the split pairs (a … hi − 1, m − a …): Hr[L − hi : L − a] is G(hi − 1), …, G(a), the order that
    pairs them with W's ascending G(m − hi + 1), …, G(m − a). Both sides read ascending vectorise 2–2.5× better
    than one reversed read (0.167 2²²: 1.23 → 0.97 s); a scan past Hr (rare) reverses a copy of its slice.
    """
    return Hd[: min(Hd.shape[0], start, REVERSED_HEAD)][::-1].copy()


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


TURN_RESULT = (0, 0, 0, 0)  # what a turn returns, four int64 (heap reached, largest value, rare count, reason): the
# type call_at reads when a pipeline step calls a turn at its address
STALLS = 4  # pipeline steps in a row in which the other threads did no far work at all: they had no core (a busy
# machine), and OpenMP's join made each step wait for them; the parallel entry then returns early (at a heap
# boundary: no value changes), for its driver to go on with one thread

PARALLEL_RARE = 4 * BLOCK  # rare positions from which a super-block's far work is shared out (below it the block
# pass does not run: _block_range)


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


@njit(cache=True, inline="always")
def _skip_block(lo, cut, blo, bhi):
    """Split the window range [lo, cut) around the block's [blo, bhi): returns (a2, a3), mark [lo, a2) and [a3, cut)."""
    a2 = max(lo, min(blo, cut))
    a3 = max(a2, min(bhi, cut))
    return a2, a3


loaded(globals())  # tells the front, once, when this module will compile on first use
share_compiles(globals())  # processes sharing the cache compile each function once

"""Short runs without a compiler: the naive octal kernel and the period search in plain numpy.

For up to 16,384 heaps, importing numba and loading compiled kernels costs more than the work itself
(`octal run kayles` would wait half a second for it). These do the same job heap by heap with vector
operations: G(n) = mex of the one-heap values and of G(a) ⊕ G(m − a) for every split. The period search, its
rules and its loop, is written here once; `period.py` compiles the same code for long arrays.
"""

from __future__ import annotations

import numpy as np

MAX_N = 16384  # beyond this the compiled kernels win, numba's start-up included (Officers, 2-core EPYC: 0.49 s
# numpy against 0.45 s compiled at 16,384 heaps; 1.4 s against 0.51 s at 32,768)


def fill_octal(G, start, stop, maxv, whole, one, two, tie2, eq, vlimit):
    """Fill G[start:stop] for codes whose moves leave at most two heaps; returns (heap reached, largest value).

    Stops early, like the compiled kernels, before a value that would exceed `vlimit` (the driver widens G).
    """
    whole_set = set(whole.tolist())
    for n in range(start, stop):
        parts = [G[n - one[one < n]].astype(np.int64)]
        if n in whole_set or any(n - k >= 2 and (n - k) % 2 == 0 for k in eq.tolist()):
            parts.append(np.zeros(1, np.int64))
        for k, unequal in zip(two.tolist(), tie2.tolist()):
            m = n - k
            h = (m - unequal) // 2
            if m >= 2 and h >= 1:
                parts.append((G[1 : h + 1] ^ G[m - 1 : m - h - 1 if m - h - 1 >= 0 else None : -1]).astype(np.int64))
        options = np.concatenate(parts)
        marked = np.zeros(len(options) + 1, bool)
        marked[options[options <= len(options)]] = True
        v = int(np.argmin(marked))
        if v > vlimit:
            return n, maxv
        G[n] = v
        maxv = max(maxv, v)
    return stop, maxv


MEX_BLOCK = 16  # heaps whose split pairs mex_all lays out at once (at most 8 N pairs, in int32: about 200 KB for
# the 1,024 heaps a recheck reads; 32 heaps in int64 held 0.8 MB at once, most of a resumed stream's start)


def mex_all(G, N, whole, one, two, tie2, eq):
    """The mex of every heap's options for heaps 0..N−1, read from G itself, all at once: the check that G follows
    the rules (equal to G exactly when it does). O(N²) pairs in vector operations, so for a few thousand heaps, whose
    values are at most their number of options (first_wrong_value refuses any other first): int32 holds them."""
    G = np.asarray(G[:N], np.int32)
    top = int(G.max()) + 2 if N else 2  # a mex above the largest value + 1 already disagrees: no need to see more
    seen = np.zeros((N, top + 1), bool)
    ns = np.arange(N, dtype=np.int32)

    def mark(heaps, vals):
        keep = vals <= top
        seen[heaps[keep], vals[keep]] = True

    for k in one.tolist():
        h = ns[ns > k]
        mark(h, G[h - k])
    for k in whole.tolist():
        if k < N:
            seen[k, 0] = True
    for k in eq.tolist():
        h = ns[(ns - k >= 2) & ((ns - k) % 2 == 0)]
        seen[h, 0] = True
    for k, unequal in zip(two.tolist(), tie2.tolist()):
        for lo in range(2, N - k, MEX_BLOCK):  # what is left to split, heap n = m + k, a block of m at a time
            m = np.arange(lo, min(lo + MEX_BLOCK, N - k), dtype=np.int32)
            count = np.maximum((m - unequal) // 2, 0)  # pairs (a, m − a), 1 ≤ a ≤ (m − tie)/2
            ms = np.repeat(m, count)
            a = np.arange(len(ms), dtype=np.int32) - np.repeat(np.cumsum(count, dtype=np.int32) - count, count) + 1
            mark(ms + k, G[a] ^ G[ms - a])
    seen[:, top] = False
    return np.argmin(seen, axis=1)


def guy_smith_bound(r: int, t: int, p: int, n0: int) -> int:
    """Heaps 0..bound−1 the octal periodicity theorem needs checked: r·max(n0, 1) + (r − 1)·p + t rows of agreement,
    so r·max(n0, 1) + r·p + t heaps (the argument needs n0 ≥ 1). The one statement of the bound, compiled for the
    numba scan in period.py."""
    return r * max(n0, 1) + r * p + t


def credible(N: int, p: int, n0: int, repeats: int = 3, min_agree: int = 0, share: float = 1.0) -> bool:
    """When a period is credible (apparent): at least `repeats` periods (and `min_agree` heaps) past n0, over at least
    share·n0 heaps."""
    return N - p - n0 >= max(repeats * p, min_agree) and N - n0 >= share * n0


def periodic_from(G, N, p, upto):
    """Least n0 with G[n+p] == G[n] for all n0 ≤ n < N−p, given that it holds from `upto` on (N − p: nothing known)."""
    bad = np.flatnonzero(G[:upto] != G[p : upto + p])
    return int(bad[-1]) + 1 if len(bad) else 0


def arithmetic_from(G, N, p, s):
    """Least n0 with G[n+p] − G[n] == s for all n0 ≤ n < N−p (the last 64 heaps first: a wrong p costs no O(N))."""
    lo = max(0, N - p - 64)
    bad = np.flatnonzero(G[lo + p:N].astype(np.int64) - G[lo: N - p].astype(np.int64) != s)
    if len(bad):
        return lo + int(bad[-1]) + 1
    bad = np.flatnonzero(G[p:N].astype(np.int64) - G[: N - p].astype(np.int64) != s)
    return int(bad[-1]) + 1 if len(bad) else 0


def scan_periods(G, N, r, t, provable, repeats, min_agree, share):
    """Minimal-period search; returns (p, n0, proven) or p = 0 when none is credible. Written once: period.py
    compiles this same code with numba for long arrays.

    A p whose Guy–Smith bound r·max(n0,1) + r·p + t fits in N is proven and wins; otherwise the least
    p seen `repeats` times past its preperiod is the apparent answer when its evidence is credible
    (`credible`). Multiples of a credible p are skipped: they agree back to its preperiod and would cost
    O(N) each (0.376 at N = 4·10⁶ would check a million of them). A p agreeing only over the last few heaps
    rules nothing out (0.145 at N = 5,000 ends in four 1s; its period 9 is a multiple of p = 1).
    """
    best_p = 0
    best_n0 = 0
    seen = 0
    anchor = 0  # a p agreeing over a long stretch from anchor_n0 on: its multiples agree from there on too, so they are
    anchor_n0 = 0  # only checked below it (0.376 at N = 4.19·10⁶: 186 s → 0.25 s, no multiple of 4 rescanned)
    top = N // 4
    if provable:
        top = max(top, (N - t - r) // r)
    for p in range(1, top + 1):
        if seen and p % seen == 0:
            continue
        upto = N - p
        if anchor and p % anchor == 0:
            upto = min(upto, anchor_n0)
        n0 = periodic_from(G, N, p, upto)
        if N - p - n0 >= max(repeats * p, min_agree) and (anchor == 0 or n0 < anchor_n0):
            anchor = p
            anchor_n0 = n0
        if provable and guy_smith_bound(r, t, p, n0) <= N:
            return p, n0, True
        if seen == 0 and N - p - n0 >= max(repeats * p, min_agree):
            if credible(N, p, n0, repeats, min_agree, share):
                seen = p  # only a credible p rules out its multiples: a p agreeing over the last few heaps alone
                best_p = p  # (p = 1 over four equal values, say) must not hide a real period that is its multiple
                best_n0 = n0
            if not provable:
                break
    return best_p, best_n0, False

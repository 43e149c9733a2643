"""Compiled period search: the least p with G(n+p) = G(n) from some n0 on, scanning back from the end.

`engine.periodicity` states the rules (Guy–Smith bound, APPARENT_RULE); these loops apply them over long arrays.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..compile_notice import loaded
from . import small


@njit(cache=True)
def periodic_from(G, N, p):
    """Least n0 with G[n+p] == G[n] for all n0 ≤ n < N−p (scans back from the end: cheap for wrong p)."""
    i = N - 1 - p
    while i >= 0 and G[i] == G[i + p]:
        i -= 1
    return i + 1


@njit(cache=True)
def arithmetic_from(G, N, p, s):
    """Least n0 with G[n+p] − G[n] == s for all n0 ≤ n < N−p."""
    i = N - 1 - p
    while i >= 0 and np.int64(G[i + p]) - np.int64(G[i]) == s:
        i -= 1
    return i + 1


credible = njit(cache=True)(small.credible)  # APPARENT_RULE, written once (small.py), compiled here
guy_smith_bound = njit(cache=True)(small.guy_smith_bound)  # the theorem's bound, likewise


@njit(cache=True)
def scan_periods(G, N, r, t, provable, repeats, min_agree, share):
    """Minimal-period search in one compiled loop; returns (p, n0, proven) or p = 0 when none is credible.

    A p whose Guy–Smith bound r·max(n0,1) + r·p + t fits in N is proven and wins; otherwise the least
    p seen `repeats` times past its preperiod is the apparent answer when its evidence is credible
    (`credible`). Multiples of a credible p are skipped: they agree back to its preperiod and would cost
    O(N) each (0.376 at N = 4·10⁶ would check a million of them). A p agreeing only over the last few heaps
    rules nothing out (0.145 at N = 5,000 ends in four 1s; its period 9 is a multiple of p = 1).
    """
    best_p = 0
    best_n0 = 0
    seen = 0
    top = N // 4
    if provable:
        top = max(top, (N - t - r) // r)
    for p in range(1, top + 1):
        if seen and p % seen == 0:
            continue
        n0 = periodic_from(G, N, p)
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



loaded(globals())  # tells the front, once, when this module will compile on first use

"""Compiled period search: the least p with G(n+p) = G(n) from some n0 on, scanning back from the end.

`engine.periodicity` states the rules (Guy–Smith bound, when a period is credible); the search loop and the rules are
written once, in small.py, and compiled here with the back-scanning `periodic_from` in place of the numpy one.
"""

from __future__ import annotations

import types

import numpy as np
from numba import njit

from ..compile_lock import share_compiles
from ..compile_notice import loaded
from . import small


@njit(cache=True)
def periodic_from(G, N, p, upto):
    """Least n0 with G[n+p] == G[n] for all n0 ≤ n < N−p, given that it holds from `upto` on (N − p: nothing known);
    scans back from there, so a wrong p costs little."""
    i = upto - 1
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


credible = njit(cache=True)(small.credible)  # when a period is credible, written once (small.py), compiled here
guy_smith_bound = njit(cache=True)(small.guy_smith_bound)  # the theorem's bound, likewise


def _compiled_twin(fn, **helpers):
    """numba's compilation of fn's own code (written once, in small.py) with the compiled `helpers` in place of the
    numpy ones it calls by those names: one loop, two ways of running it."""
    names = dict(fn.__globals__)
    names.update(helpers)
    twin = types.FunctionType(fn.__code__, names, fn.__name__, fn.__defaults__, fn.__closure__)
    twin.__qualname__, twin.__doc__ = fn.__qualname__, fn.__doc__
    return njit(cache=True)(twin)


scan_periods = _compiled_twin(small.scan_periods, periodic_from=periodic_from, guy_smith_bound=guy_smith_bound,
                              credible=credible)


loaded(globals())  # tells the front, once, when this module will compile on first use
share_compiles(globals())  # processes sharing the cache compile each function once

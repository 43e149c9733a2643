"""The stamp kernel on several threads (sparse.py explains the split and why no value can change): each super-block's
turns on one thread beside the next one's far work on the others, a parallel pass (_turn_and_far) per step of the
pipeline. The pass calls the turn and the far work at their addresses (native_call), so it does not compile them
again; kernels.ahead compiles it beside a run that goes on on one thread meanwhile."""

from __future__ import annotations

import numpy as np
from numba import njit, prange
from numba._dispatcher import compute_fingerprint

from ..compile_lock import share_compiles
from ..compile_notice import loaded
from .ahead import parallel_ready
from .atomic import fetch_add
from .native_call import call_at, compile_for, native_address
from .reasons import NEW_RARE, RARE_SEEN
from .sparse import BLOCK, STALLS, TURN_RESULT
from .sparse_stamp import _far_arrays, _far_block, _prepare, _turn


@njit(cache=True, parallel=True)
def _turn_and_far(out, taken, turn_at, far_at, F, sb, se, b, F2, s2, ns2, W, base, Hd, Hr, L, whole, one, two, tie2,
                  eq, rare, nrare, rval, odd, known_rare, need, t, simple, e, k0, P, maxv, vlimit, threads):
    """One step of the pipeline on `threads` threads: one thread takes the turn of the super-block [sb, se) (out gets
    what _turn returns) while the others do the far work of the next one, [s2, s2 + ns2), from values below sb; the
    turn's thread then joins them. Each block of far work goes to the first thread free (a shared counter, `taken`),
    so the turn's share adapts to its cost; a block's work is the same whichever thread does it. _turn and _far_block
    are called at their addresses (turn_at, far_at: native_call), so this pass does not compile them again."""
    blocks = (ns2 + BLOCK - 1) // BLOCK
    taken[0] = 0
    taken[1] = 0
    for i in prange(threads):
        if i == 0 and se > sb:
            r = call_at(turn_at, (F, sb, se, b, W, base, Hd, Hr, L, whole, one, two, tie2, eq, rare, nrare, rval, odd,
                                  known_rare, need, t, simple, e, k0, P, maxv, vlimit, threads < 1), TURN_RESULT)
            out[0] = r[0]
            out[1] = r[1]
            out[2] = r[2]
            out[3] = r[3]
        while True:
            j = fetch_add(taken, 0, 1)
            if j >= blocks:
                break
            if i > 0:
                fetch_add(taken, 1, 1)  # blocks the other threads did: none, and they had no core (see STALLS)
            call_at(far_at, (F2, s2, ns2, j, sb, W, base, Hr, L, Hd, rare, rval, nrare, two, tie2, odd, e, k0, P), None)


@njit(cache=True)
def _pipeline(turn_at, far_at, F, F2, start, stop, S, W, base, Hd, Hr, L, whole, one, two, tie2, eq, rare, nrare, rval,
              odd, known_rare, need, t, simple, e, k0, P, maxv, vlimit, threads):
    """fill_sparse_parallel's loop: the first super-block's far work alone, then each super-block's turns (F's far
    work) beside the next one's far work (into F2), a pipeline step each (_turn_and_far)."""
    out = np.zeros(4, np.int64)
    taken = np.zeros(2, np.int64)
    stalls = 0
    fresh = False  # a turn went on past a rare value never seen before: NEW_RARE where the pass stops
    sb = se = b = start  # the first step has no turns: the first super-block's far work, alone, from below start
    while True:  # each turn beside the next super-block's far work (from values below sb)
        _turn_and_far(out, taken, turn_at, far_at, F, sb, se, b, F2, se, min(se + S, stop) - se, W, base, Hd, Hr, L,
                      whole, one, two, tie2, eq, rare, nrare, rval, odd, known_rare, need, t, simple, e, k0, P, maxv,
                      vlimit, threads)
        if se > sb:
            n, maxv, nrare, why = out[0], out[1], out[2], out[3]
            if why == RARE_SEEN:
                fresh, why = True, 0
            if why != 0:
                return n, maxv, nrare, NEW_RARE if fresh else why
            stalls = stalls + 1 if taken[1] == 0 and se < stop else 0
            if stalls == STALLS:  # the other threads get no core: back to the driver, whose ThreadChoice sees it
                return se, maxv, nrare, NEW_RARE if fresh else 0
        if se >= stop:
            return stop, maxv, nrare, NEW_RARE if fresh else 0
        F, F2 = F2, F
        b, sb, se = sb, se, min(se + S, stop)


def _pipeline_args(W, base, Hd, start, stop, maxv, whole, one, two, tie2, eq, rare, nrare, rval, mask, e, k0,
                   vlimit, threads):
    """_pipeline's arguments for fill_sparse_parallel's: the set-up, and the addresses of _turn and _far_block for the
    types the pass will call them with (the scalars as Python ints, so both sides read them as int64)."""
    P, S, F, need, known_rare, odd, simple, Hr, t = _prepare(W, Hd, start, maxv, whole, one, two, eq, rval, nrare,
                                                             mask, threads)
    start, stop, base, maxv, nrare, e, k0, vlimit = (int(x) for x in (start, stop, base, maxv, nrare, e, k0, vlimit))
    L = len(Hr)
    turn_at = native_address(_turn, (F, start, stop, start, W, base, Hd, Hr, L, whole, one, two, tie2, eq, rare,
                                     nrare, rval, odd, known_rare, need, t, simple, e, k0, P, maxv, vlimit, False),
                             TURN_RESULT)
    far_at = native_address(_far_block, (F, start, stop - start, 0, start, W, base, Hr, L, Hd, rare, rval, nrare, two,
                                         tie2, odd, e, k0, P))
    return (turn_at, far_at, F, _far_arrays(S, len(two), P), start, stop, S, W, base, Hd, Hr, L, whole, one, two, tie2,
            eq, rare, nrare, rval, odd, known_rare, need, t, simple, e, k0, P, maxv, vlimit, threads)


def fill_sparse_parallel(W, base, Hd, start, stop, maxv, whole, one, two, tie2, eq, rare, nrare, rval, mask, e, k0,
                         vlimit, threads):
    """fill_sparse on `threads` > 1 threads: each super-block's turns beside the next one's far work (_turn_and_far).
    Same arguments and values; it may also return early (reason 0) where the other threads stalled (STALLS), and it
    goes on past a rare value never seen before, saying NEW_RARE where it stops (reasons.RARE_SEEN)."""
    return _pipeline(*_pipeline_args(W, base, Hd, start, stop, maxv, whole, one, two, tie2, eq, rare, nrare, rval,
                                     mask, e, k0, vlimit, threads))


def compile_sparse_parallel(*args) -> None:
    """Compile what fill_sparse_parallel(*args) runs, without running it."""
    compile_for(_pipeline, _pipeline_args(*args))


def fill_sparse_parallel_ready(args: tuple, more: tuple) -> bool:
    """Whether fill_sparse_parallel(*args, *more) is compiled: the first call for the types of W and the head
    (numba's fingerprints; the other arguments' types are the driver's, always the same) starts compiling it in a
    thread of its own (kernels.ahead)."""
    key = ("stamp", compute_fingerprint(args[0]), compute_fingerprint(args[2]))
    return parallel_ready(key, compile_sparse_parallel, args, more)


loaded(globals())  # tells the front, once, when this module will compile on first use
share_compiles(globals())  # processes sharing the cache compile each function once

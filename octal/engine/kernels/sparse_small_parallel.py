"""The small-value (word) kernel on several threads, as sparse_stamp_parallel: each super-block's turns beside the
next one's far work, a parallel pass per step (_words_turn_and_far) that calls them at their addresses."""

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
from .sparse_small import _far_words, _prepare_words, _word_arrays, _words_turn


@njit(cache=True, parallel=True)
def _words_turn_and_far(out, taken, turn_at, far_at, F, sb, se, b, F2, s2, ns2, W, base, Hd, Hr, L, whole, one, two,
                        tie2, eq, rare, nrare, rval, common0, known, e, k0, maxv, threads):
    """One step of the pipeline (sparse_stamp._turn_and_far in words): the turn of [sb, se) on one thread while the
    others do the far work of [s2, s2 + ns2) from values below sb, each block to the first thread free."""
    blocks = (ns2 + BLOCK - 1) // BLOCK
    taken[0] = 0
    taken[1] = 0
    for i in prange(threads):
        if i == 0 and se > sb:
            r = call_at(turn_at, (F, sb, se, b, W, base, Hd, Hr, L, whole, one, two, tie2, eq, rare, nrare, rval,
                                  common0, known, e, k0, maxv, threads < 1), TURN_RESULT)
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
            call_at(far_at, (F2, s2, ns2, j, sb, W, base, Hr, L, Hd, rare, rval, nrare, two, tie2, common0, e, k0),
                    None)


@njit(cache=True)
def _words_pipeline(turn_at, far_at, F, F2, start, stop, S, W, base, Hd, Hr, L, whole, one, two, tie2, eq, rare,
                    nrare, rval, common0, known, e, k0, maxv, threads):
    """fill_sparse_small_parallel's loop (sparse_stamp._pipeline in words): a step each (_words_turn_and_far)."""
    out = np.zeros(4, np.int64)
    taken = np.zeros(2, np.int64)
    stalls = 0
    fresh = False  # a turn went on past a rare value never seen before: NEW_RARE where the pass stops
    sb = se = b = start  # the first step has no turns: the first super-block's far work, alone, from below start
    while True:  # each turn beside the next super-block's far work (from values below sb)
        _words_turn_and_far(out, taken, turn_at, far_at, F, sb, se, b, F2, se, min(se + S, stop) - se, W, base, Hd,
                            Hr, L, whole, one, two, tie2, eq, rare, nrare, rval, common0, known, e, k0, maxv, threads)
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


def _words_pipeline_args(W, base, Hd, start, stop, maxv, whole, one, two, tie2, eq, rare, nrare, rval, mask, e, k0,
                         threads):
    """_words_pipeline's arguments for fill_sparse_small_parallel's, as sparse_stamp._pipeline_args."""
    common0, known, S, F, Hr = _prepare_words(Hd, start, len(two), rval, nrare, mask, threads)
    start, stop, base, maxv, nrare, e, k0 = (int(x) for x in (start, stop, base, maxv, nrare, e, k0))
    L = len(Hr)
    turn_at = native_address(_words_turn, (F, start, stop, start, W, base, Hd, Hr, L, whole, one, two, tie2, eq, rare,
                                           nrare, rval, common0, known, e, k0, maxv, False), TURN_RESULT)
    far_at = native_address(_far_words, (F, start, stop - start, 0, start, W, base, Hr, L, Hd, rare, rval, nrare, two,
                                         tie2, common0, e, k0))
    return (turn_at, far_at, F, _word_arrays(S, len(two)), start, stop, S, W, base, Hd, Hr, L, whole, one, two, tie2,
            eq, rare, nrare, rval, common0, known, e, k0, maxv, threads)


def fill_sparse_small_parallel(W, base, Hd, start, stop, maxv, whole, one, two, tie2, eq, rare, nrare, rval, mask,
                               e, k0, threads):
    """fill_sparse_small on `threads` > 1 threads, as fill_sparse_parallel: each super-block's turns beside the next
    one's far work (_words_turn_and_far), on past a new rare value or a doubled value range (NEW_RARE at the end)."""
    return _words_pipeline(*_words_pipeline_args(W, base, Hd, start, stop, maxv, whole, one, two, tie2, eq, rare,
                                                 nrare, rval, mask, e, k0, threads))


def compile_sparse_small_parallel(*args) -> None:
    """Compile what fill_sparse_small_parallel(*args) runs, without running it."""
    compile_for(_words_pipeline, _words_pipeline_args(*args))


def fill_sparse_small_parallel_ready(args: tuple, more: tuple) -> bool:
    """Whether fill_sparse_small_parallel(*args, *more) is compiled: the first call for the types of W and the head
    (numba's fingerprints; the other arguments' types are the driver's, always the same) starts compiling it in a
    thread of its own (kernels.ahead)."""
    key = ("words", compute_fingerprint(args[0]), compute_fingerprint(args[2]))
    return parallel_ready(key, compile_sparse_small_parallel, args, more)


loaded(globals())  # tells the front, once, when this module will compile on first use
share_compiles(globals())  # processes sharing the cache compile each function once

"""The one sparse run loop, driven by the whole-array sequence (grundy.py) and the stream run (stream.py) alike: they
differ in where the values live, not in how the next heap is found. Here: the rare/common split a run carries (mask,
parity bit and offset, the rare positions and their values), one call of the sparse kernel (its stopping reasons
named, not numbered), and `sparse_fill`, the loop that hands each reason to the store that holds the values."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from ..rules.code import OctalCode
from . import kernels
from .kernels.reasons import GAP, LARGE_VALUE, NARROW, NEW_RARE, RARE_FULL, WIDEN
from .rare import rare_split
from .threads import current_choice

__all__ = ["DONE", "GAP", "LARGE_VALUE", "NARROW", "NEW_RARE", "RARE_FULL", "WIDEN", "RareList", "RecomputeStore",
           "SparseMoves", "SparseStore", "sparse_dtype", "sparse_fill", "sparse_step"]

DONE = 0  # sparse_fill reached the heap it was asked for


@dataclass
class RareList:
    """The split a sparse run carries: mask (with parity bit e from offset k0), and the rare positions so far with
    their values, in arrays that grow by doubling (`count` of them in use)."""

    mask: int
    e: int
    k0: int
    positions: np.ndarray
    values: np.ndarray
    count: int

    @classmethod
    def choose(cls, values: np.ndarray, code: OctalCode, base: int = 0) -> RareList:
        """The mask with the fewest rare positions among `values` (heaps base…; Walsh–Hadamard) and its rare list."""
        split = rare_split(values, code)
        return cls.holding(split.mask, split.e, split.k0, split.positions + base, values[split.positions])

    @classmethod
    def holding(cls, mask: int, e: int, k0: int, positions: np.ndarray, values: np.ndarray) -> RareList:
        """A list holding the given rare positions and values, with room to grow."""
        cap = max(1024, 2 * len(positions))
        pos, val = np.zeros(cap, np.int64), np.zeros(cap, np.int64)
        pos[: len(positions)] = positions
        val[: len(positions)] = values
        return cls(mask, e, k0, pos, val, len(positions))

    def grow(self) -> None:
        """Double the room (the kernel stopped with RARE_FULL)."""
        self.positions = np.resize(self.positions, 2 * len(self.positions))
        self.values = np.resize(self.values, 2 * len(self.values))


@dataclass(frozen=True)
class SparseMoves:
    """The sparse kernel's view of a code's moves (engine/moves.py): removals leaving nothing or one heap, and the
    octal split list (k, unequal-only flag) with the equal-only splits."""

    whole: np.ndarray
    one: np.ndarray
    two: np.ndarray
    tie2: np.ndarray
    eq: np.ndarray


def sparse_dtype(dtype: np.dtype, stamp: bool, compact: bool = False) -> np.dtype:
    """The dtype the sparse kernels read values in: any for the word kernel (values below kernels.SMALL), with
    `stamp` uint16 or wider for the stamp kernel of a whole-array run. A first run whose values pass 255 (Officers,
    Treblecross) then compiles that kernel once, not for uint8 and again for uint16: about 10 s less (measured on
    `octal run 0.6 --n 2097152`); it runs as fast on uint16 (Grundy's game 2²¹, 0.167 2²²). A `compact` store (a
    stream run, whose window may hold 2²⁹ heaps) keeps uint8: memory is what it exists for, and 0.167 to 2²⁹ in
    uint16 peaked at 1.7 GB against 0.9 GB."""
    dtype = np.dtype(dtype)
    return np.dtype(np.uint16) if stamp and dtype == np.uint8 and not compact else dtype


def _parallel_ready(small_values: bool, args: tuple, more: tuple) -> bool:
    """Whether the kernel's parallel entry is compiled for these arguments (kernels.ahead: the first ask starts
    compiling it beside the run). Looked up only when asked, so a run on one thread never imports the parallel module
    (whose first import would say "compiling kernels" where nothing parallel will compile)."""
    ready = kernels.fill_sparse_small_parallel_ready if small_values else kernels.fill_sparse_parallel_ready
    return ready(args, more)


def sparse_step(rare: RareList, moves: SparseMoves, W: np.ndarray, base: int, head: np.ndarray, n: int, stop: int,
                maxv: int, small_values: bool, compact: bool = False) -> tuple[int, int, int]:
    """The sparse kernel from heap n towards stop: (heap reached, largest value, stopping reason: 0 when it reached
    stop, else NEW_RARE, WIDEN, RARE_FULL, LARGE_VALUE or GAP). The small-value variant (values below kernels.SMALL,
    one word of bits) runs while `small_values`; `rare.count` is kept up to date. It runs in the pieces that the
    run's ThreadChoice times, each on the thread count it picks (never a value: sparse.py says why). Values in uint8
    for the stamp kernel stop it at once with WIDEN unless the store is `compact` (sparse_dtype)."""
    if small_values and W.dtype != np.uint8 and not compact and (rare.mask or rare.e):
        # the word kernel runs on uint8 only (one compile): values below 64 held wider (the store widened for the
        # stamp kernel while a zero mask kept the word kernel out) are narrowed first; with a zero mask and no parity
        # bit every value is rare and the word kernel stops at once, so they stay as they are
        return n, maxv, NARROW
    if W.dtype != sparse_dtype(W.dtype, not small_values, compact):
        return n, maxv, WIDEN  # the stamp kernel reads uint16 and wider only: widen first
    choice = current_choice()
    kind = "sparse small" if small_values else "sparse"
    vlimit = () if small_values else (int(np.iinfo(W.dtype).max),)  # the stamp kernel's: W's largest value
    more = (*vlimit, choice.most)  # the parallel entry's arguments after the kernel's own
    while True:
        args = (W, base, head, n, stop, maxv, moves.whole, moves.one, moves.two, moves.tie2, moves.eq, rare.positions,
                rare.count, rare.values, rare.mask, rare.e, rare.k0)
        # the parallel way once it may be tried, there is enough far work to share out, and its entry is compiled
        # (each kernel has a one-thread entry and a parallel one: a run that stays on one thread, a census worker or
        # `--threads 1`, compiles no parallel pass; one that may use more compiles it in a thread beside the run)
        shareable = (choice.ripe(kind) and rare.count >= kernels.PARALLEL_RARE
                     and _parallel_ready(small_values, args, more))
        threads, end = choice.piece(kind, n, stop, shareable=shareable)
        kernels.set_threads(threads)
        args = args[:4] + (end,) + args[5:]
        t0, c0 = time.perf_counter(), time.thread_time()
        if small_values:
            fill = kernels.fill_sparse_small if threads == 1 else kernels.fill_sparse_small_parallel
        else:
            fill = kernels.fill_sparse if threads == 1 else kernels.fill_sparse_parallel
        reached, top, count, flag = fill(*args, *vlimit, threads)
        choice.record(kind, threads, int(reached) - n, time.perf_counter() - t0, cpu=time.thread_time() - c0,
                      planned=end - n)
        rare.count = int(count)
        n, maxv = int(reached), int(top)
        if flag or n >= stop:
            return n, maxv, int(flag)


class SparseStore(Protocol):
    """Where a sparse run's values live: one array from heap 0 (a whole-array run), or a head and a sliding window
    (a stream run). The loop asks it for the arrays and tells it what each stop of the kernel means. A `compact`
    store keeps uint8 values for the stamp kernel too (sparse_dtype)."""

    compact: bool

    def sparse_arrays(self) -> tuple[np.ndarray, int, np.ndarray]:
        """(W holding heaps base…, base, head holding heaps 0…): read afresh after every call of the kernel."""

    def sparse_computed(self, begin: int, end: int, maxv: int) -> None:
        """Heaps begin..end−1 are computed; maxv is the largest value so far."""

    def sparse_new_rare(self) -> RareList | None:
        """A rare value never seen before: a better split to go on with, or None to keep the present one."""

    def sparse_blocked(self, why: int, at: int) -> bool:
        """Heap `at` cannot be computed as things are — its value does not fit the dtype (WIDEN), it needs a value
        no longer held (GAP), or values below 64 are held wider than the word kernel reads (NARROW, a store that is
        not compact): make room or narrow and go on (True), or stop here (False)."""


def sparse_fill(store: SparseStore, split: RareList, moves: SparseMoves, n: int, stop: int,
                maxv: int) -> tuple[int, int, RareList, int]:
    """Compute heaps n..stop−1 into `store` with the sparse kernel: (heap reached, largest value, the split in use,
    DONE, or the reason — WIDEN or GAP — the store declined to go on). The word kernel runs while every value is below
    kernels.SMALL; every other stop is handed to the store."""
    small_values = maxv < kernels.SMALL
    while n < stop:
        begin = n  # the arrays are not held here: a store that reallocates them frees the old ones at once
        n, maxv, why = sparse_step(split, moves, *store.sparse_arrays(), n, stop, maxv, small_values, store.compact)
        store.sparse_computed(begin, n, maxv)
        if why == NEW_RARE:
            split = store.sparse_new_rare() or split
        elif why == LARGE_VALUE:
            small_values = False
        elif why == RARE_FULL:
            split.grow()
        elif why in (WIDEN, GAP, NARROW) and not store.sparse_blocked(why, n):
            return n, maxv, split, why
    return n, maxv, split, DONE


class RecomputeStore:
    """A store that only recomputes held heaps in place (a stream run's check of a resumed window): it keeps the split,
    widens nothing and fetches nothing, so the loop stops where the held values cannot be recomputed."""

    compact = True  # it widens nothing

    def __init__(self, W: np.ndarray, base: int, head: np.ndarray):
        self.arrays = (W, base, head)

    def sparse_arrays(self) -> tuple[np.ndarray, int, np.ndarray]:
        return self.arrays

    def sparse_computed(self, begin: int, end: int, maxv: int) -> None:
        pass

    def sparse_new_rare(self) -> None:
        return None

    def sparse_blocked(self, why: int, at: int) -> bool:
        return False

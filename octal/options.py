"""The options of one heap under a code's rules: every move as (tokens removed, heaps left), constraints applied.

This is the rules' own word on what a move is, used by positions, play, misère and every exhaustive search;
the nim-sequence kernels compute from a compiled description of the same rules (`OctalCode.kernel_moves`,
`OctalCode.tie_table`) and are tested against it. Heaps left are listed as partitions in ascending order.
"""

from __future__ import annotations

from typing import Iterator

from .code import OctalCode
from .digits import EQUAL, NOT_ALL_EQUAL, UNEQUAL
from .presets import Preset, as_code


def partitions(m: int, j: int, tie: str, lowest: int = 1) -> Iterator[tuple[int, ...]]:
    """Partitions of m into j parts ≥ `lowest`, ascending, under a constraint mark (free, '!', '?', '=')."""
    if j == 0:
        if m == 0:
            yield ()
        return
    if j == 1:  # a mark constrains two or more heaps: one heap is never refused by it
        if m >= lowest:
            yield (m,)
        return
    if tie == EQUAL:
        if m % j == 0 and m // j >= lowest:
            yield (m // j,) * j
        return
    strict = tie == UNEQUAL
    for parts in _ascending(m, j, lowest, strict):
        if tie == NOT_ALL_EQUAL and parts[0] == parts[-1]:
            continue
        yield parts


def _ascending(m: int, j: int, lowest: int, strict: bool) -> Iterator[tuple[int, ...]]:
    if j == 1:
        if m >= lowest:
            yield (m,)
        return
    step = 1 if strict else 0
    a = lowest
    # the other j−1 parts are at least a+step, a+2·step, …
    while a + (j - 1) * (a + step) + step * (j - 1) * (j - 2) // 2 <= m:
        for rest in _ascending(m - a, j - 1, a + step, strict):
            yield (a, *rest)
        a += 1


def counts(code: OctalCode, k: int, m: int) -> Iterator[tuple[int, str]]:
    """(j, mark) for each number j of heaps a move removing k tokens may leave from m remaining tokens."""
    d = code.digit(k)
    top = min(m, d.max_heaps)
    for j in range(0 if k else 2, int(top) + 1):
        tie = d.tie(j)
        if tie is not None:
            yield j, tie


def heap_options(code: OctalCode, h: int, split_limit: int | None = None) -> Iterator[tuple[int, tuple[int, ...]]]:
    """Every move from a heap of h as (k removed, heaps left), by k, then count, then partition; at most
    `split_limit` splits per (k, count) when given."""
    top = h if not code.is_finite else min(h, int(code.max_take))
    for k in range(0, top + 1):
        m = h - k
        for j, tie in counts(code, k, m):
            for i, parts in enumerate(partitions(m, j, tie)):
                if split_limit is not None and i >= split_limit:
                    break
                yield k, parts


def allowed(code: OctalCode, heap: int, k: int, leaves: tuple[int, ...]) -> bool:
    """True when the rules allow removing k from `heap` leaving `leaves` — O(number of leaves), any heap size."""
    if k < 0 or any(x < 1 for x in leaves) or sum(leaves) != heap - k:
        return False
    j = len(leaves)
    if k == 0 and j < 2:
        return False
    tie = code.digit(k).tie(j)
    if tie is None:
        return False
    if j < 2:
        return True
    if tie == UNEQUAL:
        return len(set(leaves)) == j
    if tie == NOT_ALL_EQUAL:
        return len(set(leaves)) > 1
    if tie == EQUAL:
        return len(set(leaves)) <= 1
    return True


class HeapOptions:
    """The distinct options of each heap as sorted tuples of leaf heaps, heaps with no move dropped.

    A heap with no option is the game 0 (dead); leaving one is the same as leaving nothing. Heaps are
    tabulated from 0 up, so a leaf's own options are known when it is asked whether it is dead.
    """

    def __init__(self, code: OctalCode | Preset | str):
        self.code = as_code(code)
        self._opts: list[tuple[tuple[int, ...], ...]] = []

    def __call__(self, h: int) -> tuple[tuple[int, ...], ...]:
        while len(self._opts) <= h:
            n = len(self._opts)
            words = {tuple(x for x in leaves if self._opts[x]) for _, leaves in heap_options(self.code, n)}
            self._opts.append(tuple(sorted(words)))
        return self._opts[h]

    def live(self, h: int) -> bool:
        return bool(self(h))

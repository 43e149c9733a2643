"""One sparse run's state and step, shared by the whole-array driver (sequence.py) and the stream run (stream.py):
the rare/common split it carries (mask, parity bit and offset, the rare positions and their values) and one call of
the sparse kernel, whose stopping reasons are named here instead of numbered on both sides."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..rules.code import OctalCode
from . import kernels
from .kernels.reasons import GAP, LARGE_VALUE, NEW_RARE, RARE_FULL, WIDEN
from .rare import rare_split

__all__ = ["GAP", "LARGE_VALUE", "NEW_RARE", "RARE_FULL", "WIDEN", "RareList", "SparseMoves", "sparse_step"]


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


def sparse_step(rare: RareList, moves: SparseMoves, W: np.ndarray, base: int, head: np.ndarray, n: int, stop: int,
                maxv: int, small_values: bool) -> tuple[int, int, int]:
    """One call of the sparse kernel from heap n towards stop: (heap reached, largest value, stopping reason: 0 when
    it reached stop, else NEW_RARE, WIDEN, RARE_FULL, LARGE_VALUE or GAP). The small-value variant (values below
    kernels.SMALL, one word of bits) runs while `small_values`; `rare.count` is kept up to date."""
    args = (W, base, head, n, stop, maxv, moves.whole, moves.one, moves.two, moves.tie2, moves.eq, rare.positions,
            rare.count, rare.values, rare.mask, rare.e, rare.k0)
    if small_values:
        reached, top, count, flag = kernels.fill_sparse_small(*args)
    else:
        reached, top, count, flag = kernels.fill_sparse(*args, int(np.iinfo(W.dtype).max))
    rare.count = int(count)
    return int(reached), int(top), int(flag)

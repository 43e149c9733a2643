"""The rare/common split of a nim sequence: the mask chosen by a Walsh–Hadamard transform, rare positions.

For a mask m, heap n is a rare position when popcount(G(n) & m) is even (xor-ed with e·((n − k0) mod 2)
in the position-parity variant). The number of rare positions under every mask at once is
(N + Ĥ(m)) / 2 where Ĥ is the Walsh–Hadamard transform of the value histogram: O(V log V).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..rules.code import OctalCode
from .kernels.parity import rare_positions, walsh_hadamard
from .moves import kernel_moves


@dataclass(frozen=True)
class RareSplit:
    """A mask (and parity bit e with offset k0) and the rare positions it gives among heaps 0..n−1."""

    mask: int
    e: int
    k0: int
    positions: np.ndarray

    @property
    def count(self) -> int:
        return len(self.positions)


def parity_variant_allowed(code: OctalCode) -> tuple[bool, int]:
    """(allowed, k0): the position-parity bit is sound when every split digit k has one parity."""
    if not code.is_finite:
        return False, 0
    moves = kernel_moves(code, len(code.digits))
    ks = sorted(moves.two.tolist() + moves.two_unequal.tolist())
    if not ks:
        return False, 0
    return len({k & 1 for k in ks}) == 1, ks[0]


def choose_mask(values: np.ndarray, code: OctalCode) -> tuple[int, int, int]:
    """(mask, e, k0) that makes the fewest rare positions among `values` (ties: smallest mask)."""
    n = len(values)
    top = int(values.max()) if n else 0
    P = 1
    while P <= top:
        P *= 2
    P = max(P, 2)
    allowed, k0 = parity_variant_allowed(code)
    size = 2 * P if allowed else P
    idx = values.astype(np.int64)
    if allowed:
        idx = idx + P * ((np.arange(n, dtype=np.int64) - k0) & 1)
    h = np.bincount(idx, minlength=size).astype(np.int64)
    walsh_hadamard(h)
    h[0] = np.iinfo(np.int64).max  # the zero mask makes every position rare
    best = int(np.argmin(h))  # argmin returns the first, i.e. smallest, mask among ties
    e = 1 if (allowed and best & P) else 0
    return best & (P - 1), e, (k0 if e else 0)


def rare_split(values: np.ndarray, code: OctalCode, mask: int | None = None, e: int = 0, k0: int = 0) -> RareSplit:
    """The rare positions among `values` under (mask, e, k0); the best mask is chosen when mask is None."""
    if mask is None:
        mask, e, k0 = choose_mask(values, code)
    return RareSplit(mask, e, k0, rare_positions(values, mask, e, k0))

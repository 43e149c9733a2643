"""The kernels' input, built from a code in one place for the sequence driver and the stream run alike: the removals
by what they leave (octal and hexadecimal kernels), the octal kernels' merged split list, and the tie table and count
cap of the general kernel. The rules describe games; this module lays them out as the compiled kernels read them."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..rules.code import OctalCode
from ..rules.digits import EQUAL, FREE, TIE_CODES


@dataclass(frozen=True)
class KernelMoves:
    """The removals k < limit by what they leave, sorted: the naive, hexadecimal and sparse kernels' input.

    `two` splits freely, `two_unequal` only into unequal heaps, `two_equal` only into equal ones.
    """

    whole: np.ndarray
    one: np.ndarray
    two: np.ndarray
    two_unequal: np.ndarray
    two_equal: np.ndarray
    three: np.ndarray

    def octal_split(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(two, tie2, eq) for the octal kernels: free and unequal splits merged by k, tie2 = 1 for unequal."""
        two = np.concatenate([self.two, self.two_unequal])
        tie2 = np.concatenate([np.zeros(len(self.two), np.int64), np.ones(len(self.two_unequal), np.int64)])
        order = np.argsort(two, kind="stable")
        return two[order], tie2[order], self.two_equal


def kernel_moves(code: OctalCode, limit: int) -> KernelMoves:
    """For k < limit, the removals by what they leave (OCTAL and HEXADECIMAL tiers)."""
    out: dict[str, list[int]] = {n: [] for n in ("whole", "one", "two", "two_unequal", "two_equal", "three")}
    for k in range(limit if code.tail else min(limit, len(code.digits))):
        d = code.digit(k)
        if d.tie(0) is not None and k:
            out["whole"].append(k)
        if d.tie(1) is not None and k:
            out["one"].append(k)
        tie2 = d.tie(2)
        if tie2 == FREE:
            out["two"].append(k)
        elif tie2 == EQUAL:
            out["two_equal"].append(k)
        elif tie2 is not None:  # '!' and '?' agree on two heaps: not the equal split
            out["two_unequal"].append(k)
        if d.tie(3) is not None:
            out["three"].append(k)
    return KernelMoves(*(np.asarray(out[n], np.int64) for n in KernelMoves.__dataclass_fields__))


def count_cap(code: OctalCode) -> int:
    """J: heap counts 0..J−1 are tabulated one by one; column J of `tie_table` stands for every count ≥ J."""
    return max([3] + [len(d.ties) for d in code.digits + code.tail])


def tie_table(code: OctalCode, limit: int) -> np.ndarray:
    """ties[k, j] for k < limit and j ≤ J (see count_cap), coded by digits.TIE_CODES: the general kernel's input."""
    J = count_cap(code)
    rows = limit if code.tail else min(limit, len(code.digits))
    table = np.zeros((max(rows, 0), J + 1), np.int8)
    for k in range(rows):
        d = code.digit(k)
        for j in range(J + 1):
            table[k, j] = TIE_CODES[d.tie(j)]
    return table

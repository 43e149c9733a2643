"""The ruleset interface: what every game family says about itself, and all the engine above it asks.

One unit per concept of the theory (after CGSuite's HeapRuleset): a heap's options (positions, misère, the
exhaustive searches), the compiled description the kernels read, the periodicity theorem's criteria (or None),
its text form and its rules in words. Codes implement it (`OctalCode`); subtraction games, all-but games and
Flammenkamp's 0.0n7 family are written as codes (families.py), so they implement it too.
"""

from __future__ import annotations

from typing import Iterator, Protocol, runtime_checkable

import numpy as np

from .code import Criteria, KernelMoves


@runtime_checkable
class Ruleset(Protocol):
    """A take-and-break game on heaps: its moves, its kernel description, its proof criteria and its words."""

    def options(self, h: int, split_limit: int | None = None) -> Iterator[tuple[int, tuple[int, ...]]]:
        """Every move from a heap of h: (tokens removed, heaps left)."""

    def allows(self, heap: int, k: int, leaves: tuple[int, ...]) -> bool:
        """Whether one move is legal, without listing the heap's moves."""

    @property
    def tier(self) -> str:
        """Which kernels can compute it (OCTAL, HEXADECIMAL, GENERAL)."""

    def kernel_moves(self, limit: int) -> KernelMoves:
        """The removals below `limit` by what they leave (OCTAL and HEXADECIMAL kernels)."""

    def tie_table(self, limit: int) -> np.ndarray:
        """Constraint per removal and heap count (the GENERAL kernel)."""

    @property
    def proof_criteria(self) -> Criteria | None:
        """(heaps r, take t) for the Guy–Smith bound, or None where no theorem applies."""

    def describe(self) -> str:
        """The rules in words."""

"""Candidates for a misère quotient and their exact verification.

A pretension is a finite commutative monoid (a table), a P-portion and a pretending function Φ on heaps.
The pair σ(w) = (Φ(w), {Φ(w') : w' an option of w}) of a word w (a multiset of heaps) obeys
σ(w·h) = (Φ(w)Φ(h), O(w)·Φ(h) ∪ Φ(w)·T(h)) with T(h) the classes of h's options, so the pairs reachable
from the empty word are finite, and Φ predicts every misère outcome iff each reachable pair satisfies
Φ(w) ∈ P ⇔ (O(w) ≠ ∅ and O(w) ∩ P = ∅) (induction on the game tree; the empty word is N). `verify`
walks those pairs; `mark_p` guesses a P-portion from each element's least word.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..rules.options import HeapOptions
from . import kernel

MAX_STATES = 3_000_000  # (Φ(w), O(w)) pairs examined by one verification


class QuotientFailure(Exception):
    """Internal: no candidate could be built within the limits (the quotient is reported as growing)."""


# ---- element sets as uint64 words ------------------------------------------------------------------

def _words(m: int) -> int:
    return max(1, (m + 63) // 64)


def set_mask(flags: np.ndarray) -> np.ndarray:
    """A bool array over the elements as a row of uint64 words."""
    out = np.zeros(_words(len(flags)), dtype=np.uint64)
    for x in np.flatnonzero(flags):
        out[x >> 6] |= np.uint64(1) << np.uint64(x & 63)
    return out


def times_masks(mul: np.ndarray, elems) -> np.ndarray:
    """Row y: the set {y·t : t ∈ elems} as uint64 words."""
    out = np.zeros((len(mul), _words(len(mul))), dtype=np.uint64)
    kernel.fill_times_masks(mul, np.array(sorted(elems), dtype=np.int64), out)
    return out


# ---- the game's heaps ------------------------------------------------------------------------------

def weight(options: HeapOptions, h: int) -> int:
    """More than the weight of any option of h (h, or h² when a heap may split without losing a token),
    so searches ordered by total weight meet every option before its position."""
    return h * h if options.code.digit(0) else h


# ---- pretensions -----------------------------------------------------------------------------------

@dataclass
class Pretension:
    """A candidate: monoid table, P-portion, Φ for heaps 0..n and T(h) = classes of each heap's options."""

    mul: np.ndarray
    p: np.ndarray
    phi: list[int]
    trans: list[frozenset[int]]

    def element(self, word) -> int:
        x = 0
        for h in word:
            x = int(self.mul[x, self.phi[h]])
        return x


def transitions(times: Callable[[int, int], int], phi: list[int], options: HeapOptions, h: int) -> frozenset[int]:
    """T(h): the classes of the options of heap h."""
    out = set()
    for word in options(h):
        x = 0
        for leaf in word:
            x = times(x, phi[leaf])
        out.add(x)
    return frozenset(out)


def table_times(mul: np.ndarray) -> Callable[[int, int], int]:
    return lambda a, b: int(mul[a, b])


def _generators(phi: list[int], trans: list[frozenset[int]], options: HeapOptions):
    """Distinct (Φ(h), T(h)) pairs of live heaps, each with its smallest heap (the cheapest witness) and weight."""
    seen: dict[tuple[int, frozenset[int]], int] = {}
    for h in range(1, len(phi)):
        if options.live(h):
            seen.setdefault((phi[h], trans[h]), h)
    return [(g, t, h, weight(options, h)) for (g, t), h in seen.items()]


def _kernel_gens(mul: np.ndarray, gens) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    elem = np.array([g for g, *_ in gens], dtype=np.int64)
    wt = np.array([w for *_, w in gens], dtype=np.int64)
    tmask = np.zeros((len(gens), len(mul), _words(len(mul))), dtype=np.uint64)
    for k, (_, t, _, _) in enumerate(gens):
        tmask[k] = times_masks(mul, t)
    return elem, wt, tmask


def verify(pre: Pretension, options: HeapOptions, max_states: int = MAX_STATES,
           states: list | None = None, charge: Callable[[int], None] | None = None) -> tuple[int, ...] | None:
    """The least (by weight) word whose outcome Φ predicts wrongly, or None when Φ predicts every outcome.

    Dijkstra over the pairs σ(w) = (Φ(w), O(w)) by the least weight of a word reaching them: every
    option of that word weighs less, so its pair was checked earlier and the first failure is genuine.
    On success the reachable pairs go to `states` (when given) for quick checks of the next heap; `charge`
    (when given) is told the steps taken (pairs examined × generators), the unit of the quotient builder's work budget.
    """
    if pre.p[0]:
        return ()
    gens = _generators(pre.phi, pre.trans, options)
    elem, wt, tmask = _kernel_gens(pre.mul, gens)
    fail, count, xs, sets, parent, pgen = kernel.explore(pre.mul, pre.p, set_mask(pre.p), elem, wt, tmask,
                                                          max_states)
    if charge is not None:
        charge((max_states if count < 0 else int(count)) * len(gens))
    if count < 0:
        raise QuotientFailure(f"verification passed {max_states:,} states")
    if fail >= 0:
        word = []
        i = fail
        while parent[i] >= 0:
            word.append(gens[pgen[i]][2])
            i = parent[i]
        return tuple(sorted(word))
    if states is not None:
        states[:] = [xs.copy(), sets.copy()]
    return None


def mark_p(mul: np.ndarray, phi: list[int], trans: list[frozenset[int]], options: HeapOptions) -> np.ndarray:
    """P-portion of a trial monoid: each element takes the outcome of its least word (Dijkstra by weight)."""
    elem, wt, tmask = _kernel_gens(mul, _generators(phi, trans, options))
    return kernel.mark(mul, elem, wt, tmask)

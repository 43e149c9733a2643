"""The asteroidal number of a graph, up to a small bound: where Bodlaender and Kratsch's polynomial bound applies.

An asteroidal set is an independent set whose every member misses a path joining any two of the others; the
asteroidal number an(G) is the size of the largest. Node Kayles is polynomial on graphs of bounded asteroidal
number (Bodlaender–Kratsch, "Kayles and nimbers", 2002: O(n³) on cocomparability graphs, which are AT-free, i.e.
an ≤ 2). The search here finds a witness of each size, and proves an(G) = k by finding no set of k + 1.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .graph import Graph, bits
from .kernel import asteroidal_set, avoidance_labels

AT_LIMIT = 600  # vertices (after merging twins): an n×n table of labels and O(n³) triples
SET_BOUND = 4  # look for asteroidal sets up to this size: an(G) = 3 is certified by finding no set of 4
STEP_BUDGET = 300_000_000  # extension steps (a second or so) before the answer is left as a lower bound


@dataclass(frozen=True)
class Asteroidal:
    """an(G) ≥ number, witnessed by `witness`; exactly `number` when `exact` (no asteroidal set one larger)."""

    number: int
    exact: bool
    witness: tuple[int, ...]

    @property
    def at_free(self) -> bool | None:
        """No asteroidal triple (an ≤ 2): None when the search stopped below 3 without deciding."""
        if self.number >= 3:
            return False
        return True if self.exact else None

    def __repr__(self) -> str:
        return f"Asteroidal({'' if self.exact else '≥ '}{self.number}, witness={self.witness})"


def asteroidal_number(graph: Graph, bound: int = SET_BOUND, budget: int = STEP_BUDGET) -> Asteroidal:
    """an(G) when it is below `bound` (proven by exhaustive extension), else the lower bound `bound`."""
    nbrs = [list(bits(a)) for a in graph.adj]
    indptr = np.zeros(graph.n + 1, np.int64)
    indptr[1:] = np.cumsum([len(x) for x in nbrs])
    indices = np.array([u for x in nbrs for u in x], np.int64) if indptr[-1] else np.zeros(0, np.int64)
    comp = avoidance_labels(indptr, indices)
    best: tuple[int, ...] = (0,)
    for k in range(2, bound + 1):
        found, finished = asteroidal_set(comp, k, budget)
        if not finished:
            return Asteroidal(len(best), False, best)
        if len(found) == 0:
            return Asteroidal(len(best), True, best)
        best = tuple(int(v) for v in found)
    return Asteroidal(len(best), False, best)


def find_asteroidal_triple(graph: Graph) -> tuple[int, int, int] | None:
    """An asteroidal triple of `graph` (vertex numbers), or None when it is AT-free (asteroidal number ≤ 2)."""
    a = asteroidal_number(graph, bound=3, budget=1 << 62)
    return a.witness if a.number >= 3 else None

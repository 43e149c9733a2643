"""Exact memoized search for Node Kayles (and so the clique-forming game, Node Kayles on the complement), under a
budget of component states.

Node Kayles: a move picks a vertex and deletes it with its neighbours; the last player to move wins. The remaining
graph falls apart into connected components whose Grundy values nim-sum (Sprague–Grundy), so the search works per
component: vertex subsets are bitmasks, and components are cached by an exact canonical form (colour refinement,
then the least adjacency code over the orderings it allows), so isomorphic components are solved once.
"""

from __future__ import annotations

import itertools
import math
import sys
from typing import Callable

import numpy as np

from ..errors import ResourceLimitError
from .graph import Graph, bits, components, popcount
from .kernel import neighbour_table, node_kayles_value

MAX_STATES = 20_000_000  # component states (the compiled path keeps about 10 bytes per state)
MEMORY_BUDGET = 1 << 30  # bytes the Python path's caches may take (a state costs about 200 bytes plus its bitmask)
PYTHON_WORK = 800_000_000  # the Python path's default budget, in vertex pairs: a piece of n vertices gets
# PYTHON_WORK // n² component states (80,000 at 100 vertices, 3,200 at 500): a count of work, so the answer never
# depends on the machine; chosen so that G(100, 0.1) is refused after about 13 s here (2-core EPYC), as the 15 s of
# CPU it replaces did, and interval graphs given by their edges are solved to 414 vertices as before
CANON_LIMIT = 14  # components up to this size get an exact canonical form
PERMUTATION_LIMIT = 2_000  # orderings tried per canonical form before falling back to the vertex set


def python_state_limit(n: int) -> int:
    """Component states the Python path may cache on a graph of n vertices within MEMORY_BUDGET."""
    return MEMORY_BUDGET // (200 + n // 8)


def python_default_states(n: int) -> int:
    """The Python path's default budget of component states on a piece of n vertices: PYTHON_WORK // n²."""
    return max(1, PYTHON_WORK // max(1, n * n))


class NodeKayles:
    """Grundy values of vertex subsets of one graph, component by component.

    Graphs of at most 64 vertices run in the compiled kernel (graphs/kernel.py), memoized by
    vertex set and, for paths and cycles, by shape; larger ones run here in Python, where every
    component is also cached by an exact canonical form so isomorphic ones are solved once (a general
    canonical form costs about a hundred compiled states, so the compiled path keeps to the cheap shapes).
    """

    def __init__(self, graph: Graph, max_states: int | None = None, progress: Callable[[int], None] | None = None):
        """`max_states`: the budget of component states (default: MAX_STATES compiled, `python_default_states` in
        Python, whose caches never exceed MEMORY_BUDGET either)."""
        self.g = graph
        self.closed = tuple(a | (1 << v) for v, a in enumerate(graph.adj))  # N[v]
        self.by_set: dict[int, int] = {}
        self.by_form: dict[tuple, int] = {}
        self.progress = progress
        self.states = 0
        self.compiled = graph.n <= 64
        self.max_states = max_states or MAX_STATES
        if max_states is None and not self.compiled:
            self.max_states = python_default_states(graph.n)
        if not self.compiled:
            self.max_states = min(self.max_states, python_state_limit(graph.n))
            sys.setrecursionlimit(max(sys.getrecursionlimit(), 3 * graph.n + 1_000))  # two frames per move
        if self.compiled:
            self._adj = np.array(graph.adj, dtype=np.uint64) if graph.n else np.zeros(1, np.uint64)
            self._closed = np.array(self.closed, dtype=np.uint64) if graph.n else np.zeros(1, np.uint64)
            self._T = neighbour_table(self._adj)
            self._keys = np.zeros(1 << 12, np.uint64)
            self._vals = np.zeros(1 << 12, np.uint8)
            self._by_shape = np.full((3, 66), -1, np.int64)  # paths and cycles by length

    def _compiled_value(self, mask: int) -> int | None:
        """The kernel's answer, or None when a value reached 64 (then Python takes over)."""
        # the kernel runs in slices of the state budget so progress can be shown between them
        while True:
            budget = min(self.max_states, self.states + 200_000)
            value, self._keys, self._vals, count, status = node_kayles_value(
                self._adj, self._closed, self._T, np.uint64(mask), self._keys, self._vals, self._by_shape,
                self.states, budget,
            )
            self.states = int(count)
            if status == 0:
                return int(value)
            if status == 2:
                self.compiled = False
                return None
            if self.states >= self.max_states:
                raise self._too_big()
            if self.progress is not None:
                self.progress(self.states)

    def _too_big(self) -> ResourceLimitError:
        return ResourceLimitError(
            f"Node Kayles on this graph needs more than {self.max_states:,} component states (a prime piece of "
            f"{self.g.n} vertices and {self.g.edges} edges); a larger --max-states may reach it"
        )

    def value(self, mask: int | None = None) -> int:
        """Grundy value of the subgraph induced by `mask` (all vertices when None): nim-sum of components."""
        if mask is None:
            mask = (1 << self.g.n) - 1
        if self.compiled:
            v = self._compiled_value(mask)
            if v is not None:
                return v
        total = 0
        for comp in components(self.g.adj, mask):
            total ^= self._component(comp)
        return total

    def _component(self, comp: int) -> int:
        cached = self.by_set.get(comp)
        if cached is not None:
            return cached
        size = popcount(comp)
        form = self._canonical(comp, size) if size <= CANON_LIMIT else None
        if form is not None and form in self.by_form:
            v = self.by_form[form]
        else:
            v = self._solve(comp, size)
            if form is not None:
                self.by_form[form] = v
        self.by_set[comp] = v
        return v

    def _solve(self, comp: int, size: int) -> int:
        self.states += 1
        if self.states > self.max_states:
            raise self._too_big()
        if self.progress is not None and self.states % 20_000 == 0:
            self.progress(self.states)
        adj = self.g.adj
        if all(adj[v] & comp == comp & ~(1 << v) for v in bits(comp)):
            return 1  # a clique: every move ends it
        options = set()
        for v in bits(comp):
            rest = comp & ~self.closed[v]
            x = 0
            for c in components(self.g.adj, rest):
                x ^= self._component(c)
            options.add(x)
        g = 0
        while g in options:
            g += 1
        return g

    def _canonical(self, comp: int, size: int) -> tuple | None:
        """An exact canonical form of the component, or None when too many orderings remain."""
        verts = list(bits(comp))
        adj = self.g.adj
        local = {v: i for i, v in enumerate(verts)}
        nbrs = [[local[u] for u in bits(adj[v] & comp)] for v in verts]
        colour = [len(x) for x in nbrs]
        for _ in range(size):  # colour refinement to a stable partition
            sig = [(colour[i], tuple(sorted(colour[j] for j in nbrs[i]))) for i in range(size)]
            ranks = {s: r for r, s in enumerate(sorted(set(sig)))}
            new = [ranks[s] for s in sig]
            if len(set(new)) == len(set(colour)):
                colour = new
                break
            colour = new
        classes = [sorted(i for i in range(size) if colour[i] == c) for c in sorted(set(colour))]
        count = 1
        for cls in classes:
            count *= math.factorial(len(cls))
            if count > PERMUTATION_LIMIT:
                return None
        best = None
        for perm_parts in itertools.product(*(itertools.permutations(c) for c in classes)):
            order = [i for part in perm_parts for i in part]
            pos = {v: k for k, v in enumerate(order)}
            code = tuple(sorted((min(pos[i], pos[j]), max(pos[i], pos[j]))
                                for i in range(size) for j in nbrs[i] if i < j))
            if best is None or code < best:
                best = code
        return (size, tuple(len(c) for c in classes), best)

    def after_moves(self) -> list[int]:
        """The value left by a move at each vertex (the move wins where it is 0)."""
        full = (1 << self.g.n) - 1
        return [self.value(full & ~self.closed[v]) for v in range(self.g.n)]

    def winning_vertices(self) -> list[int]:
        """Vertices whose move leaves value 0."""
        return [v for v, x in enumerate(self.after_moves()) if x == 0]

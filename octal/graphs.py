"""Node Kayles and the clique-forming game on simple undirected graphs, by exact memoized search.

Node Kayles: a move picks a vertex and deletes it with its neighbours; the last player to move wins.
The remaining graph falls apart into connected components whose Grundy values nim-sum (Sprague–Grundy),
so the search works per component: vertex subsets are bitmasks, and components are cached by an exact
canonical form (colour refinement, then the least adjacency code over the orderings it allows), so
isomorphic components are solved once. On a path of n vertices Node Kayles is the octal game 0.137.
The clique-forming game: players add a vertex adjacent to every vertex chosen so far; last to move wins.
"""

from __future__ import annotations

import heapq
import itertools
import math
import operator
import random
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable

import numpy as np

from .engine.kernels.graph import (
    asteroidal_triple,
    interval_node_kayles,
    neighbour_table,
    node_kayles_value,
    permutation_node_kayles,
)
from .engine.sequence import nim_sequence
from .errors import DataFileError, InvalidArgumentError, OctalError, ResourceLimitError
from .outcomes import NEXT, PREVIOUS

MAX_VERTICES = 120  # exact search, after true twins are merged
MAX_BUILD = 20_000  # vertices a graph may have at all (paths, cycles and their blow-ups are solved by shape)
MAX_EDGES = 2_000_000
MAX_INTERVALS = 3_000  # the window recursion keeps (n+1)² values and costs O(n³)
AT_LIMIT = 600  # graphs checked for an asteroidal triple (O(n³) triples, an n×n table)
MAX_STATES = 20_000_000  # component states (the compiled path keeps about 10 bytes per state)
PYTHON_MAX_STATES = 2_000_000  # graphs of more than 64 vertices run in Python
CANON_LIMIT = 14  # components up to this size get an exact canonical form
PERMUTATION_LIMIT = 2_000  # orderings tried per canonical form before falling back to the vertex set


@dataclass(frozen=True)
class Graph:
    """n vertices 0..n−1 with adjacency bitmasks; `labels` are the names shown to the user."""

    n: int
    adj: tuple[int, ...]
    labels: tuple = ()
    intervals: tuple = ()  # an interval model (start, end) per vertex when the graph was built from one
    permutation: tuple = ()  # a permutation model: vertex i is the segment from i to permutation[i]

    @property
    def edges(self) -> int:
        return sum(bin(a).count("1") for a in self.adj) // 2

    def label(self, v: int):
        return self.labels[v] if self.labels else v


def check_size(n: int, what: str, edges: int = 0) -> None:
    """Refuse a graph of no vertex, or too large to build (MAX_BUILD vertices, MAX_EDGES edges), before anything
    is built; whether it can be solved is decided later (by its shape, or by exact search on MAX_VERTICES)."""
    if n <= 0:
        raise InvalidArgumentError(f"{what}: the graph needs at least one vertex")
    if n > MAX_BUILD or edges > MAX_EDGES:
        size = f"{n:,} vertices" if n > MAX_BUILD else f"{edges:,} edges"
        raise ResourceLimitError(f"{what}: {size} is beyond exact search here (graphs up to {MAX_BUILD:,} vertices "
                                 f"and {MAX_EDGES:,} edges are built)")


def graph_from_edges(edges, n: int | None = None, labels=None) -> Graph:
    """A simple graph from (u, v) pairs on vertices 0..n−1 (n defaults to 1 + the largest vertex)."""
    try:
        edges = [(int(u), int(v)) for u, v in edges]
        if n is not None:
            n = operator.index(n)
    except (TypeError, ValueError):
        raise InvalidArgumentError("edges are pairs of whole-number vertices 0..n−1") from None
    if n is None:
        n = 1 + max((max(u, v) for u, v in edges), default=-1)
    check_size(n, "graph")
    adj = [0] * n
    for u, v in edges:
        if not (0 <= u < n and 0 <= v < n):
            raise InvalidArgumentError(f"edge ({u}, {v}) names a vertex outside 0..{n - 1}")
        if u == v:
            raise InvalidArgumentError(f"loop at vertex {u}: graphs must be simple")
        adj[u] |= 1 << v
        adj[v] |= 1 << u
    return Graph(n, tuple(adj), tuple(labels) if labels else ())


def graph_from_networkx(g) -> Graph:
    """A networkx graph (any hashable node names) as a Graph; node names become labels."""
    check_size(g.number_of_nodes(), "networkx graph")
    nodes = list(g.nodes)
    index = {v: i for i, v in enumerate(nodes)}
    return graph_from_edges([(index[u], index[v]) for u, v in g.edges if u != v], len(nodes), nodes)


def graph_from_graph6(text: str) -> Graph:
    """Decode a graph6 string (McKay's format; n < 258048)."""
    s = text.strip()
    if s.startswith(">>graph6<<"):
        s = s[10:]
    try:
        data = [ord(c) - 63 for c in s]
        if not data or any(not 0 <= x < 64 for x in data):
            raise ValueError
        if data[0] < 63:
            n, rest = data[0], data[1:]
        elif len(data) >= 4 and data[1] < 63:
            n, rest = (data[1] << 12) | (data[2] << 6) | data[3], data[4:]
        else:
            raise ValueError
    except ValueError:
        raise InvalidArgumentError(f"not a graph6 string: {text[:40]!r}") from None
    check_size(n, "graph6")
    need = n * (n - 1) // 2
    if len(rest) != math.ceil(need / 6):
        raise InvalidArgumentError(f"not a graph6 string: {text[:40]!r} (its length does not fit {n} vertices)")
    bits = [(x >> (5 - i)) & 1 for x in rest for i in range(6)]
    edges, k = [], 0
    for v in range(1, n):
        for u in range(v):
            if bits[k]:
                edges.append((u, v))
            k += 1
    return graph_from_edges(edges, n)


def read_edge_list(path: str | Path) -> Graph:
    """An edge-list file: one 'u v' per line ('#' comments; a lone 'u' adds an isolated vertex)."""
    p = Path(path)
    try:
        lines = p.read_text().splitlines()
    except OSError as exc:
        raise DataFileError(f"cannot read {p}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise DataFileError(f"cannot read {p}: not a text file") from None
    names: dict[str, int] = {}
    edges = []
    for no, line in enumerate(lines, 1):
        words = line.split("#", 1)[0].replace(",", " ").split()
        if not words:
            continue
        if len(words) > 2:
            raise DataFileError(f"{p}, line {no}: expected 'u v', got {line.strip()!r}")
        ids = [names.setdefault(w, len(names)) for w in words]
        if len(names) > MAX_VERTICES:
            check_size(len(names), f"{p}, line {no}")
        if len(ids) == 2:
            if ids[0] == ids[1]:
                raise DataFileError(f"{p}, line {no}: a loop at {words[0]} (graphs must be simple)")
            edges.append(tuple(ids))
    check_size(len(names), str(p))
    labels = [int(w) if w.lstrip("-").isdigit() else w for w in names]
    return graph_from_edges(edges, len(names), labels)


def interval_graph(intervals) -> Graph:
    """The intersection graph of closed intervals (start, end) with distinct endpoints, keeping the model."""
    ivs = [(int(a), int(b)) for a, b in intervals]
    if any(a >= b for a, b in ivs) or len({x for iv in ivs for x in iv}) != 2 * len(ivs):
        raise InvalidArgumentError("intervals need start < end and all endpoints distinct")
    check_size(len(ivs), "interval graph")
    order = sorted(range(len(ivs)), key=lambda v: ivs[v][0])
    adj = [0] * len(ivs)
    edges = 0
    for x, u in enumerate(order):  # sweep by start: u meets the later-starting v while v starts before u ends
        for v in order[x + 1 :]:
            if ivs[v][0] > ivs[u][1]:
                break
            adj[u] |= 1 << v
            adj[v] |= 1 << u
            edges += 1
            if edges > MAX_EDGES:
                check_size(len(ivs), "interval graph", edges)
    return Graph(len(ivs), tuple(adj), (), tuple(ivs))


def permutation_graph(perm) -> Graph:
    """The permutation graph of `perm` (a permutation of 0..n−1): i < j adjacent when perm[i] > perm[j]."""
    perm = [int(x) for x in perm]
    if sorted(perm) != list(range(len(perm))):
        raise InvalidArgumentError("a permutation of 0..n−1 is needed")
    check_size(len(perm), "permutation graph")
    adj = [0] * len(perm)
    for i in range(len(perm)):
        for j in range(i + 1, len(perm)):
            if perm[i] > perm[j]:
                adj[i] |= 1 << j
                adj[j] |= 1 << i
    edges = sum(bin(a).count("1") for a in adj) // 2
    check_size(len(perm), "permutation graph", edges)
    return Graph(len(perm), tuple(adj), (), (), tuple(perm))


def _random_tree(n: int, rng: random.Random) -> list[tuple[int, int]]:
    """A uniformly random labelled tree on n vertices, decoded from a random Prüfer sequence."""
    if n <= 2:
        return [(0, 1)] if n == 2 else []
    seq = [rng.randrange(n) for _ in range(n - 2)]
    degree = [1] * n
    for v in seq:
        degree[v] += 1
    edges = []
    leaves = [v for v in range(n) if degree[v] == 1]
    heapq.heapify(leaves)
    for v in seq:
        leaf = heapq.heappop(leaves)
        edges.append((leaf, v))
        degree[v] -= 1
        if degree[v] == 1:
            heapq.heappush(leaves, v)
    edges.append((heapq.heappop(leaves), heapq.heappop(leaves)))
    return edges


def _random_intervals(n: int, rng: random.Random, unit: bool) -> list[tuple[int, int]]:
    """n random intervals with distinct integer endpoints: random pairs of 2n points, or (unit) equal lengths."""
    if unit:  # starts uniform on a line of length n/3, length 1: about six neighbours each; ranks keep the order
        starts = sorted(rng.uniform(0, max(n / 3, 1)) for _ in range(n))
        points = sorted([(s, 0, v) for v, s in enumerate(starts)] + [(s + 1, 1, v) for v, s in enumerate(starts)])
        out = [[0, 0] for _ in range(n)]
        for rank, (_, side, v) in enumerate(points):
            out[v][side] = rank
        return [tuple(iv) for iv in out]
    points = list(range(2 * n))
    rng.shuffle(points)
    return [tuple(sorted(points[2 * v : 2 * v + 2])) for v in range(n)]


def named_graph(spec: str) -> Graph:
    """path:N, cycle:N, star:N (a centre and N leaves), complete:N, grid:WxH, clique-path:K:S (K cliques of S vertices
    in a row, each joined to the next), interval:N:SEED and unit-interval:N:SEED (random intervals, the model kept),
    permutation:N:SEED (a random permutation, the model kept), tree:N:SEED (a random labelled tree),
    caterpillar:S:L (a spine of S vertices with L leaves on each), petersen, random:N:P:SEED."""
    name, _, arg = spec.partition(":")
    name = name.strip().lower()
    try:
        if name == "petersen":
            outer = [(i, (i + 1) % 5) for i in range(5)]
            spokes = [(i, i + 5) for i in range(5)]
            inner = [(5 + i, 5 + (i + 2) % 5) for i in range(5)]
            return graph_from_edges(outer + spokes + inner, 10)
        if name == "grid":
            w, h = (int(x) for x in arg.lower().split("x"))
            if w <= 0 or h <= 0:
                raise InvalidArgumentError(f"{spec}: a grid needs a positive width and height")
            check_size(w * h, spec, 2 * w * h)
            edges = [(y * w + x, y * w + x + 1) for y in range(h) for x in range(w - 1)]
            edges += [(y * w + x, (y + 1) * w + x) for y in range(h - 1) for x in range(w)]
            return graph_from_edges(edges, w * h)
        if name in ("interval", "unit-interval"):
            n_text, seed_text = arg.split(":")
            n, seed = int(n_text), int(seed_text)
            check_size(n, spec)
            return interval_graph(_random_intervals(n, random.Random(seed), unit=name == "unit-interval"))
        if name == "tree":
            n_text, seed_text = arg.split(":")
            n, seed = int(n_text), int(seed_text)
            check_size(n, spec)
            return graph_from_edges(_random_tree(n, random.Random(seed)), n)
        if name == "caterpillar":
            s_text, l_text = arg.split(":")
            spine, legs = int(s_text), int(l_text)
            if spine <= 0 or legs < 0:
                raise InvalidArgumentError(f"{spec}: caterpillar:S:L needs a spine of S ≥ 1 vertices and L ≥ 0 leaves each")
            check_size(spine * (1 + legs), spec)
            edges = [(i, i + 1) for i in range(spine - 1)]
            edges += [(i, spine + i * legs + j) for i in range(spine) for j in range(legs)]
            return graph_from_edges(edges, spine * (1 + legs))
        if name == "permutation":
            n_text, seed_text = arg.split(":")
            n, seed = int(n_text), int(seed_text)
            check_size(n, spec, n * (n - 1) // 4)  # a random permutation has about n²/4 inversions
            perm = list(range(n))
            random.Random(seed).shuffle(perm)
            return permutation_graph(perm)
        if name == "clique-path":
            k_text, s_text = arg.split(":")
            k, size = int(k_text), int(s_text)
            if k <= 0 or size <= 0:
                raise InvalidArgumentError(f"{spec}: clique-path:K:S needs K ≥ 1 cliques of S ≥ 1 vertices")
            check_size(k * size, spec, k * size * (size - 1) // 2 + (k - 1) * size * size)
            edges = [(c * size + i, c * size + j) for c in range(k) for i, j in itertools.combinations(range(size), 2)]
            edges += [(c * size + i, (c + 1) * size + j) for c in range(k - 1) for i in range(size) for j in range(size)]
            return graph_from_edges(edges, k * size)
        if name == "random":
            n_text, p_text, seed_text = arg.split(":")
            n, p, seed = int(n_text), float(p_text), int(seed_text)
            check_size(n, spec, int(p * n * (n - 1) / 2) if 0 <= p <= 1 else 0)
            if not 0 <= p <= 1:
                raise InvalidArgumentError(f"{spec}: the edge probability must be between 0 and 1")
            rng = random.Random(seed)
            return graph_from_edges([(u, v) for u, v in itertools.combinations(range(n), 2) if rng.random() < p], n)
        n = int(arg)
    except OctalError:
        raise
    except (ValueError, TypeError):
        raise InvalidArgumentError(
            f"cannot read graph {spec!r}: use path:N, cycle:N, star:N, complete:N, grid:WxH, clique-path:K:S, "
            "interval:N:SEED, unit-interval:N:SEED, permutation:N:SEED, tree:N:SEED, caterpillar:S:L, petersen or "
            "random:N:P:SEED"
        ) from None
    if name not in ("path", "cycle", "star", "complete"):
        raise InvalidArgumentError(
            f"unknown graph family {name!r}: path, cycle, star, complete, grid, clique-path, interval, unit-interval, "
            "permutation, tree, caterpillar, petersen, random")
    check_size(n, spec, n * (n - 1) // 2 if name == "complete" else n)
    if name == "star":
        check_size(n + 1, spec)
    if name == "path":
        return graph_from_edges([(i, i + 1) for i in range(n - 1)], n)
    if name == "cycle":
        if n < 3:
            raise InvalidArgumentError(f"{spec}: a cycle needs at least 3 vertices")
        return graph_from_edges([(i, (i + 1) % n) for i in range(n)], n)
    if name == "star":
        return graph_from_edges([(0, i) for i in range(1, n + 1)], n + 1)
    return graph_from_edges(list(itertools.combinations(range(n), 2)), n)


def _bits(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _popcount(mask: int) -> int:
    return bin(mask).count("1")


@dataclass
class GraphResult:
    """Value, outcome and winning vertices: the `--json` shape of `octal graph`."""

    game: str
    graph: Graph
    value: int
    winning_vertices: list
    states: int
    method: str = "search"  # "interval" / "permutation": the O(n³) recursions; "shape": paths and cycles; "search"
    at_free: bool | None = None  # no asteroidal triple (asteroidal number ≤ 2); None when not checked
    asteroidal: tuple = ()  # an asteroidal triple (labels) when there is one

    @property
    def outcome(self) -> str:
        return NEXT if self.value else PREVIOUS

    def to_dict(self) -> dict:
        return {
            "game": self.game,
            "vertices": self.graph.n,
            "edges": self.graph.edges,
            "value": self.value,
            "outcome": self.outcome,
            "winning_vertices": self.winning_vertices,
            "method": self.method,
            "at_free": self.at_free,
            "asteroidal_triple": list(self.asteroidal),
        }


class NodeKayles:
    """Grundy values of vertex subsets of one graph, component by component.

    Graphs of at most 64 vertices run in the compiled kernel (octal/kernels/graph.py), memoized by
    vertex set and, for paths and cycles, by shape; larger ones run here in Python, where every
    component is also cached by an exact canonical form so isomorphic ones are solved once (a general
    canonical form costs about a hundred compiled states, so the compiled path keeps to the cheap shapes).
    """

    def __init__(self, graph: Graph, max_states: int = MAX_STATES, progress: Callable[[int], None] | None = None):
        if graph.n > MAX_VERTICES:
            raise ResourceLimitError(f"{graph.n} vertices is beyond exact search (limit {MAX_VERTICES})")
        self.g = graph
        self.closed = tuple(a | (1 << v) for v, a in enumerate(graph.adj))  # N[v]
        self.by_set: dict[int, int] = {}
        self.by_form: dict[tuple, int] = {}
        self.max_states = max_states
        self.progress = progress
        self.states = 0
        self.compiled = graph.n <= 64
        if not self.compiled:
            self.max_states = min(max_states, PYTHON_MAX_STATES)
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
            f"Node Kayles on this graph needs more than {self.max_states:,} component states; "
            f"it is beyond exact search here ({self.g.n} vertices, {self.g.edges} edges)"
        )

    def components(self, mask: int) -> list[int]:
        """The vertex sets of the connected components of the subgraph induced by `mask`."""
        out = []
        adj = self.g.adj
        while mask:
            comp = frontier = mask & -mask
            while frontier:
                nxt = 0
                for v in _bits(frontier):
                    nxt |= adj[v]
                frontier = nxt & mask & ~comp
                comp |= frontier
            out.append(comp)
            mask &= ~comp
        return out

    def value(self, mask: int | None = None) -> int:
        """Grundy value of the subgraph induced by `mask` (all vertices when None): nim-sum of components."""
        if mask is None:
            mask = (1 << self.g.n) - 1
        if self.compiled:
            v = self._compiled_value(mask)
            if v is not None:
                return v
        total = 0
        for comp in self.components(mask):
            total ^= self._component(comp)
        return total

    def _component(self, comp: int) -> int:
        cached = self.by_set.get(comp)
        if cached is not None:
            return cached
        size = _popcount(comp)
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
        if all(adj[v] & comp == comp & ~(1 << v) for v in _bits(comp)):
            return 1  # a clique: every move ends it
        options = set()
        for v in _bits(comp):
            rest = comp & ~self.closed[v]
            x = 0
            for c in self.components(rest):
                x ^= self._component(c)
            options.add(x)
        g = 0
        while g in options:
            g += 1
        return g

    def _canonical(self, comp: int, size: int) -> tuple | None:
        """An exact canonical form of the component, or None when too many orderings remain."""
        verts = list(_bits(comp))
        adj = self.g.adj
        local = {v: i for i, v in enumerate(verts)}
        nbrs = [[local[u] for u in _bits(adj[v] & comp)] for v in verts]
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
            code = tuple(sorted((min(pos[i], pos[j]), max(pos[i], pos[j])) for i in range(size) for j in nbrs[i] if i < j))
            if best is None or code < best:
                best = code
        return (size, tuple(len(c) for c in classes), best)

    def winning_vertices(self) -> list[int]:
        """Vertices whose move leaves value 0."""
        full = (1 << self.g.n) - 1
        return [v for v in range(self.g.n) if self.value(full & ~self.closed[v]) == 0]


class CliqueGame:
    """The clique-forming game: the state is the set of vertices adjacent to everything chosen so far."""

    def __init__(self, graph: Graph, max_states: int = MAX_STATES, progress: Callable[[int], None] | None = None):
        if graph.n > MAX_VERTICES:
            raise ResourceLimitError(f"{graph.n} vertices is beyond exact search (limit {MAX_VERTICES})")
        self.g = graph
        self.memo: dict[int, int] = {}
        self.max_states = max_states
        self.progress = progress

    def value(self, cand: int | None = None) -> int:
        if cand is None:
            cand = (1 << self.g.n) - 1
        cached = self.memo.get(cand)
        if cached is not None:
            return cached
        if len(self.memo) >= self.max_states:
            raise ResourceLimitError(f"the clique game on this graph needs more than {self.max_states:,} states")
        options = {self.value(cand & self.g.adj[v]) for v in _bits(cand)}
        g = 0
        while g in options:
            g += 1
        self.memo[cand] = g
        if self.progress is not None and len(self.memo) % 20_000 == 0:
            self.progress(len(self.memo))
        return g

    def winning_vertices(self) -> list[int]:
        full = (1 << self.g.n) - 1
        return [v for v in range(self.g.n) if self.value(full & self.g.adj[v]) == 0]


GAMES = ("node-kayles", "clique")


def find_asteroidal_triple(graph: Graph) -> tuple[int, int, int] | None:
    """An asteroidal triple of `graph` (vertex numbers), or None when it is AT-free (asteroidal number ≤ 2, where
    Bodlaender and Kratsch's polynomial bound for Node Kayles applies)."""
    indptr = np.zeros(graph.n + 1, np.int64)
    nbrs = [list(_bits(a)) for a in graph.adj]
    indptr[1:] = np.cumsum([len(x) for x in nbrs])
    indices = np.array([u for x in nbrs for u in x], np.int64) if indptr[-1] else np.zeros(0, np.int64)
    x, y, z = asteroidal_triple(indptr, indices)
    return None if x < 0 else (int(x), int(y), int(z))


def _with_asteroidal(result: GraphResult) -> GraphResult:
    """Node Kayles results of graphs up to AT_LIMIT vertices say whether the graph is AT-free."""
    g = result.graph
    if result.game == "node-kayles" and g.n <= AT_LIMIT:
        triple = find_asteroidal_triple(g)
        result.at_free = triple is None
        result.asteroidal = tuple(g.label(v) for v in triple) if triple else ()
    return result


def twin_classes(graph: Graph) -> tuple[Graph, list[list[int]]]:
    """Merge true twins (N[u] = N[v]): the quotient graph and each of its vertices' class of original vertices.

    Node Kayles on a graph is Node Kayles on this quotient: every closed neighbourhood is a union of classes, so
    every position reached is one, and any vertex of a class makes the same move (K cliques of S vertices in a row
    become a path of K vertices).
    """
    index: dict[int, int] = {}
    classes: list[list[int]] = []
    for v, a in enumerate(graph.adj):
        c = index.setdefault(a | (1 << v), len(classes))
        if c == len(classes):
            classes.append([])
        classes[c].append(v)
    of = [0] * graph.n
    for c, members in enumerate(classes):
        for v in members:
            of[v] = c
    adj = []
    for c, members in enumerate(classes):
        mask = 0
        for u in _bits(graph.adj[members[0]]):
            if of[u] != c:
                mask |= 1 << of[u]
        adj.append(mask)
    return Graph(len(classes), tuple(adj)), classes


def line_components(graph: Graph) -> list[list[int]] | None:
    """Each component as its vertices in order along it, when every component is a path or a cycle; else None."""
    degree = [_popcount(a) for a in graph.adj]
    if max(degree, default=0) > 2:
        return None
    seen = [False] * graph.n
    out = []
    starts = [v for v in range(graph.n) if degree[v] < 2] + list(range(graph.n))  # path ends first, then cycles
    for s in starts:
        if seen[s]:
            continue
        order, prev, v = [], -1, s
        while v >= 0 and not seen[v]:
            seen[v] = True
            order.append(v)
            nxt = [u for u in _bits(graph.adj[v]) if u != prev and not seen[u]]
            prev, v = v, (nxt[0] if nxt else -1)
        out.append(order)
    return out


@lru_cache(maxsize=1)
def _dawsons_chess():
    """0.137 until its period is proven (176 heaps), computed once."""
    return nim_sequence("0.137", until_proven=True)


def _dawson(n: int) -> int:
    """Node Kayles on a path of n vertices: Dawson's Chess 0.137 at heap n (through its proven period)."""
    return _dawsons_chess().value(n)


def _line_value(graph: Graph, order: list[int]) -> int:
    """A path of n vertices is worth D(n); a cycle of n ≥ 3 has one move, to a path of n − 3."""
    n = len(order)
    is_cycle = n >= 3 and graph.adj[order[0]] >> order[-1] & 1
    if is_cycle:
        return 1 if _dawson(n - 3) == 0 else 0
    return _dawson(n)


def _solve_lines(graph: Graph, comps: list[list[int]]) -> tuple[int, list[int]]:
    """Value and winning vertices of a disjoint union of paths and cycles, by their shapes alone (O(n))."""
    values = [_line_value(graph, c) for c in comps]
    total = 0
    for v in values:
        total ^= v
    wins = []
    for comp, val in zip(comps, values):
        n = len(comp)
        rest = total ^ val
        is_cycle = n >= 3 and graph.adj[comp[0]] >> comp[-1] & 1
        for i, v in enumerate(comp):
            after = _dawson(n - 3) if is_cycle else _dawson(max(i - 1, 0)) ^ _dawson(max(n - i - 2, 0))
            if rest ^ after == 0:
                wins.append(v)
    return total, sorted(wins)


def solve_graph(graph: Graph, game: str = "node-kayles", progress: Callable[[int], None] | None = None) -> GraphResult:
    """Value, outcome and every winning vertex (as labels) of Node Kayles or the clique game on `graph`.

    Node Kayles on a graph built from intervals runs the O(n³) window recursion (interval_node_kayles); any other
    first merges true twins, and a quotient made of paths and cycles is solved by shape (Dawson's Chess), any other
    by exact search on at most MAX_VERTICES vertices.
    """
    if game not in GAMES:
        raise InvalidArgumentError(f"unknown game {game!r}: choose node-kayles or clique")
    if game == "clique":
        solver = CliqueGame(graph, progress=progress)
        value = solver.value()
        return GraphResult(game, graph, value, [graph.label(v) for v in solver.winning_vertices()], len(solver.memo))
    if graph.intervals:
        if graph.n > MAX_INTERVALS:
            raise ResourceLimitError(f"{graph.n:,} intervals is beyond the window recursion here (at most "
                                     f"{MAX_INTERVALS:,}: it keeps (n+1)² values and costs O(n³))")
        starts = np.array([a for a, _ in graph.intervals], np.int64)
        ends = np.array([b for _, b in graph.intervals], np.int64)
        value, g, left_of, right_of = interval_node_kayles(starts, ends)
        n = graph.n
        wins = [graph.label(v) for v in range(n) if g[0, right_of[v]] ^ g[left_of[v], n] == 0]
        return _with_asteroidal(GraphResult(game, graph, int(value), wins, (n + 1) * (n + 1), "interval"))
    if graph.permutation:
        if graph.n > MAX_INTERVALS:
            raise ResourceLimitError(f"{graph.n:,} segments is beyond the box recursion here (at most "
                                     f"{MAX_INTERVALS:,}: it keeps (n+2)² values and costs O(n³))")
        value, g = permutation_node_kayles(np.array(graph.permutation, np.int64))
        n = graph.n
        wins = [graph.label(v) for v in range(n) if g[0, v + 1] ^ g[v + 1, n + 1] == 0]
        return _with_asteroidal(GraphResult(game, graph, int(value), wins, (n + 2) * (n + 2), "permutation"))
    quotient, classes = twin_classes(graph)
    lines = line_components(quotient)
    method = "shape" if lines is not None else "search"
    if lines is not None:
        value, wins = _solve_lines(quotient, lines)
        states = 0
    else:
        if quotient.n > MAX_VERTICES:
            raise ResourceLimitError(f"{graph.n:,} vertices ({quotient.n:,} after merging twins) is beyond exact "
                                     f"search (limit {MAX_VERTICES}; paths, cycles and their blow-ups have no limit)")
        solver = NodeKayles(quotient, progress=progress)
        value, wins, states = solver.value(), solver.winning_vertices(), solver.states
    labels = sorted((graph.label(v) for c in wins for v in classes[c]), key=lambda x: (str(type(x)), x))
    return _with_asteroidal(GraphResult(game, graph, value, labels, states, method))

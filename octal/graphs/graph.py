"""Simple undirected graphs as adjacency bitmasks: the Graph type, the ways to read one, and component splits."""

from __future__ import annotations

import dataclasses
import math
import operator
import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import DataFileError, InvalidArgumentError, ResourceLimitError
from ..reading import read_text
from ..validate import whole_number

MAX_BUILD = 20_000  # vertices a graph may have at all
MAX_EDGES = 2_000_000


@dataclass(frozen=True)
class Graph:
    """n vertices 0..n−1 with adjacency bitmasks; `labels` are the names shown to the user."""

    n: int
    adj: tuple[int, ...]
    labels: tuple = ()
    intervals: tuple = ()  # an interval model (start, end) per vertex when the graph was built from one
    permutation: tuple = ()  # a permutation model: vertex i is the segment from i to permutation[i]
    duplicate_edges: int = 0  # edges an edge list named more than once (either way round), kept once
    owners: tuple = ()  # who may choose each vertex in partizan play (L, R, B), when an edge list's 'v: X' lines said

    @property
    def edges(self) -> int:
        return sum(bin(a).count("1") for a in self.adj) // 2

    def label(self, v: int):
        return self.labels[v] if self.labels else v


def check_size(n: int, what: str, edges: int = 0) -> None:
    """Refuse a graph of no vertex, or too large to build (MAX_BUILD vertices, MAX_EDGES edges), before anything
    is built; whether it can be solved is decided later, by the work it needs."""
    if n <= 0:
        raise InvalidArgumentError(f"{what}: the graph needs at least one vertex")
    if n > MAX_BUILD or edges > MAX_EDGES:
        size = f"{n:,} vertices" if n > MAX_BUILD else f"{edges:,} edges"
        raise ResourceLimitError(f"{what}: {size} is beyond exact search here (graphs up to {MAX_BUILD:,} vertices "
                                 f"and {MAX_EDGES:,} edges are built)")


def graph_from_edges(edges, n: int | None = None, labels=None) -> Graph:
    """A simple graph from (u, v) pairs on vertices 0..n−1 (n defaults to 1 + the largest vertex)."""
    try:
        edges = [(whole_number(u, "a vertex"), whole_number(v, "a vertex")) for u, v in edges]
        if n is not None:
            n = operator.index(n)
    except (TypeError, ValueError, InvalidArgumentError):
        raise InvalidArgumentError("edges are pairs of whole-number vertices 0..n−1 (not floats or booleans)") from None
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
    if labels:
        labels = tuple(labels)
        if len(labels) != n or len(set(labels)) != n:
            raise InvalidArgumentError(f"labels: {n} distinct labels, one per vertex, not {len(labels)} with "
                                       f"{len(set(labels))} distinct (answers name vertices by label)")
    return Graph(n, tuple(adj), labels if labels else ())


def graph_from_networkx(g) -> Graph:
    """A networkx graph (any hashable node names) as a Graph; node names become labels."""
    check_size(g.number_of_nodes(), "networkx graph")
    nodes = list(g.nodes)
    index = {v: i for i, v in enumerate(nodes)}
    return graph_from_edges([(index[u], index[v]) for u, v in g.edges if u != v], len(nodes), nodes)


def graph_from_graph6(text: str) -> Graph:
    """Decode a graph6 string (McKay's format; n < 258048)."""
    if not isinstance(text, str):
        raise InvalidArgumentError(f"a graph6 string is text, not {type(text).__name__}")
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


def complement(g: Graph) -> Graph:
    """The graph on the same vertices (and labels) whose edges are the non-edges of `g`."""
    full = (1 << g.n) - 1
    return Graph(g.n, tuple(full & ~a & ~(1 << v) for v, a in enumerate(g.adj)), g.labels)


def read_edge_list(path: str | Path) -> Graph:
    """An edge-list file: one 'u v' per line ('#' comments; a lone 'u' adds an isolated vertex; 'u: X' gives u's
    owner X — L, R or B — for partizan play, the owners column)."""
    p = Path(path)
    try:
        lines = read_text(p).splitlines()
    except OSError as exc:
        raise DataFileError(f"cannot read {p}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise DataFileError(f"cannot read {p}: not a text file") from None
    names: dict[str, int] = {}
    owners: dict[str, str] = {}
    edges = []
    for no, line in enumerate(lines, 1):
        words = line.split("#", 1)[0].replace(",", " ").split()
        if not words:
            continue
        if len(words) == 1 and ":" in words[0][1:-1] and words[0].rsplit(":", 1)[1].upper() in ("L", "R", "B"):
            words = [words[0].rsplit(":", 1)[0] + ":", words[0].rsplit(":", 1)[1]]  # 'a:L' is 'a: L'
        if len(words) == 2 and words[0].endswith(":") and len(words[0]) > 1:
            name, owner = words[0][:-1], words[1].upper()
            if owner not in ("L", "R", "B"):
                raise DataFileError(f"{p}, line {no}: the owner of {name} is L, R or B, got {words[1]!r}")
            if owners.setdefault(name, owner) != owner:
                raise DataFileError(f"{p}, line {no}: {name} is given two owners")
            names.setdefault(name, len(names))
            continue
        if len(words) > 2:
            raise DataFileError(f"{p}, line {no}: expected 'u v', got {line.strip()!r}")
        if any(w.endswith(":") for w in words):  # 'v: X' is an owner line: a vertex name never ends in ':'
            raise DataFileError(f"{p}, line {no}: a vertex name may not end in ':' (a line 'v: L', R or B gives v's "
                                f"owner), got {line.strip()!r}")
        ids = [names.setdefault(w, len(names)) for w in words]
        if len(names) > MAX_BUILD:
            check_size(len(names), f"{p}, line {no}")
        if len(ids) == 2:
            if ids[0] == ids[1]:
                raise DataFileError(f"{p}, line {no}: a loop at {words[0]} (graphs must be simple)")
            edges.append(tuple(ids))
    check_size(len(names), str(p))
    # a name that reads back as the same whole number is shown as one; '01', '+1' or '²' stay as written, so two
    # vertices never print alike (names of more than 18 digits stay text: no huge integers are built)
    labels = [int(w) if len(w) <= 18 and re.fullmatch(r"-?[0-9]+", w) and str(int(w)) == w else w for w in names]
    if labels and all(isinstance(x, int) for x in labels):  # whole-number names: vertices in numeric order
        order = sorted(range(len(labels)), key=labels.__getitem__)
        place = {old: new for new, old in enumerate(order)}
        edges = [(place[u], place[v]) for u, v in edges]
        names = {w: place[i] for w, i in names.items()}
        labels = [labels[i] for i in order]
    distinct = {(min(u, v), max(u, v)) for u, v in edges}
    g = graph_from_edges(sorted(distinct), len(names), labels)
    if owners and len(owners) < len(names):
        missing = next(w for w in names if w not in owners)
        raise DataFileError(f"{p}: owners are given for {len(owners)} of {len(names)} vertices ({missing} has none: "
                            f"add a line '{missing}: L', R or B)")
    in_order = sorted(names, key=names.__getitem__)
    return dataclasses.replace(g, duplicate_edges=len(edges) - len(distinct),
                               owners=tuple(owners[w] for w in in_order) if owners else ())


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



def bits(mask: int):
    """The vertices of a bitmask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def popcount(mask: int) -> int:
    return bin(mask).count("1")


def components(adj, mask: int) -> list[int]:
    """The vertex sets of the connected components of the subgraph that `mask` induces."""
    out = []
    while mask:
        comp = frontier = mask & -mask
        while frontier:
            nxt = 0
            for v in bits(frontier):
                nxt |= adj[v]
            frontier = nxt & mask & ~comp
            comp |= frontier
        out.append(comp)
        mask &= ~comp
    return out


def co_components(adj, mask: int) -> list[int]:
    """The components of the complement of the subgraph that `mask` induces: more than one exactly when that
    subgraph is the join of them (every vertex of one adjacent to every vertex of the others)."""
    out = []
    rest = mask
    while rest:
        comp = frontier = rest & -rest
        rest &= ~comp
        while frontier and rest:
            nxt = 0
            for v in bits(frontier):
                nxt |= rest & ~adj[v]
                if nxt == rest:
                    break
            rest &= ~nxt
            comp |= nxt
            frontier = nxt
        out.append(comp)
    return out


def induced(graph: Graph, mask: int) -> tuple[Graph, list[int]]:
    """The subgraph that `mask` induces, renumbered 0..k−1, and the original vertex of each new one."""
    verts = list(bits(mask))
    index = {v: i for i, v in enumerate(verts)}
    adj = []
    for v in verts:
        a = 0
        for u in bits(graph.adj[v] & mask):
            a |= 1 << index[u]
        adj.append(a)
    return Graph(len(verts), tuple(adj)), verts

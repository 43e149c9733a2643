"""Shapes solved without search: true twins merged, and paths and cycles valued by Dawson's Chess (0.137)."""

from __future__ import annotations

from functools import lru_cache

from ..engine.sequence import nim_sequence
from .graph import Graph, bits, popcount


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
        for u in bits(graph.adj[members[0]]):
            if of[u] != c:
                mask |= 1 << of[u]
        adj.append(mask)
    return Graph(len(classes), tuple(adj)), classes


def line_order(adj, comp: int) -> list[int] | None:
    """The vertices of the connected set `comp` in order along it when it induces a path or a cycle, else None."""
    degree = {v: popcount(adj[v] & comp) for v in bits(comp)}
    if max(degree.values()) > 2:
        return None
    start = next((v for v, d in degree.items() if d < 2), comp.bit_length() - 1)  # a path's end, else anywhere
    order, seen, v = [start], 1 << start, start
    while True:
        nxt = adj[v] & comp & ~seen
        if not nxt:
            return order
        v = (nxt & -nxt).bit_length() - 1
        order.append(v)
        seen |= 1 << v


@lru_cache(maxsize=1)
def _dawsons_chess():
    """0.137 until its period is proven (176 heaps), computed once."""
    return nim_sequence("0.137", until_proven=True)


def _dawson(n: int) -> int:
    """Node Kayles on a path of n vertices: Dawson's Chess 0.137 at heap n (through its proven period)."""
    return _dawsons_chess().value(n)


def line_after(graph: Graph, order: list[int]) -> tuple[int, dict[int, int]]:
    """The value of a path or cycle (its vertices in order) and the value each move leaves: a move at the i-th
    vertex of a path of n leaves paths of i − 1 and n − i − 2; any move on a cycle of n ≥ 3 leaves a path of n − 3."""
    n = len(order)
    if n >= 3 and graph.adj[order[0]] >> order[-1] & 1:
        left = _dawson(n - 3)
        return (1 if left == 0 else 0), {v: left for v in order}
    return _dawson(n), {v: _dawson(max(i - 1, 0)) ^ _dawson(max(n - i - 2, 0)) for i, v in enumerate(order)}

"""Node Kayles by decomposition: disjoint unions nim-sum, joins take the union of their parts' options.

A graph that is the join of parts (every vertex of one adjacent to every vertex of the others) loses all other
parts at the first move, so its options are the union of its parts' options and its value their mex; a disjoint
union is worth the nim-sum of its parts (Sprague–Grundy). Splitting recursively into components and
co-components (the cotree; a cograph splits down to single vertices, Bodlaender–Kratsch's O(n^1.63) case) leaves
pieces that are paths or cycles (Dawson's Chess, by shape) or prime pieces for the exact search, each on its own
vertices: the search sees only what no decomposition could simplify.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..errors import ResourceLimitError
from .graph import Graph, co_components, components, induced, popcount
from .search import NodeKayles
from .shapes import line_after, line_order

VERTEX, LINE, SEARCH, UNION, JOIN = "vertex", "line", "search", "union", "join"


@dataclass
class Piece:
    """One node of the decomposition: its vertices, kind and children; after evaluation its value and options."""

    kind: str
    mask: int
    children: list[int] = field(default_factory=list)
    value: int = 0
    options: set[int] = field(default_factory=set)
    after: dict[int, int] = field(default_factory=dict)  # leaves: the value a move at each vertex leaves here
    order: list[int] = field(default_factory=list)  # a LINE piece's vertices along it


@dataclass
class Decomposed:
    """Value of the whole graph, the value each vertex's move leaves, and what the search had to do."""

    value: int
    after: list[int]
    states: int
    kinds: set[str]
    largest_search: int  # vertices of the largest piece the search solved (0: none)


def _mex(values) -> int:
    g = 0
    while g in values:
        g += 1
    return g


def decompose(graph: Graph) -> list[Piece]:
    """The decomposition tree, root first; every piece's children come after it."""
    pieces: list[Piece] = []
    stack = [((1 << graph.n) - 1, -1)]
    adj = graph.adj
    while stack:
        mask, parent = stack.pop()
        if parent >= 0:
            pieces[parent].children.append(len(pieces))
        parts: list[int] = []
        order = None
        if popcount(mask) == 1:
            kind = VERTEX
        elif len(parts := components(adj, mask)) > 1:
            kind = UNION
        elif (order := line_order(adj, mask)) is not None:
            kind, parts = LINE, []
        elif len(parts := co_components(adj, mask)) > 1:
            kind = JOIN
        else:
            kind, parts = SEARCH, []
        me = len(pieces)
        pieces.append(Piece(kind, mask, order=order or []))
        stack.extend((p, me) for p in reversed(parts))
    return pieces


def solve_decomposed(graph: Graph, max_states: int | None = None,
                     progress: Callable[[int], None] | None = None) -> Decomposed:
    """Evaluate the decomposition bottom-up (search pieces share the budget of `max_states` component states when
    it is given, else each has the search's default),
    then push each union's offset down so every vertex gets the value its move leaves in the whole graph."""
    pieces = decompose(graph)
    states, largest = 0, 0
    for piece in reversed(pieces):
        if piece.kind == VERTEX:
            piece.value, piece.after = 1, {piece.mask.bit_length() - 1: 0}
        elif piece.kind == LINE:
            piece.value, piece.after = line_after(graph, piece.order)
        elif piece.kind == SEARCH:
            sub, verts = induced(graph, piece.mask)
            if max_states is not None and states >= max_states:
                raise ResourceLimitError(f"Node Kayles on this graph needs more than {max_states:,} component states")
            solver = NodeKayles(sub, max_states=None if max_states is None else max_states - states,
                                progress=None if progress is None else (lambda s, base=states: progress(base + s)))
            after = solver.after_moves()
            states += solver.states
            largest = max(largest, sub.n)
            piece.after = dict(zip(verts, after))
            piece.value = _mex(set(after))
        else:
            kids = [pieces[c] for c in piece.children]
            if piece.kind == UNION:
                for kid in kids:
                    piece.value ^= kid.value
                piece.options = {a ^ piece.value ^ kid.value for kid in kids for a in kid.options}
            else:
                piece.options = set().union(*(kid.options for kid in kids))
                piece.value = _mex(piece.options)
            for kid in kids:
                kid.options = set()  # consumed: only the leaves' per-vertex values are kept
            continue
        piece.options = set(piece.after.values())
    offset = [0] * len(pieces)
    after = [0] * graph.n
    for i, piece in enumerate(pieces):
        for c in piece.children:
            offset[c] = offset[i] ^ (piece.value ^ pieces[c].value if piece.kind == UNION else 0)
        for v, x in piece.after.items():
            after[v] = x ^ offset[i]
    return Decomposed(pieces[0].value, after, states, {p.kind for p in pieces}, largest)

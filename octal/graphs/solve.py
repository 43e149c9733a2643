"""Solve a game on a graph: value, outcome and every winning vertex, by the cheapest exact method that applies.

Node Kayles on a graph built from an interval or permutation model runs the O(n³) window/box recursion; any other
graph first has its true twins merged, then is decomposed into unions and joins (cotree.py) down to paths and
cycles (by shape) and prime pieces (exact search under a budget of component states).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..displays import HtmlRepr
from ..errors import InvalidArgumentError, ResourceLimitError
from ..outcomes import NEXT, PREVIOUS
from ..validate import whole_number
from .asteroidal import AT_LIMIT, Asteroidal, asteroidal_number
from .cotree import JOIN, SEARCH, solve_decomposed
from .families import as_graph
from .graph import Graph, complement
from .kernel import interval_node_kayles, permutation_node_kayles
from .shapes import twin_classes

GAMES = ("node-kayles", "clique")
MAX_INTERVALS = 6_000  # the window recursion keeps (n+2)² int32 values (144 MB) and costs O(n³)


@dataclass
class GraphResult(HtmlRepr):
    """Value, outcome and winning vertices: the `--json` shape of `octal graph`."""

    game: str
    graph: Graph
    value: int
    winning_vertices: list
    states: int
    method: str = "search"  # "interval" / "permutation": the O(n³) recursions; "shape": paths and cycles;
    # "cotree": unions and joins down to single vertices, paths and cycles; "search": some piece needed the search
    asteroidal: Asteroidal | None = None  # the asteroidal number (after merging twins), when it was computed
    labels: tuple = ()  # the asteroidal witness as the user's vertex names
    largest_search: int = 0  # vertices of the largest piece the exact search solved

    @property
    def outcome(self) -> str:
        return NEXT if self.value else PREVIOUS

    @property
    def at_free(self) -> bool | None:
        """No asteroidal triple: asteroidal number ≤ 2 (None when not checked)."""
        return None if self.asteroidal is None else self.asteroidal.at_free

    def __repr__(self) -> str:
        return (f"GraphResult({self.game}, {self.graph.n} vertices: value {self.value}, {self.outcome}, "
                f"{len(self.winning_vertices)} winning, {self.method})")

    def to_dict(self) -> dict:
        a = self.asteroidal
        return {
            "game": self.game,
            "vertices": self.graph.n,
            "edges": self.graph.edges,
            "value": self.value,
            "outcome": self.outcome,
            "winning_vertices": self.winning_vertices,
            "method": self.method,
            "at_free": self.at_free,
            "asteroidal_triple": list(self.labels[:3]) if a is not None and a.number >= 3 else [],
            "asteroidal_number": None if a is None else {"value": a.number, "exact": a.exact,
                                                         "witness": list(self.labels)},
            "states": self.states,
            "largest_search": self.largest_search,
        }


def _with_asteroidal(result: GraphResult, quotient: Graph, classes: list[list[int]]) -> GraphResult:
    """Node Kayles results of graphs of up to AT_LIMIT vertices after merging twins (twins never sit together in
    an asteroidal set, so the number is the quotient's) carry their asteroidal number."""
    if result.game == "node-kayles" and quotient.n <= AT_LIMIT:
        result.asteroidal = asteroidal_number(quotient)
        result.labels = tuple(result.graph.label(classes[c][0]) for c in result.asteroidal.witness)
    return result


def _sorted_labels(labels) -> list:
    return sorted(labels, key=lambda x: (str(type(x)), x))


def solve_graph(graph: Graph | str, game: str = "node-kayles", progress: Callable[[int], None] | None = None,
                max_states: int | None = None) -> GraphResult:
    """Value, outcome and every winning vertex (as labels) of Node Kayles or the clique game on `graph`; exact
    search is refused with ResourceLimitError once it needs more than `max_states` component states (default:
    the search's own budget, counted in states: PYTHON_WORK // n² for a piece of n vertices in Python)."""
    graph = as_graph(graph)
    if max_states is not None:
        max_states = whole_number(max_states, "max_states (component states)", 1)
    if game not in GAMES:
        raise InvalidArgumentError(f"unknown game {game!r}: choose node-kayles or clique")
    if game == "clique":
        # choosing v leaves the candidates adjacent to v, i.e. deletes v and its neighbours in the complement: the
        # clique-forming game on G is Node Kayles on the complement of G, so twins, unions and joins all apply
        # (a complete graph's complement has no edge: n isolated vertices, value n mod 2, no search at all)
        dual = solve_graph(complement(graph), "node-kayles", progress, max_states)
        return dataclasses.replace(dual, game=game, graph=graph, asteroidal=None, labels=())
    quotient, classes = twin_classes(graph)
    n = graph.n
    if graph.intervals or graph.permutation:
        if n > MAX_INTERVALS:
            raise ResourceLimitError(f"{n:,} {'intervals' if graph.intervals else 'segments'} is beyond the O(n³) "
                                     f"recursion here (at most {MAX_INTERVALS:,}: it keeps (n+2)² values)")
        if graph.intervals:
            starts = np.array([a for a, _ in graph.intervals], np.int64)
            ends = np.array([b for _, b in graph.intervals], np.int64)
            value, g, left_of, right_of = interval_node_kayles(starts, ends)
            wins = [graph.label(v) for v in range(n) if g[0, right_of[v]] ^ g[left_of[v], n] == 0]
            result = GraphResult(game, graph, int(value), wins, (n + 1) * (n + 1), "interval")
        else:
            value, g = permutation_node_kayles(np.array(graph.permutation, np.int64))
            wins = [graph.label(v) for v in range(n) if g[0, v + 1] ^ g[v + 1, n + 1] == 0]
            result = GraphResult(game, graph, int(value), wins, (n + 2) * (n + 2), "permutation")
        return _with_asteroidal(result, quotient, classes)
    d = solve_decomposed(quotient, max_states, progress)
    method = "search" if SEARCH in d.kinds else "cotree" if JOIN in d.kinds else "shape"
    wins = _sorted_labels(graph.label(v) for c, x in enumerate(d.after) if x == 0 for v in classes[c])
    return _with_asteroidal(GraphResult(game, graph, d.value, wins, d.states, method, largest_search=d.largest_search),
                            quotient, classes)

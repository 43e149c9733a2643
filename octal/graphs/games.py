"""A game on a graph, from what a user names: the graph (a family such as path:10, an edge-list file, or a graph6
string) and the game (Node Kayles, the clique-forming game, or partizan Node Kayles with owners)."""

from __future__ import annotations

from typing import Callable

from ..errors import InvalidArgumentError
from .families import named_graph
from .graph import Graph, graph_from_graph6, read_edge_list
from .partizan import GAME as PARTIZAN
from .partizan import MAX_STATES as PARTIZAN_STATES
from .partizan import PartizanResult, parse_owners, partizan_node_kayles
from .search import MAX_STATES as SEARCH_STATES
from .solve import GAMES, GraphResult, solve_graph

# the literature's word (Winning Ways, Conway), and the other spellings users type
PARTIZAN_SPELLINGS = ("partizan", "partisan", "partizan-node-kayles", PARTIZAN)


def graph_named(family: str | None = None, edges: str | None = None, graph6: str | None = None) -> Graph:
    """The one graph named by a family (path:10), an edge-list file or a graph6 string."""
    given = [x for x in (family, edges, graph6) if x is not None]
    if len(given) != 1:
        raise InvalidArgumentError("name exactly one graph: a family (path:10), --edges FILE or --graph6 STRING")
    return named_graph(family) if family else read_edge_list(edges) if edges else graph_from_graph6(graph6)


def game_name(game: str) -> str:
    """The game's canonical name: node-kayles, clique, or partizan Node Kayles (however it is spelled)."""
    game = str(game).lower()
    return PARTIZAN if game in PARTIZAN_SPELLINGS else game


def play_graph(graph: Graph, game: str = "node-kayles", owners: str | None = None, max_states: int | None = None,
               progress: Callable[[int, int], None] | None = None) -> GraphResult | PartizanResult:
    """The value, outcome and winning vertices of `game` on `graph`; partizan play needs `owners` (see
    parse_owners), and only partizan play takes them. progress(states searched, the budget of states)."""
    game = game_name(game)
    if game not in (*GAMES, PARTIZAN):
        raise InvalidArgumentError(f"unknown game {game!r}: choose node-kayles, clique or partizan")
    if (owners is None) != (game != PARTIZAN):
        raise InvalidArgumentError("--owners goes with --game partizan, and partizan play needs --owners "
                                   "(a string of L/R/B, alternate, random:SEED or column)")
    if max_states is not None and max_states <= 0:
        raise InvalidArgumentError("--max-states must be at least 1")
    budget = max_states or (PARTIZAN_STATES if game == PARTIZAN else SEARCH_STATES)
    report = None if progress is None else (lambda states: progress(states, budget))
    if game == PARTIZAN:
        return partizan_node_kayles(graph, parse_owners(owners, graph), max_states, progress=report)
    return solve_graph(graph, game, progress=report, max_states=max_states)

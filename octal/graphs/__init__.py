"""Node Kayles and the clique-forming game on simple undirected graphs.

graph.py (the Graph type and readers) → families.py (named families) → search.py (exact memoized search),
shapes.py (twins, paths and cycles by Dawson's Chess), asteroidal.py (the asteroidal number) → cotree.py (unions
and joins) → solve.py (the method that applies, and the result); partizan.py (partizan Node Kayles: owned vertices,
values as canonical forms of octal.partizan, added over components).
"""

from .asteroidal import AT_LIMIT, Asteroidal, asteroidal_number, find_asteroidal_triple
from .cotree import decompose, solve_decomposed
from .families import named_graph
from .graph import (
    MAX_BUILD,
    MAX_EDGES,
    Graph,
    check_size,
    graph_from_edges,
    graph_from_graph6,
    graph_from_networkx,
    interval_graph,
    permutation_graph,
    read_edge_list,
)
from .partizan import OWNERS, PartizanNodeKayles, PartizanResult, parse_owners, partizan_node_kayles
from .search import MAX_STATES, NodeKayles
from .shapes import line_order, twin_classes
from .solve import GAMES, MAX_INTERVALS, GraphResult, solve_graph

partisan_node_kayles = partizan_node_kayles  # the other spelling, accepted where users type it

__all__ = [
    "AT_LIMIT", "Asteroidal", "asteroidal_number", "find_asteroidal_triple", "decompose", "solve_decomposed",
    "named_graph", "MAX_BUILD", "MAX_EDGES", "Graph", "check_size", "graph_from_edges", "graph_from_graph6",
    "graph_from_networkx", "interval_graph", "permutation_graph", "read_edge_list", "MAX_STATES",
    "NodeKayles", "OWNERS", "PartizanNodeKayles", "PartizanResult", "parse_owners", "partizan_node_kayles",
    "partisan_node_kayles",
    "line_order", "twin_classes", "GAMES", "MAX_INTERVALS", "GraphResult", "solve_graph",
]

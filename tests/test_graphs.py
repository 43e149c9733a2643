"""Node Kayles and the clique game against plain exhaustive searches and the octal engine."""

import json
import random
from functools import lru_cache

import networkx as nx
import pytest
from typer.testing import CliRunner

from octal import nim_sequence
from octal.front.cli import app
from octal.graphs import (
    NodeKayles,
    graph_from_graph6,
    graph_from_networkx,
    named_graph,
    read_edge_list,
    solve_graph,
)

DAWSON = nim_sequence("0.137", 80).values


def plain_node_kayles(g) -> int:
    """Grundy value by brute force over vertex subsets: no components, no cache sharing."""
    closed = [a | (1 << v) for v, a in enumerate(g.adj)]

    @lru_cache(maxsize=None)
    def value(mask):
        opts = {value(mask & ~closed[v]) for v in range(g.n) if mask >> v & 1}
        x = 0
        while x in opts:
            x += 1
        return x

    return value((1 << g.n) - 1)


def plain_clique(g) -> int:
    @lru_cache(maxsize=None)
    def value(cand):
        opts = {value(cand & g.adj[v]) for v in range(g.n) if cand >> v & 1}
        x = 0
        while x in opts:
            x += 1
        return x

    return value((1 << g.n) - 1)


def test_paths_are_dawsons_chess():
    for n in range(1, 61):
        assert solve_graph(named_graph(f"path:{n}")).value == DAWSON[n], n


def test_cycles_leave_a_path_of_n_minus_3():
    for n in range(4, 61):
        assert solve_graph(named_graph(f"cycle:{n}")).value == (1 if DAWSON[n - 3] == 0 else 0), n


def test_every_small_graph_of_the_atlas():
    for g in nx.graph_atlas_g()[1:]:  # every graph on 1..7 vertices
        G = graph_from_networkx(g)
        assert solve_graph(G).value == plain_node_kayles(G)
        assert solve_graph(G, "clique").value == plain_clique(G)


def test_random_graphs_up_to_14_vertices():
    rng = random.Random(7)
    for _ in range(120):
        n = rng.randint(8, 14)
        G = named_graph(f"random:{n}:{rng.choice([0.1, 0.2, 0.3, 0.5])}:{rng.randint(0, 10**6)}")
        assert solve_graph(G).value == plain_node_kayles(G)
        assert solve_graph(G, "clique").value == plain_clique(G)


def test_python_path_with_canonical_forms_agrees_with_the_compiled_one():
    rng = random.Random(3)
    for _ in range(30):
        G = named_graph(f"random:{rng.randint(10, 22)}:0.2:{rng.randint(0, 10**6)}")
        slow = NodeKayles(G)
        slow.compiled = False
        assert slow.value() == NodeKayles(G).value()
        assert slow.by_form  # isomorphic components were shared through canonical forms
    big = named_graph("path:70")  # more than 64 vertices: the Python path
    assert solve_graph(big).value == DAWSON[70]


def test_winning_vertices_leave_p_positions():
    G = named_graph("random:16:0.2:5")
    r = solve_graph(G)
    closed = [a | (1 << v) for v, a in enumerate(G.adj)]
    solver = NodeKayles(G)
    for v in range(G.n):
        after = solver.value(((1 << G.n) - 1) & ~closed[v])
        assert (after == 0) == (v in r.winning_vertices)


def test_graph6_matches_networkx():
    rng = random.Random(11)
    for _ in range(40):
        g = nx.gnp_random_graph(rng.randint(1, 70), 0.3, seed=rng.randint(0, 10**6))
        text = nx.to_graph6_bytes(g, header=False).decode().strip()
        G = graph_from_graph6(text)
        assert G.n == g.number_of_nodes() and G.edges == g.number_of_edges()
        assert sorted((u, v) for v in range(G.n) for u in range(v) if G.adj[v] >> u & 1) == sorted(
            (min(e), max(e)) for e in g.edges)


def test_edge_list_file(tmp_path):
    f = tmp_path / "g.txt"
    f.write_text("# a path of 4 and an isolated vertex\n1 2\n2 3\n3 4\n9\n")
    G = read_edge_list(f)
    assert (G.n, G.edges) == (5, 3)
    r = solve_graph(G)
    assert r.value == DAWSON[4] ^ 1


def test_families():
    assert (named_graph("star:5").n, named_graph("star:5").edges) == (6, 5)
    assert (named_graph("grid:3x4").n, named_graph("grid:3x4").edges) == (12, 17)
    assert named_graph("complete:6").edges == 15 and solve_graph(named_graph("complete:6")).value == 1
    assert named_graph("petersen").edges == 15


runner = CliRunner()


def test_cli_json_shape():
    doc = json.loads(runner.invoke(app, ["graph", "path:10", "--json"]).output)
    assert list(doc) == ["game", "vertices", "edges", "value", "outcome", "winning_vertices"]
    assert doc["value"] == DAWSON[10] and doc["vertices"] == 10 and doc["edges"] == 9


@pytest.mark.parametrize(
    "args, fragment",
    [(["graph", "cycle:2"], "at least 3"), (["graph", "blob:4"], "unknown graph family"),
     (["graph", "--graph6", "x!!"], "not a graph6"), (["graph"], "exactly one graph"),
     (["graph", "path:3", "--game", "chess"], "unknown game"), (["graph", "path:200"], "beyond exact search"),
     (["graph", "--edges", "/nonexistent.txt"], "cannot read")],
)
def test_cli_errors(args, fragment):
    r = runner.invoke(app, args)
    assert r.exit_code == 2 and fragment in r.output and len(r.output.strip().splitlines()) == 1


def test_paths_and_cycles_are_solved_once_by_shape():
    from octal.graphs import graph_from_edges

    one = solve_graph(named_graph("path:12"))
    edges = [(12 * k + i, 12 * k + i + 1) for k in range(5) for i in range(11)]  # five disjoint paths of 12
    five = solve_graph(graph_from_edges(edges, 60))
    assert five.value == DAWSON[12]  # an odd number of equal values nim-sums to one of them
    assert five.states == one.states  # the four other paths were recognised, not searched
    ring = [(i, (i + 1) % 9) for i in range(9)] + [(9 + i, 9 + (i + 1) % 9) for i in range(9)]
    two = solve_graph(graph_from_edges(ring, 18))
    assert two.value == 0 and two.states == solve_graph(named_graph("cycle:9")).states

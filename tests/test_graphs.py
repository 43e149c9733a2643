"""Node Kayles and the clique game against plain exhaustive searches and the octal engine."""

import json
import random
from functools import lru_cache

import networkx as nx
import pytest
from typer.testing import CliRunner

from octal import DataFileError, InvalidArgumentError, nim_sequence
from octal.front.cli import app
from octal.graphs import (
    NodeKayles,
    graph_from_graph6,
    graph_from_networkx,
    named_graph,
    read_edge_list,
    solve_graph,
)
from octal.graphs.graph import components

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


@pytest.mark.slow
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


def test_edge_list_labels_are_kept_as_written_and_duplicates_counted(tmp_path):
    """'1' and '01' are two vertices and print as two; a repeated edge (either way round) is kept once and counted."""
    f = tmp_path / "g.txt"
    f.write_text("1 01\n01 x\nx 01\n1 01\n² 1\n")
    G = read_edge_list(f)
    assert G.labels == (1, "01", "x", "²") and (G.n, G.edges, G.duplicate_edges) == (4, 3, 2)
    r = runner.invoke(app, ["graph", "--edges", str(f), "--json"])
    doc = json.loads(r.stdout)
    assert sorted(map(str, doc["winning_vertices"])) == sorted(map(str, solve_graph(G).winning_vertices))
    assert "names 2 edges more than once" in r.stderr
    # the path 1 – 01 – x with ² on 1: a path of four, Dawson's Chess at 4 (a P-position's complement)
    assert solve_graph(G).value == DAWSON[4]


def test_families():
    assert (named_graph("star:5").n, named_graph("star:5").edges) == (6, 5)
    assert (named_graph("grid:3x4").n, named_graph("grid:3x4").edges) == (12, 17)
    assert named_graph("complete:6").edges == 15 and solve_graph(named_graph("complete:6")).value == 1
    assert named_graph("petersen").edges == 15


runner = CliRunner()


def test_cli_json_shape():
    doc = json.loads(runner.invoke(app, ["graph", "path:10", "--json"]).output)
    assert list(doc)[:6] == ["game", "vertices", "edges", "value", "outcome", "winning_vertices"]
    assert doc["value"] == DAWSON[10] and doc["vertices"] == 10 and doc["edges"] == 9


@pytest.mark.parametrize(
    "args, fragment",
    [(["graph", "cycle:2"], "at least 3"), (["graph", "blob:4"], "unknown graph family"),
     (["graph", "--graph6", "x!!"], "not a graph6"), (["graph"], "exactly one graph"),
     (["graph", "path:3", "--game", "chess"], "unknown game"),
     (["graph", "grid:20x20", "--max-states", "2000"], "more than 2,000 component states"),
     (["graph", "path:3", "--max-states", "0"], "at least 1"),
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


# ---- merging twins and solving paths and cycles by shape (issue #16, first slice) ---------------------------

DAWSON_OEIS = [int(x) for x in (
    "0 1 1 2 0 3 1 1 0 3 3 2 2 4 0 5 2 2 3 3 0 1 1 3 0 2 1 1 0 4 5 "
    "2 7 4 0 1 1 2 0 3 1 1 0 3 3 2 2 4 4 5 5 2 3 3 0 1 1 3 "
    "0 2 1 1 0 4 5 3 7 4 8 1 1 2 0 3 1 1 0 3 3 2 2 4 4 5 5 9 3 3 0 "
    "1 1 3 0 2 1 1 0 4 5 3 7 4 8 1 1 2 0 3 1 1 0 3 3 2 2 4 "
    "4 5 5 9 3 3 0 1 1 3 0 2 1 1 0 4").split()]  # A002187: period 34, last exception at 51


def dawson(n: int) -> int:
    """Dawson's Chess from the OEIS values, continued through its published period 34 (exceptions end at 51)."""
    return DAWSON_OEIS[n] if n < len(DAWSON_OEIS) else DAWSON_OEIS[52 + (n - 52) % 34]


def plain_winners(g) -> list[int]:
    closed = [a | (1 << v) for v, a in enumerate(g.adj)]
    from octal.graphs import Graph

    out = []
    for v in range(g.n):
        keep = [u for u in range(g.n) if not closed[v] >> u & 1]
        idx = {u: i for i, u in enumerate(keep)}
        sub = Graph(len(keep), tuple(sum(1 << idx[w] for w in keep if g.adj[u] >> w & 1) for u in keep))
        if plain_node_kayles(sub) == 0:
            out.append(v)
    return out


@pytest.mark.parametrize("n", [1, 2, 3, 7, 34, 52, 85, 1000, 4999, 5000])
def test_long_paths_are_dawsons_chess(n):
    r = solve_graph(named_graph(f"path:{n}"))
    assert r.value == dawson(n) and r.method == "shape"
    assert r.winning_vertices == [i for i in range(n) if dawson(max(i - 1, 0)) ^ dawson(max(n - i - 2, 0)) == 0]


@pytest.mark.parametrize("k, s", [(1, 1), (2, 3), (5, 2), (12, 4), (300, 3), (1000, 2)])
def test_clique_paths_are_dawsons_chess_at_k(k, s):
    r = solve_graph(named_graph(f"clique-path:{k}:{s}"))
    assert r.value == dawson(k)
    if k * s <= 14:
        g = named_graph(f"clique-path:{k}:{s}")
        assert r.value == plain_node_kayles(g) and r.winning_vertices == plain_winners(g)


@pytest.mark.parametrize("seed", range(25))
def test_merging_twins_keeps_values_and_winning_vertices(seed):
    """Random graphs with planted twins (true twins: a vertex copied with its closed neighbourhood)."""
    from octal.graphs import graph_from_edges, twin_classes

    rng = random.Random(seed)
    n = rng.randint(3, 8)
    edges = {(u, v) for u in range(n) for v in range(u + 1, n) if rng.random() < 0.35}
    for _ in range(rng.randint(1, 4)):  # copy a vertex as a true twin
        src, new = rng.randrange(n), n
        edges |= {(min(u, new), max(u, new)) for u, v in edges for u in (u, v) if src in (u, v) and u != src}
        edges |= {(min(v, new), max(v, new)) for u, v in list(edges) if u == src for v in (v,)}
        edges.add((src, new))
        n += 1
    g = graph_from_edges(sorted(edges), n)
    quotient, classes = twin_classes(g)
    assert quotient.n < n and sorted(v for c in classes for v in c) == list(range(n))
    r = solve_graph(g)
    assert r.value == plain_node_kayles(g)
    assert r.winning_vertices == plain_winners(g)


def test_unions_of_paths_and_cycles_nim_sum():
    from octal.graphs import graph_from_edges

    edges = [(i, i + 1) for i in range(6)]  # a path of 7
    edges += [(7 + i, 7 + (i + 1) % 5) for i in range(5)]  # a cycle of 5
    edges += [(12, 13)]  # a path of 2, and vertex 14 alone
    g = graph_from_edges(edges, 15)
    r = solve_graph(g)
    assert r.method == "shape" and r.value == plain_node_kayles(g) == dawson(7) ^ (0 if dawson(2) else 1) ^ 1 ^ 1
    assert r.winning_vertices == plain_winners(g)


def test_big_graphs_beyond_the_budget_are_refused_in_one_line():
    r = runner.invoke(app, ["graph", "grid:12x12", "--max-states", "500"])
    assert r.exit_code == 2 and "prime piece of 144 vertices" in r.output and len(r.output.splitlines()) == 1
    r = runner.invoke(app, ["graph", "clique-path:300:3"])
    assert r.exit_code == 0 and "900 vertices" in r.output and "Dawson" in r.output


def test_the_default_search_budget_counts_states_not_seconds(monkeypatch):
    """A prime piece of n > 64 vertices gets PYTHON_WORK // n² states by default: the same refusal, at the same
    count, on any machine and under any load."""
    from octal.graphs import search

    assert search.python_default_states(100) == 80_000 and search.python_default_states(500) == 3_200
    monkeypatch.setattr(search, "PYTHON_WORK", 144 * 144 * 300)
    outputs = {runner.invoke(app, ["graph", "grid:12x12"]).output for _ in range(2)}
    assert len(outputs) == 1
    out = outputs.pop()
    assert "more than 300 component states" in out and "prime piece of 144 vertices" in out


@pytest.mark.parametrize("seed", range(30))
def test_interval_graphs_match_the_brute_force(seed):
    """The window recursion on random interval (and unit-interval) models, against the plain search."""
    family = "unit-interval" if seed % 3 == 0 else "interval"
    n = 3 + seed % 12
    g = named_graph(f"{family}:{n}:{seed}")
    r = solve_graph(g)
    assert r.method == "interval"
    assert r.value == plain_node_kayles(g) and r.winning_vertices == plain_winners(g)


def test_interval_models_of_paths_are_dawsons_chess():
    from octal.graphs import interval_graph

    for n in (1, 2, 5, 40, 300):
        g = interval_graph([(3 * i, 3 * i + 4) for i in range(n)])  # each meets only its neighbours
        assert g.edges == max(n - 1, 0) and solve_graph(g).value == dawson(n)
    with pytest.raises(InvalidArgumentError):
        interval_graph([(0, 2), (2, 5)])  # a shared endpoint


def test_asteroidal_triples():
    from octal.graphs import find_asteroidal_triple

    for n in range(3, 10):  # cycles of 6 or more have one; paths and short cycles are AT-free
        assert (find_asteroidal_triple(named_graph(f"cycle:{n}")) is not None) == (n >= 6)
        assert find_asteroidal_triple(named_graph(f"path:{n}")) is None
    for seed in range(20):  # interval graphs are AT-free (Lekkerkerker–Boland)
        assert solve_graph(named_graph(f"interval:{10 + seed}:{seed}")).at_free is True
    # random graphs against the definition: test_graph_decomposition.test_asteroidal_number_matches_the_definition
    doc = json.loads(runner.invoke(app, ["graph", "cycle:7", "--json"]).output)
    assert doc["at_free"] is False and len(doc["asteroidal_triple"]) == 3


@pytest.mark.parametrize("seed", range(30))
def test_permutation_graphs_match_the_brute_force(seed):
    """The box recursion on random permutations, against the plain search; permutation graphs are AT-free."""
    n = 3 + seed % 12
    g = named_graph(f"permutation:{n}:{seed}")
    r = solve_graph(g)
    assert r.method == "permutation" and r.at_free is True
    assert r.value == plain_node_kayles(g) and r.winning_vertices == plain_winners(g)


def test_permutation_models_of_paths_and_errors():
    from octal import permutation_graph

    # 1 0 3 2 5 4: three crossing pairs (three edges); 1 2 0 4 5 3: two paths of three vertices
    assert solve_graph(permutation_graph([1, 0, 3, 2, 5, 4])).value == 1
    assert solve_graph(permutation_graph([1, 2, 0, 4, 5, 3])).value == 0
    with pytest.raises(InvalidArgumentError):
        permutation_graph([0, 0, 1])
    r = runner.invoke(app, ["graph", "permutation:0:1"])
    assert r.exit_code == 2 and "at least one vertex" in r.output


@pytest.mark.parametrize("seed", range(12))
def test_trees_and_caterpillars_match_the_brute_force(seed):
    tree = named_graph(f"tree:{4 + seed}:{seed}")
    assert tree.edges == tree.n - 1 and len(components(tree.adj, (1 << tree.n) - 1)) == 1  # a tree
    cat = named_graph(f"caterpillar:{1 + seed % 5}:{seed % 3}")
    for g in (tree, cat):
        r = solve_graph(g)
        assert r.value == plain_node_kayles(g) and r.winning_vertices == plain_winners(g)


def test_the_clique_game_is_node_kayles_on_the_complement():
    """A complete graph's clique game lasts exactly n moves: value n mod 2 at once, for any n (no recursion, no
    state budget); the answers match the plain search of the clique game on small graphs elsewhere in this file."""
    for n in (1, 2, 25, 1100):
        r = solve_graph(named_graph(f"complete:{n}"), "clique")
        assert r.value == n % 2 and r.states == 0 and r.game == "clique"
    out = runner.invoke(app, ["graph", "complete:1100", "--game", "clique"]).output
    assert "value    0" in out and "complement" in out


def test_owners_follow_whole_number_labels_in_numeric_order(tmp_path):
    """An edge list '3 1 / 1 2' with --owners LRB gives L to vertex 1, R to 2, B to 3 (numeric order, not the order
    of first appearance), and the output and --json name each vertex's owner by its label."""
    path = tmp_path / "e.txt"
    path.write_text("3 1\n1 2\n")
    r = CliRunner().invoke(app, ["graph", "--edges", str(path), "--game", "partisan", "--owners", "LRB"])
    assert r.exit_code == 0 and "owners 1:L 2:R 3:B" in r.output
    r = CliRunner().invoke(app, ["graph", "--edges", str(path), "--game", "partisan", "--owners", "LRB", "--json"])
    assert json.loads(r.output)["owner_of"] == {"1": "L", "2": "R", "3": "B"}


@pytest.mark.parametrize("text, fragment", [("9" * 5000 + " 2\n", None), ("x:\n", "may not end in ':'"),
                                            ("a x:\n", "may not end in ':'")])
def test_edge_list_names_are_read_safely(tmp_path, text, fragment):
    """A 5,000-digit name stays a name (no integer is built from it); a name ending in ':' is refused, since 'v: X'
    lines give owners."""
    path = tmp_path / "e.txt"
    path.write_text(text)
    if fragment is None:
        assert read_edge_list(path).n == 2
    else:
        with pytest.raises(DataFileError, match=fragment):
            read_edge_list(path)


def test_an_unknown_graph_game_lists_every_game():
    r = CliRunner().invoke(app, ["graph", "path:4", "--game", "bogus"])
    assert r.exit_code == 2 and all(g in r.output for g in ("node-kayles", "clique", "partizan"))

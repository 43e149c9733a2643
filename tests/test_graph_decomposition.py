"""Unions, joins and the asteroidal number, checked against brute force written from the definitions."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from test_graphs import plain_node_kayles, plain_winners
from typer.testing import CliRunner

from octal.front.cli import app
from octal.graphs import Graph, asteroidal_number, decompose, graph_from_edges, named_graph, solve_graph


def union(a: Graph, b: Graph) -> Graph:
    return Graph(a.n + b.n, a.adj + tuple(x << a.n for x in b.adj))


def join(a: Graph, b: Graph) -> Graph:
    every_a, every_b = (1 << a.n) - 1, ((1 << b.n) - 1) << a.n
    return Graph(a.n + b.n, tuple(x | every_b for x in a.adj) + tuple((x << a.n) | every_a for x in b.adj))


def random_mixture(rng: random.Random, budget: int) -> Graph:
    """Unions and joins of single vertices, short paths and small random (usually prime) graphs."""
    if budget <= 3 or rng.random() < 0.25:
        kind = rng.choice(["vertex", "path", "random"])
        if kind == "vertex" or budget < 2:
            return Graph(1, (0,))
        if kind == "path":
            return named_graph(f"path:{rng.randint(2, min(budget, 5))}")
        return named_graph(f"random:{min(budget, 5)}:0.5:{rng.randrange(10**6)}")
    left = rng.randint(1, budget - 1)
    a, b = random_mixture(rng, left), random_mixture(rng, budget - left)
    return union(a, b) if rng.random() < 0.5 else join(a, b)


@pytest.mark.parametrize("seed", range(40))
def test_unions_and_joins_match_the_brute_force(seed):
    g = random_mixture(random.Random(seed), 6 + seed % 9)
    r = solve_graph(g)
    assert r.value == plain_node_kayles(g)
    assert r.winning_vertices == plain_winners(g)


def test_cographs_are_solved_without_search():
    mixtures = (random_mixture(random.Random(seed), 12) for seed in range(200))
    cographs = [g for g in mixtures if not any(p.kind == "search" for p in decompose(g))]
    assert len(cographs) >= 10
    for g in cographs[:10]:
        r = solve_graph(g)
        assert r.method in ("cotree", "shape") and r.states == 0 and r.value == plain_node_kayles(g)


def complete_multipartite(parts: list[int]) -> Graph:
    g = Graph(parts[0], (0,) * parts[0])
    for size in parts[1:]:
        g = join(g, Graph(size, (0,) * size))
    return g


@pytest.mark.parametrize("parts, value", [([500, 700, 301], 2), ([2, 4], 0), ([3], 1), ([1, 1, 1], 1), ([2, 3, 5], 2)])
def test_complete_multipartite_graphs(parts, value):
    """A move in a part of size a leaves a − 1 isolated vertices: options {(a − 1) mod 2}, value their mex."""
    expect = 0
    while expect in {(a - 1) % 2 for a in parts}:
        expect += 1
    g = complete_multipartite(parts)
    r = solve_graph(g)
    assert r.value == value == expect and r.states == 0
    assert r.winning_vertices == [v for v in range(g.n) if _part_size(parts, v) % 2 == 1]  # leaving an even number


def _part_size(parts: list[int], v: int) -> int:
    for size in parts:
        if v < size:
            return size
        v -= size
    raise AssertionError


def test_a_join_of_long_paths_and_a_prime_piece():
    """Two long paths joined to a Petersen graph: the paths go by shape, only the Petersen graph is searched."""
    g = join(join(named_graph("path:400"), named_graph("path:401")), named_graph("petersen"))
    r = solve_graph(g)
    assert r.method == "search" and r.largest_search == 10
    from test_graphs import dawson

    path_options = lambda n: {dawson(max(i - 1, 0)) ^ dawson(max(n - i - 2, 0)) for i in range(n)}  # noqa: E731
    options = path_options(400) | path_options(401) | _options(named_graph("petersen"))
    expect = 0
    while expect in options:
        expect += 1
    assert r.value == expect


def _options(g: Graph) -> set[int]:
    closed = [a | (1 << v) for v, a in enumerate(g.adj)]
    out = set()
    for v in range(g.n):
        keep = [u for u in range(g.n) if not closed[v] >> u & 1]
        idx = {u: i for i, u in enumerate(keep)}
        out.add(plain_node_kayles(Graph(len(keep), tuple(sum(1 << idx[w] for w in keep if g.adj[u] >> w & 1)
                                                               for u in keep))))
    return out


def is_asteroidal(g: Graph, s) -> bool:
    """Independent, and for every a in s every two others are joined by a path that avoids N[a]."""
    closed = [a | (1 << v) for v, a in enumerate(g.adj)]

    def joined(x, y, avoid):
        seen, todo = {x}, [x]
        while todo:
            v = todo.pop()
            for u in range(g.n):
                if g.adj[v] >> u & 1 and not avoid >> u & 1 and u not in seen:
                    seen.add(u)
                    todo.append(u)
        return y in seen

    if any(closed[a] >> b & 1 for a, b in itertools.combinations(s, 2)):
        return False
    return all(joined(x, y, closed[a]) for a in s for x, y in itertools.combinations([b for b in s if b != a], 2))


def plain_asteroidal_number(g: Graph) -> int:
    """The largest asteroidal set, every subset tried up to size 5."""
    return max(k for k in range(1, 6) if any(is_asteroidal(g, s) for s in itertools.combinations(range(g.n), k)))


@pytest.mark.parametrize("seed", range(40))
def test_asteroidal_number_matches_the_definition(seed):
    rng = random.Random(seed)
    n = 5 + seed % 8
    g = (named_graph(f"random:{n}:{rng.choice([0.15, 0.25, 0.35])}:{seed}") if seed % 3
         else named_graph(f"tree:{n}:{seed}"))
    plain = plain_asteroidal_number(g)
    a = asteroidal_number(g)
    assert a.number == min(plain, 4) and a.exact == (plain < 4)
    assert len(set(a.witness)) == a.number and is_asteroidal(g, a.witness)


def test_asteroidal_number_of_families():
    assert asteroidal_number(named_graph("cycle:5")).number == 2
    assert asteroidal_number(named_graph("cycle:6")).number == 3 and asteroidal_number(named_graph("cycle:6")).exact
    assert asteroidal_number(named_graph("complete:5")).number == 1
    star = asteroidal_number(named_graph("star:6"))  # leaves meet only through the centre
    assert (star.number, star.exact, star.at_free) == (2, True, True)
    spider = graph_from_edges([(0, 1), (1, 2), (0, 3), (3, 4), (0, 5), (5, 6)], 7)  # three legs of 2: an AT
    assert asteroidal_number(spider).number == 3 and asteroidal_number(spider).exact


def test_json_reports_the_asteroidal_number_and_the_search():
    doc = json.loads(CliRunner().invoke(app, ["graph", "cycle:6", "--json"]).output)
    assert doc["asteroidal_number"] == {"value": 3, "exact": True, "witness": doc["asteroidal_triple"]}
    assert doc["at_free"] is False and doc["method"] == "shape" and doc["states"] == 0
    doc = json.loads(CliRunner().invoke(app, ["graph", "petersen", "--json"]).output)
    assert doc["method"] == "search" and doc["largest_search"] == 10 and doc["asteroidal_number"]["value"] == 4


@pytest.mark.parametrize("seed", range(10))
def test_random_cographs(seed):
    g = named_graph(f"cograph:{8 + seed}:{seed}")
    r = solve_graph(g)
    assert (r.method in ("cotree", "shape") and r.value == plain_node_kayles(g)
            and r.winning_vertices == plain_winners(g))
    assert r.at_free is True  # cographs are cocomparability graphs, hence AT-free

"""Named graph families (`path:N`, `interval:N:SEED`, `clique-path:K:S`, …): the specs the CLI and benchmarks use."""

from __future__ import annotations

import heapq
import itertools
import random

from ..errors import InvalidArgumentError, OctalError
from .graph import Graph, bits, check_size, graph_from_edges, interval_graph, permutation_graph, popcount


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


def _random_cograph(n: int, rng: random.Random) -> tuple[int, ...]:
    """Adjacency of a random cograph: n single vertices merged two at a time, by disjoint union or by join."""
    adj = [0] * n
    groups = [1 << v for v in range(n)]
    while len(groups) > 1:
        a = groups.pop(rng.randrange(len(groups)))
        b = groups.pop(rng.randrange(len(groups)))
        if rng.random() < 0.5:
            for v in bits(a):
                adj[v] |= b
            for v in bits(b):
                adj[v] |= a
        groups.append(a | b)
    return tuple(adj)


def named_graph(spec: str) -> Graph:
    """path:N, cycle:N, star:N (a centre and N leaves), complete:N, grid:WxH, clique-path:K:S (K cliques of S vertices
    in a row, each joined to the next), interval:N:SEED and unit-interval:N:SEED (random intervals, the model kept),
    permutation:N:SEED (a random permutation, the model kept), tree:N:SEED (a random labelled tree),
    caterpillar:S:L (a spine of S vertices with L leaves on each), cograph:N:SEED (random unions and joins), petersen,
    random:N:P:SEED."""
    if not isinstance(spec, str):
        raise InvalidArgumentError(f"a graph family is named by text such as 'path:10', not {type(spec).__name__}")
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
                raise InvalidArgumentError(f"{spec}: caterpillar:S:L needs a spine of S ≥ 1 vertices "
                                           "and L ≥ 0 leaves each")
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
            edges += [(c * size + i, (c + 1) * size + j)
                      for c in range(k - 1) for i in range(size) for j in range(size)]
            return graph_from_edges(edges, k * size)
        if name == "cograph":
            n_text, seed_text = arg.split(":")
            n, seed = int(n_text), int(seed_text)
            check_size(n, spec)
            adj = _random_cograph(n, random.Random(seed))
            check_size(n, spec, sum(popcount(a) for a in adj) // 2)
            return Graph(n, adj)
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
            "interval:N:SEED, unit-interval:N:SEED, permutation:N:SEED, tree:N:SEED, caterpillar:S:L, cograph:N:SEED, "
            "petersen or "
            "random:N:P:SEED"
        ) from None
    if name not in ("path", "cycle", "star", "complete"):
        raise InvalidArgumentError(
            f"unknown graph family {name!r}: path, cycle, star, complete, grid, clique-path, interval, unit-interval, "
            "permutation, tree, caterpillar, cograph, petersen, random")
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


def as_graph(graph: Graph | str) -> Graph:
    """A Graph as given, or the named one for a family string ('path:4', 'petersen'): what every solver accepts."""
    if isinstance(graph, Graph):
        return graph
    if isinstance(graph, str):
        return named_graph(graph)
    raise InvalidArgumentError(f"a graph is a Graph (graph_from_edges, named_graph, …) or a family name such as "
                               f"'path:4', not {type(graph).__name__}")

"""Node Kayles speed: large graph families, the largest size each solves within a time limit, and G(n, p).

    python benchmarks/graphs.py --families   # the families: fixed sizes (median of 3 seeds), then the largest n
    python benchmarks/graphs.py --random     # G(n, p) at several densities, grids, compiled against pure Python
    python benchmarks/graphs.py --limit 60   # both

Fixed sizes: interval and permutation graphs (the O(n³) recursions on their models), the same interval graphs given
by their edges only (decomposition, then the exact search), cographs, and G(n, 0.1), at 100 / 300 / 1,000 vertices.
Largest n: each family grows by half again from 25 (seed 1) until a graph takes longer than --limit, is refused
by the search's default budget of component states, or is beyond what is built; the last size solved is reported.
CPU seconds (time.process_time) include the asteroidal-number check for graphs of up to 600 vertices.
"""

from __future__ import annotations

import argparse
import statistics
import time

from timing import median_seconds

from octal import ResourceLimitError
from octal.graphs import Graph, NodeKayles, named_graph, solve_graph

SIZES = [30, 40, 50, 55, 60]
DENSITIES = [0.05, 0.1, 0.2, 0.3]
SEEDS = [1, 2, 3]
FAMILIES = {  # name: spec of n vertices
    "interval": "interval:{n}:{seed}",
    "unit-interval": "unit-interval:{n}:{seed}",
    "permutation": "permutation:{n}:{seed}",
    "interval, edges only": "edges-of interval:{n}:{seed}",
    "cograph": "cograph:{n}:{seed}",
    "path": "path:{n}",
    "clique-path (S = 3)": "clique-path:{k}:3",
    "caterpillar (L = 2)": "caterpillar:{k}:2",
    "tree": "tree:{n}:{seed}",
    "G(n, 0.1)": "random:{n}:0.1:{seed}",
}


def build(template: str, n: int, seed: int) -> Graph:
    """The family's graph of about n vertices; 'edges-of' drops the model so only the edges are known."""
    spec = template.format(n=n, k=max(n // 3, 1), seed=seed)
    if spec.startswith("edges-of "):
        g = named_graph(spec.split(" ", 1)[1])
        return Graph(g.n, g.adj)
    return named_graph(spec)


def timed(g: Graph) -> tuple[float, object]:
    """(CPU seconds, the result or the refusal's text)."""
    t0 = time.process_time()
    try:
        r = solve_graph(g)
    except ResourceLimitError as exc:
        r = str(exc)
    return time.process_time() - t0, r


def fixed_sizes() -> None:
    print(f"{'family':<22}{'vertices':>9}{'edges':>11}{'median s':>10}{'states':>12}  method (3 seeds)")
    for family in ("interval", "permutation", "interval, edges only", "cograph", "G(n, 0.1)"):
        for n in (100, 300, 1000):
            rows = [(g.edges, *timed(g)) for g in (build(FAMILIES[family], n, seed) for seed in SEEDS)]
            med = statistics.median(t for _, t, _ in rows)
            edges = int(statistics.median(e for e, _, _ in rows))
            done = [r for _, _, r in rows if not isinstance(r, str)]
            what = (f"{int(statistics.median(r.states for r in done)):>12,}  {done[0].method}" if len(done) == 3
                    else f"{'':>12}  {3 - len(done)} of 3 refused by the budget")
            print(f"{family:<22}{n:>9,}{edges:>11,}{med:>10.2f}{what}")


def largest(limit: float) -> None:
    print(f"\n{'family':<22}{'largest n':>10}{'edges':>11}{'s':>8}  "
          f"method; what stopped the growth (limit {limit:.0f} s)")
    for family, template in FAMILIES.items():
        n, best, why = 25, None, ""
        while True:
            try:
                g = build(template, n, 1)
            except ResourceLimitError:
                why = f"{n:,} is beyond what is built"
                break
            t, r = timed(g)
            if isinstance(r, str):
                why = f"{g.n:,} refused by the search budget ({t:.0f} s)"
                break
            if t > limit:
                why = f"{g.n:,} took {t:.0f} s"
                break
            best = (g.n, g.edges, t, r.method)
            n = n * 3 // 2
        if best is None:
            print(f"{family:<22}{'—':>10}{'':>11}{'':>8}  {why}")
        else:
            print(f"{family:<22}{best[0]:>10,}{best[1]:>11,}{best[2]:>8.1f}  {best[3]}; {why}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--limit", type=float, default=60.0)
    ap.add_argument("--families", action="store_true", help="only the large families")
    ap.add_argument("--random", action="store_true", help="only G(n, p), grids and compiled against Python")
    args = ap.parse_args()
    solve_graph(named_graph("random:12:0.3:0"))  # compile or load the cache
    solve_graph(named_graph("interval:12:0"))
    solve_graph(named_graph("permutation:12:0"))
    if not args.random:
        fixed_sizes()
        largest(args.limit)
    if args.families:
        return
    print(f"{'graph':<18}{'median s':>10}{'states':>12}   (3 seeds)")
    for p in DENSITIES:
        best_n = None
        for n in SIZES:
            times, states = [], []
            try:
                for seed in SEEDS:
                    g = named_graph(f"random:{n}:{p}:{seed}")
                    t0 = time.perf_counter()
                    r = solve_graph(g)
                    times.append(time.perf_counter() - t0)
                    states.append(r.states)
            except ResourceLimitError:
                print(f"G({n},{p})".ljust(18) + "   beyond the state limit")
                break
            med = statistics.median(times)
            print(f"G({n},{p})".ljust(18) + f"{med:>10.2f}{int(statistics.median(states)):>12,}")
            if max(times) > args.limit:
                break
            best_n = n
        print(f"  largest n solved within {args.limit:.0f} s at p = {p}: {best_n}")
    for spec in ["grid:5x5", "grid:6x6", "grid:7x7", "grid:8x6"]:
        g = named_graph(spec)
        t = median_seconds(lambda: solve_graph(g))
        print(f"{spec:<18}{t:>10.2f}")
    g = named_graph("random:30:0.1:1")
    fast = median_seconds(lambda: NodeKayles(g).value())

    def python_path():
        s = NodeKayles(g)
        s.compiled = False
        s.value()

    slow = median_seconds(python_path)
    print(f"G(30,0.1) compiled {fast:.3f} s vs pure Python {slow:.2f} s: {slow / fast:,.0f}x")


if __name__ == "__main__":
    main()

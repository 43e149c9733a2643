"""Node Kayles speed: random graphs G(n, p) and grids, and the largest n solved within the time limit.

    python benchmarks/graphs.py              # n = 30, 40, 50, 55, 60 at several densities; grids
    python benchmarks/graphs.py --limit 60   # seconds allowed per graph
    python benchmarks/graphs.py --families   # only the large families: intervals, permutations, paths, clique-paths

For each density, sizes grow until one takes longer than --limit (that one is still reported); the
compiled kernel is compared with the pure-Python search (canonical forms, no numba) on n = 30.
"""

from __future__ import annotations

import argparse
import statistics
import time

from timing import median_seconds

from octal import ResourceLimitError
from octal.graphs import NodeKayles, named_graph, solve_graph

SIZES = [30, 40, 50, 55, 60]
DENSITIES = [0.05, 0.1, 0.2, 0.3]
SEEDS = [1, 2, 3]




def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--limit", type=float, default=60.0)
    ap.add_argument("--families", action="store_true")
    args = ap.parse_args()
    solve_graph(named_graph("random:12:0.3:0"))  # compile or load the cache
    solve_graph(named_graph("interval:12:0"))
    print(f"{'family':<24}{'vertices':>9}{'edges':>11}{'median s':>10}  method (3 seeds)")
    for family, sizes in (("interval", (100, 300, 1000, 2000)), ("unit-interval", (100, 300, 1000, 2000)),
                          ("permutation", (100, 300, 1000, 2000))):
        for n in sizes:
            rows = []
            for seed in SEEDS:
                g = named_graph(f"{family}:{n}:{seed}")
                t0 = time.perf_counter()
                r = solve_graph(g)
                rows.append((time.perf_counter() - t0, g.edges, r.method))
            med = statistics.median(t for t, _, _ in rows)
            edges = int(statistics.median(e for _, e, _ in rows))
            print(f"{family + ':' + str(n):<24}{n:>9,}{edges:>11,}{med:>10.2f}  {rows[0][2]}")
    for spec in ("path:5000", "path:20000", "clique-path:300:3", "clique-path:1000:10"):
        g = named_graph(spec)
        t = median_seconds(lambda: solve_graph(g))
        print(f"{spec:<24}{g.n:>9,}{g.edges:>11,}{t:>10.2f}  {solve_graph(g).method}")
    if args.families:
        return
    print(f"{'graph':<18}{'median s':>10}{'states':>12}   (3 seeds)")
    for p in DENSITIES:
        largest = None
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
            largest = n
        print(f"  largest n solved within {args.limit:.0f} s at p = {p}: {largest}")
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

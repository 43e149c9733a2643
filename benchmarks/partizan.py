"""Partizan Node Kayles speed: the issue's two workloads (each should take under 10 s), and the sum of components'
canonical forms against the search of the sum (the fallback for sums whose form grows too large).

    python benchmarks/partizan.py            # median CPU seconds of 3 runs each
    python benchmarks/partizan.py --repeat 5

Workloads: path:40 with owners alternate (one component, 743 states, a form of 530 subgames); a union of 50 random
trees of up to 8 vertices with random owners (seeds 0–4: 50 components, their forms added); and, as the baseline
measured in the same run, the same kind of union of 24 trees solved both ways — forms added, and the sum searched
(`max_form_work=0`: no form of the sum built at all).
"""

from __future__ import annotations

import argparse
import random
import time

from timing import median_cpu_seconds

from octal.graphs import graph_from_edges, named_graph, parse_owners, partizan_node_kayles


def union_of_trees(seed: int, count: int, most: int = 8):
    """`count` random trees of 1..most vertices (each vertex joined to an earlier one) with random owners L/R."""
    rng = random.Random(seed)
    edges, n = [], 0
    for _ in range(count):
        k = rng.randint(1, most)
        edges += [(n + v, n + rng.randrange(v)) for v in range(1, k)]
        n += k
    return graph_from_edges(edges, n), "".join(rng.choice("LR") for _ in range(n))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    print(f"partizan Node Kayles, median CPU s of {a.repeat} (time.process_time)")
    g = named_graph("path:40")
    owners = parse_owners("alternate", g)
    r = partizan_node_kayles(g, owners)
    s = median_cpu_seconds(lambda: partizan_node_kayles(g, owners), a.repeat)
    print(f"  path:40, owners alternate          {s:7.2f} s   outcome {r.outcome}, {r.states:,} states, "
          f"form of {r.to_dict()['value_form']['subgames']:,} subgames   (target < 10 s)")
    for seed in range(5):
        g, owners = union_of_trees(seed, 50)
        r = partizan_node_kayles(g, owners)
        s = median_cpu_seconds(lambda: partizan_node_kayles(g, owners), a.repeat)
        print(f"  50 random trees ≤ 8 vertices, seed {seed} {s:7.2f} s   outcome {r.outcome}, value "
              f"{(r.value_text or '')[:40]}   (target < 10 s)")
    print("baseline, same run: 24 random trees ≤ 8 vertices, forms added against the sum searched")
    for seed in range(3):
        g, owners = union_of_trees(100 + seed, 24)
        forms = median_cpu_seconds(lambda: partizan_node_kayles(g, owners), a.repeat)
        t0 = time.process_time()
        searched = partizan_node_kayles(g, owners, max_form_work=0)
        search = time.process_time() - t0
        print(f"  seed {100 + seed}: forms {forms:6.3f} s, search of the sum {search:7.2f} s "
              f"({searched.states:,} states) — forms {search / max(forms, 1e-9):,.0f}× faster")


if __name__ == "__main__":
    main()

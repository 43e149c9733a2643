"""Misère quotients: time to compute them, and the exhaustive search they replace, timed in the same run.

    python benchmarks/misere.py             # every workload
    python benchmarks/misere.py --repeat 5  # medians of 5 runs

For each game: seconds to compute the quotient (warm: the compiled searches are loaded first), its
order and verdict; then every position of at most --tokens tokens decided twice, by the exhaustive
misère search and by the quotient (its computation included), and the ratio of the two.
MisereSolver (CGSuite) takes about 0.6 s of solver time for Kayles: the target of the first line.
"""

from __future__ import annotations

import argparse

from reference_positions import partitions
from timing import median_seconds

from octal import parse_code
from octal.misere import MisereSearch, misere_quotient

WORKLOADS = [
    # (label, code, target seconds or None)
    ("Kayles 0.77", "0.77", 0.6),
    ("R8 0.75", "0.75", None),
    ("0.15", "0.15", None),
    ("Dawson's Kayles 0.07", "0.07", None),
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--tokens", type=int, default=26, help="decide every position of at most this many tokens")
    args = ap.parse_args()
    misere_quotient(parse_code("0.75"))  # load the compiled searches outside the timings
    positions = [p for n in range(1, args.tokens + 1) for p in partitions(n)]
    print(f"{'game':<22}{'seconds':>9}{'target':>8}{'|Q|':>6}{'|P|':>5}  verdict")
    rows = []
    for label, text, target in WORKLOADS:
        code = parse_code(text)
        box = {}

        def compute():
            box["q"] = misere_quotient(code)

        t = median_seconds(compute, args.repeat)
        q = box["q"]
        verdict = (f"period {q.period} from heap {q.preperiod}, proven at heap {q.max_heap}" if q.proven
                   else f"{q.status} at heap {q.max_heap}: {q.reason}")
        print(f"{label:<22}{t:>9.2f}{f'{target:g}s' if target else '':>8}{q.order:>6}{q.p_portion:>5}  {verdict}")
        rows.append((label, code, q))
    print(f"\nevery position of at most {args.tokens} tokens ({len(positions):,} positions):")
    print(f"{'game':<22}{'search s':>10}{'quotient s':>12}{'ratio':>8}")
    for label, code, q in rows:
        if not q.covers((args.tokens,)):
            print(f"{label:<22}{'':>10}{'':>12}  quotient does not reach heap {args.tokens}")
            continue
        t_search = median_seconds(lambda: [MisereSearch(code).is_p(p) for p in positions], 1)

        def with_quotient():
            qq = misere_quotient(code)
            return [qq.is_p(p) for p in positions]

        t_quot = median_seconds(with_quotient, args.repeat)
        print(f"{label:<22}{t_search:>10.2f}{t_quot:>12.2f}{t_search / t_quot:>7.1f}x")


if __name__ == "__main__":
    main()

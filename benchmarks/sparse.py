"""Sparse-kernel speed on the workloads of the literature, with the naive kernel timed in the same run.

    python benchmarks/sparse.py           # every workload (several minutes)
    python benchmarks/sparse.py --quick   # smaller sizes

For each workload: seconds and values/s with the automatic kernel choice, then the ratio against the
naive kernel at the largest N the naive kernel can afford here (both timed now, medians of --repeat).
"""

from __future__ import annotations

import argparse

from timing import median_seconds

from octal import GrundySequence, nim_sequence, parse_code

WORKLOADS = [
    # (label, code, N or None for until proven, naive comparison N, target seconds)
    ("Kayles 0.77", "0.77", 10**7, 200_000, 1.0),
    ("Officers 0.6", "0.6", 2**21, 200_000, 8.0),
    ("Treblecross 0.007", "0.007", 10**6, 200_000, 60.0),
    ("0.354 until proven", "0.354", None, 100_000, 20.0),
    ("Grundy's game 4!.0", "4!.0", 2**24, 200_000, None),
]
QUICK = {"0.77": 10**6, "0.6": 2**18, "0.007": 2 * 10**5, "0.354": 2**20, "4!.0": 2**20}




def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    for kernel in ("naive", "sparse"):  # compile or load the cache outside the timings
        GrundySequence(parse_code("0.6"), kernel=kernel).extend(3000)
    print(f"{'workload':<22}{'N':>12}{'seconds':>10}{'values/s':>14}{'target':>9}   sparse vs naive at N_naive")
    for label, code, n, n_naive, target in WORKLOADS:
        if args.quick:
            n = QUICK[code]
            n_naive = min(n_naive, 50_000)
        box = {}

        def auto():
            if n is None:
                box["r"] = nim_sequence(code, until_proven=True, max_n=2**26)
            else:
                box["r"] = nim_sequence(code, n)

        t = median_seconds(auto, args.repeat)
        got = box["r"].n
        t_naive = median_seconds(lambda: GrundySequence(parse_code(code), kernel="naive").extend(n_naive), args.repeat)
        t_sparse = median_seconds(lambda: GrundySequence(parse_code(code), kernel="sparse").extend(n_naive), args.repeat)
        verdict = box["r"].periodicity.describe() if n is None else ""
        goal = f"{target:>8.0f}s" if target else f"{'—':>9}"
        print(f"{label:<22}{got:>12,}{t:>10.2f}{got / t:>14,.0f}{goal}   "
              f"{t_naive / t_sparse:>6.1f}x at N={n_naive:,} (naive {t_naive:.2f} s, sparse {t_sparse:.2f} s) {verdict}")


if __name__ == "__main__":
    main()

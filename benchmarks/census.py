"""Census speed: all 1,023 three-digit codes (0.ddd and 4.ddd) to --max-n, on the process pool and on a
Dask LocalCluster in the same run, printing codes/s for each (target: under 5 minutes on 2 cores).

    python benchmarks/census.py                  # --max-n 65536, both backends
    python benchmarks/census.py --quick          # two digits only
    python benchmarks/census.py --facts          # also the published long periods (0.376, 0.354: ~30 s)
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

from octal.census import enumerate_codes, run_census

FACTS = {"0.156": (3479, 349), "0.165": (5181, 1550), "0.356": (7315, 142), "0.644": (3256, 442),
         "0.16": (105351, 149459), "0.56": (326640, 144), "0.127": (46578, 4), "0.376": (2268248, 4),
         "0.354": (10061916, 1180)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--facts", action="store_true")
    ap.add_argument("--max-n", type=int, default=1 << 16)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()
    digits = 2 if args.quick else 3
    codes = enumerate_codes(digits, "both")
    run_census(0, codes=codes[:4], max_n=4096, workers=1, db=os.path.join(tempfile.mkdtemp(), "w.sqlite"))  # warm
    results = {}
    for backend in ("pool", "dask"):
        db = os.path.join(tempfile.mkdtemp(), f"{backend}.sqlite")
        t0 = time.perf_counter()
        rows = run_census(0, codes=codes, max_n=args.max_n, workers=args.workers,
                          dask="local" if backend == "dask" else None, db=db)
        dt = time.perf_counter() - t0
        proven = sum(r["status"] == "proven" for r in rows)
        results[backend] = [(r["code"], r["status"], r["preperiod"], r["period"]) for r in rows]
        print(f"{backend:<5} {len(rows)} codes to {args.max_n:,}: {dt:6.1f} s, {len(rows) / dt:6.1f} codes/s, "
              f"{proven} proven, {len(rows) - proven} open")
    print("pool and dask results identical:", results["pool"] == results["dask"])
    if args.facts:
        for code, (n0, p) in FACTS.items():
            t0 = time.perf_counter()
            (row,) = run_census(0, codes=[code], max_n=1 << 25, workers=1,
                                db=os.path.join(tempfile.mkdtemp(), "f.sqlite"))
            ok = (row["preperiod"], row["period"]) == (n0, p)
            print(f"{code:<6} preperiod {row['preperiod']:>10,} period {row['period']:>7,}  "
                  f"{'matches' if ok else 'DIFFERS from'} the published {n0:,}/{p:,}  "
                  f"({time.perf_counter() - t0:.1f} s)")


if __name__ == "__main__":
    main()

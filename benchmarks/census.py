"""Census speed: all 1,023 three-digit codes (0.ddd and 4.ddd) to --max-n, on the process pool and on a
Dask LocalCluster in the same run, printing codes/s for each (target: under 5 minutes on 2 cores); or the 8,191
four-digit codes (0.dddd and 4.dddd) in stages, with the targets of issue #35.

    python benchmarks/census.py                  # --max-n 65536, both backends
    python benchmarks/census.py --quick          # two digits only
    python benchmarks/census.py --facts          # also the published long periods (0.376, 0.354: ~30 s)
    python benchmarks/census.py --four --max-n 4096     # every 4-digit code to 2^12 (target ≤ 3 min), then the
                                                         # re-run (target ≤ 10 s) and the file's size
    python benchmarks/census.py --four --db FILE        # to 2^16 (target ≤ 60 min; resumable: FILE is kept)
    python benchmarks/census.py --escalate 64 --db FILE # 64 codes open in FILE at 2^16, on a copy, to 2^20
                                                         # (target ≤ 20 min)
    python benchmarks/census.py --hex --max-n 4096      # the 3,584 three-digit hexadecimal codes to 2^12 (target
                                                         # ≤ 45 min on 2 workers), then the re-run (target ≤ 10 s)

Wall seconds, CPU seconds (the whole machine's on Linux, so the pool's workers count: timing.py), and the compute
share: the seconds the workers spent in `compute_code` (kernels, period search, certificate) over workers × wall;
the rest is the pool, SQLite, the grouping and the verification of every row.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from timing import spent_cpu_seconds  # noqa: E402

from octal.census import CensusDB, enumerate_codes, run_census  # noqa: E402

FACTS = {"0.156": (3479, 349), "0.165": (5181, 1550), "0.356": (7315, 142), "0.644": (3256, 442),
         "0.16": (105351, 149459), "0.56": (326640, 144), "0.127": (46578, 4), "0.376": (2268248, 4),
         "0.354": (10061916, 1180)}


def timed_census(label: str, codes: list[str] | None, max_n: int, workers: int, db: str,
                 hexadecimal: bool = False) -> list[dict]:
    """One census run, its wall and CPU seconds, the compute share, and the counts by status and budget."""
    before = {r["code"]: r["seconds"] for r in CensusDB.read(db, "")} if os.path.exists(db) else {}
    t0, c0 = time.perf_counter(), spent_cpu_seconds()
    if hexadecimal:
        rows = run_census(3, "0", max_n=max_n, workers=workers, db=db, codes=codes, hexadecimal=True)
    else:
        rows = run_census(4, "both", max_n=max_n, workers=workers, db=db, codes=codes)
    wall, used = time.perf_counter() - t0, spent_cpu_seconds() - c0
    computed = sum(r["seconds"] - before.get(r["code"], 0.0) for r in rows)
    proven = sum(r["status"] == "proven" for r in rows)
    by = {}
    for r in rows:
        if r["status"] == "proven":
            by[r["budget"] or 0] = by.get(r["budget"] or 0, 0) + 1  # 0: a row of an older file, no budget
    print(f"{label}: {len(rows):,} codes to {max_n:,} heaps, {workers} workers: {wall:7.1f} s wall, {used:7.1f} s CPU, "
          f"compute share {computed / max(workers * wall, 1e-9):.0%}; {proven:,} proven "
          f"({', '.join(f'{k:,} within {b:,}' for b, k in sorted(by.items()))}), "
          f"{len(rows) - proven:,} open; file {os.path.getsize(db) / 1e6:,.1f} MB")
    return rows


def four_digits(args) -> None:
    """Issue #35's targets: the whole census, its re-run, or 64 open codes escalated."""
    db = args.db or os.path.join(tempfile.mkdtemp(), "census4.sqlite")
    if args.escalate:
        open_codes = [r["code"] for r in CensusDB.read(db, "") if r["status"] == "open" and r["n"] >= 1 << 16]
        step = max(1, len(open_codes) // args.escalate)
        sample = open_codes[::step][: args.escalate]  # every k-th open code, in code order: the same sample each run
        copy = os.path.join(tempfile.mkdtemp(), "escalate.sqlite")
        shutil.copy(db, copy)
        timed_census(f"{len(sample)} open codes", sample, 1 << 20, args.workers, copy)
        print(f"(on a copy: {copy})")
        return
    timed_census("census", None, args.max_n, args.workers, db, args.hex)
    timed_census("re-run ", None, args.max_n, args.workers, db, args.hex)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--facts", action="store_true")
    ap.add_argument("--max-n", type=int, default=1 << 16)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--four", action="store_true", help="the 8,191 four-digit codes, in stages")
    ap.add_argument("--escalate", type=int, default=0, metavar="K", help="K codes open at 2^16 in --db, to 2^20")
    ap.add_argument("--hex", action="store_true", help="the 3,584 three-digit hexadecimal codes, in stages")
    ap.add_argument("--db", default=None, help="with --four/--hex/--escalate: the census file (kept)")
    args = ap.parse_args()
    if args.four or args.escalate or args.hex:
        return four_digits(args)
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

"""Misère census speed: the quotient of every 0.dd code (and, without --quick, every 0.ddd code) within the default
per-code budget, on the process pool, with codes/s and how many are finite, bounded and growing; then the Kayles
quotient's time against the exhaustive misère search deciding every position of at most --tokens tokens.

    python benchmarks/misere_census.py            # 2 and 3 digits (about 8 minutes on 2 cores)
    python benchmarks/misere_census.py --quick    # 2 digits only
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

from reference_positions import positions_up_to

from octal.census import enumerate_codes, run_misere_census
from octal.misere import MisereSearch, misere_quotient


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--tokens", type=int, default=24)
    args = ap.parse_args()
    misere_quotient("0.75")  # compile the kernels outside the timings
    for digits in (2,) if args.quick else (2, 3):
        codes = enumerate_codes(digits, "0")
        db = os.path.join(tempfile.mkdtemp(), "m.sqlite")
        t0 = time.perf_counter()
        rows = run_misere_census(0, codes=codes, workers=args.workers, db=db)
        dt = time.perf_counter() - t0
        counts = {s: sum(r["status"] == s for r in rows) for s in ("finite", "bounded", "growing")}
        tame = sum(bool(r["tame"]) for r in rows)
        print(f"{digits} digits: {len(rows)} codes in {dt:.1f} s ({len(rows) / dt:.1f} codes/s): "
              f"{counts['finite']} finite ({tame} tame), {counts['bounded']} bounded, {counts['growing']} growing")
    t0 = time.process_time()
    q = misere_quotient("0.77")
    t_q = time.process_time() - t0
    positions = list(positions_up_to(args.tokens))
    t0 = time.process_time()
    answers_q = [q.is_p(h) for h in positions]
    t_q += time.process_time() - t0
    t0 = time.process_time()
    search = MisereSearch("0.77")
    answers_s = [search.is_p(h) for h in positions]
    t_s = time.process_time() - t0
    assert answers_q == answers_s
    print(f"Kayles, {len(positions):,} positions of at most {args.tokens} tokens: quotient {t_q:.2f} s CPU "
          f"(|Q| = {q.order}, computed and used), exhaustive search {t_s:.2f} s CPU (ratio {t_s / t_q:.1f})")


if __name__ == "__main__":
    main()

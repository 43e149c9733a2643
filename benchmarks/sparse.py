"""Speed on the workloads of the literature against the targets, with the naive kernel timed in the same run.

    python benchmarks/sparse.py           # every workload (a few minutes)
    python benchmarks/sparse.py --quick   # smaller sizes

For each workload: CPU seconds and values/s with the automatic kernel choice, the target, then the naive and
sparse kernels timed at the same N_naive (the naive kernel's cost grows like N², so it gets a smaller N).
Then the start-up of whole commands, in wall seconds (what a user waits for): median of --starts runs.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

from timing import median_cpu_seconds

from octal import GrundySequence, nim_sequence, parse_code

WORKLOADS = [
    # (label, code, N or None for until proven, N_naive, target CPU seconds)
    ("Officers 0.6", "0.6", 2**21, 50_000, 4.0),
    ("0.167", "0.167", 2**24, 50_000, 4.0),
    ("Treblecross 0.007", "0.007", 10**6, 50_000, 40.0),
    ("Kayles 0.77", "0.77", 10**7, 50_000, 1.0),
    ("0.354 until proven", "0.354", None, 50_000, None),
]
QUICK = {"0.77": 10**6, "0.6": 2**18, "0.167": 2**20, "0.007": 2 * 10**5, "0.354": 2**20}
COMMANDS = [  # (command line, target wall seconds)
    (["--help"], 0.3),
    (["presets"], 0.3),
    (["run", "kayles"], 0.5),
]


def startup(args: list[str], starts: int) -> float:
    """Median wall seconds of `octal ARGS` as a fresh process (caches warm: one run first)."""
    cmd = [sys.executable, "-m", "octal.front.cli", *args]
    subprocess.run(cmd, capture_output=True, check=True)
    times = []
    for _ in range(starts):
        t0 = time.perf_counter()
        subprocess.run(cmd, capture_output=True, check=True)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--starts", type=int, default=5)
    args = ap.parse_args()
    for kernel in ("naive", "sparse"):  # compile or load the cache outside the timings
        GrundySequence(parse_code("0.6"), kernel=kernel).extend(3000)
    print(f"{'workload':<22}{'N':>12}{'CPU s':>10}{'values/s':>14}{'target':>9}   naive vs sparse at N_naive")
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

        t = median_cpu_seconds(auto, args.repeat)
        got = box["r"].n
        t_naive = median_cpu_seconds(lambda: GrundySequence(parse_code(code), kernel="naive").extend(n_naive), args.repeat)
        t_sparse = median_cpu_seconds(lambda: GrundySequence(parse_code(code), kernel="sparse").extend(n_naive), args.repeat)
        verdict = box["r"].periodicity.describe() if n is None else ""
        goal = f"{target:>8.0f}s" if target else f"{'—':>9}"
        if target:
            verdict = f"{'met' if t <= target else f'missed by {t / target:.1f}x'} {verdict}"
        print(f"{label:<22}{got:>12,}{t:>10.2f}{got / t:>14,.0f}{goal}   "
              f"{t_naive / t_sparse:>6.1f}x at N={n_naive:,} (naive {t_naive:.2f} s, sparse {t_sparse:.2f} s) {verdict}")
    print(f"{'command':<22}{'wall s':>10}{'target':>9}")
    for argv, target in COMMANDS:
        t = startup(argv, args.starts)
        print(f"{'octal ' + ' '.join(argv):<22}{t:>10.2f}{target:>8.1f}s   {'met' if t <= target else 'missed'}")


if __name__ == "__main__":
    main()

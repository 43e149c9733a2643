"""Speed and memory on the workloads of the literature, against the targets and the native solvers' figures.

    python benchmarks/sparse.py               # every workload, median of 3 (about 8 minutes)
    python benchmarks/sparse.py --repeat 1    # one run each (about 3 minutes)
    python benchmarks/sparse.py --quick       # smaller sizes, no targets

Each workload runs in a child process that first loads its kernels (a short run of the same code), then times
`nim_sequence(code, N)` in CPU seconds. Its memory is the peak RSS of the timed run above the process's resident
size after that warm-up: the numba/LLVM runtime (about 160 MB with its kernels loaded) is a floor every run of octal
pays, and the target — the values' own bytes plus 120 MB — is for what the run itself holds. The values' SHA-1 is
printed so that two runs (or two solvers) can be compared. In the same run, the naive and sparse kernels are timed
at N_naive: the baseline the sparse kernel is measured against. Last, why the sparse kernel is written twice: the
word kernel (values below 64, every option set one 64-bit word) against the stamp kernel on the same heaps.

The native figures are quoted, not run: CPU seconds (user + sys) of the whole process on this machine class (2-core
AMD EPYC), built in release mode from the solvers' public sources, one program at a time, outputs identical (the
whole sequence's checksum): tczajka/octal-games 57e893a (C++, `old/`, `analyze`) and beling/impartial-games 07a34e6
(Rust, `ogsolve -m rc`) measured 2026-11-24; rogalski-wmii-uni-lodz-pl/octal (Rust) and, in brackets, the earlier
figures from issue #25's side-by-side run. Nothing of theirs is in this repository; build them elsewhere to check.
Grundy's game's target is half of tczajka's time, as the issue sets it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

from timing import median_cpu_seconds

from octal import GrundySequence, parse_code
from octal.engine import kernels

MB = 2**20
EXTRA_MB = 120  # the memory target: the values' own bytes plus this much
WORKLOADS = [
    # (label, code, N, N_naive, target CPU s, the best native solver's figure as quoted)
    ("Officers 0.6", "0.6", 2**21, 50_000, 5.0, "ogsolve 7.6 [12.3]"),
    ("0.167", "0.167", 2**24, 50_000, 4.0, "ogsolve 4.75 [7.8]"),
    ("Treblecross 0.007", "0.007", 10**6, 50_000, 30.0, "ogsolve 42.6, tczajka 50.4 [62, 87]"),
    ("Kayles 0.77", "0.77", 10**6, 50_000, None, "rogalski [84]"),
    ("Kayles 0.77", "0.77", 10**7, 50_000, 1.0, "—"),
    ("Grundy's game 4!.0", "4!.0", 2**21, 50_000, 8.6 / 2, "tczajka 8.6 [13.6]"),
    ("Grundy's game 4!.0", "4!.0", 2**24, 50_000, 68.1 / 2, "tczajka 68.1 [109]"),
]
QUICK = {"0.6": 2**18, "0.167": 2**20, "0.007": 2 * 10**5, "0.77": 10**6, "4!.0": 2**18}

CHILD = r"""
import hashlib, json, resource, sys, time
import numpy as np
from octal import nim_sequence
code, n = sys.argv[1], int(sys.argv[2])
nim_sequence(code, 1 << 15)  # load (or compile) the kernels this code runs on
with open("/proc/self/statm") as f:
    floor = int(f.read().split()[1]) * resource.getpagesize()
t0 = time.process_time()
r = nim_sequence(code, n)
cpu = time.process_time() - t0
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
values = np.ascontiguousarray(r.values, np.uint32)
print(json.dumps({"cpu": cpu, "peak": peak, "floor": floor, "bytes": r.values.nbytes, "max": r.max,
                  "sha1": hashlib.sha1(values.tobytes()).hexdigest()[:12]}))
"""


def child(code: str, n: int) -> dict:
    """One timed run in a fresh process (see CHILD)."""
    out = subprocess.run([sys.executable, "-c", CHILD, code, str(n)], capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(f"run of {code} to {n:,} failed: {out.stderr.strip().splitlines()[-1]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


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


COMMANDS = [  # (command line, target wall seconds)
    (["--help"], 0.3),
    (["presets"], 0.3),
    (["run", "kayles"], 0.5),
]


def verdict(value: float, target: float | None) -> str:
    if target is None:
        return "—"
    return "met" if value <= target else f"missed ({value / target:.2f}×)"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--starts", type=int, default=5)
    args = ap.parse_args()
    for kernel in ("naive", "sparse"):  # compile or load the cache outside the timings
        GrundySequence(parse_code("0.6"), kernel=kernel).extend(3000)
    print(f"{'workload':<20}{'N':>12}{'CPU s':>8}{'target':>8} {'':<16}{'natives (quoted)':<38}"
          f"{'memory MB':>10}{'target':>8} {'':<8}{'max':>5}  sha1          naive ÷ sparse at N_naive")
    done = set()
    for label, code, n, n_naive, target, native in WORKLOADS:
        if args.quick:  # other sizes: no target, and the natives' figures are for the full ones
            n, target, native = QUICK[code], None, "—"
        if (code, n) in done:
            continue
        done.add((code, n))
        runs = [child(code, n) for _ in range(max(args.repeat, 1))]
        cpu = statistics.median(r["cpu"] for r in runs)
        extra = max(r["peak"] - r["floor"] for r in runs) / MB
        limit = runs[0]["bytes"] / MB + EXTRA_MB
        timed = {}
        for kernel in ("naive", "sparse"):  # once untimed: the kernels' variants for this code are loaded first
            GrundySequence(parse_code(code), kernel=kernel).extend(n_naive)
            timed[kernel] = median_cpu_seconds(lambda: GrundySequence(parse_code(code), kernel=kernel).extend(n_naive),
                                               args.repeat)
        t_naive, t_sparse = timed["naive"], timed["sparse"]
        goal = f"{target:>8.1f}" if target else f"{'—':>8}"
        print(f"{label:<20}{n:>12,}{cpu:>8.2f}{goal} {verdict(cpu, target):<16}{native:<38}"
              f"{extra:>10.0f}{limit:>8.0f} {verdict(extra, limit):<8}{runs[0]['max']:>5}  {runs[0]['sha1']}  "
              f"{t_naive / t_sparse:>5.1f}× (naive {t_naive:.2f} s, sparse {t_sparse:.2f} s)", flush=True)
    print(f"{'two sparse kernels':<26}{'N':>12}{'word s':>8}{'stamp s':>9}  word kernel's lead (values identical)")
    for code, n in (("0.167", 2**20 if args.quick else 2**22), ("0.77", 10**6 if args.quick else 10**7)):
        t = {}
        for name, small in (("word", kernels.SMALL), ("stamp", 0)):  # SMALL = 0: the driver never takes the words
            saved, kernels.SMALL = kernels.SMALL, small
            try:
                values = GrundySequence(parse_code(code)).extend(n)  # untimed: loads the kernel's variant
                t[name] = median_cpu_seconds(lambda: GrundySequence(parse_code(code)).extend(n), args.repeat)
            finally:
                kernels.SMALL = saved
            t[name + " values"] = values
        same = bool((t["word values"] == t["stamp values"]).all())
        print(f"{code:<26}{n:>12,}{t['word']:>8.2f}{t['stamp']:>9.2f}  {t['stamp'] / t['word']:.1f}× "
              f"({'identical' if same else 'DIFFERENT'})")
    print(f"{'command':<22}{'wall s':>10}{'target':>9}")
    for argv, target in COMMANDS:
        t = startup(argv, args.starts)
        print(f"{'octal ' + ' '.join(argv):<22}{t:>10.2f}{target:>8.1f}s   {verdict(t, target)}")


if __name__ == "__main__":
    main()

"""One long run on one thread beside the same run on two (and on every core, where there are more): wall and CPU
seconds, their ratios, and whether the values are the same (a SHA-256 of the whole sequence).

    python benchmarks/threads.py                # the issue's workloads, 3 runs each (about 30 minutes on 2 cores)
    python benchmarks/threads.py --quick        # each workload 8 times shorter, one run each (about 1 minute)
    python benchmarks/threads.py --only 0.6 --repeat 5

Every figure is measured in this one process, side by side (the machine's speed varies from day to day): medians of
--repeat runs, after one untimed run of each workload that compiles its kernels. The targets printed beside each row
are the issue's: wall(2) ≤ 0.6 × wall(1), CPU(2) ≤ 1.15 × CPU(1).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from timing import median_seconds  # noqa: E402

from octal import GrundySequence, nim_stream  # noqa: E402
from octal.engine.stream import read_values  # noqa: E402
from octal.engine.threads import available_threads, using_threads  # noqa: E402

# (label, code, heaps, kernel, stream): the five, and the naive kernel on a game the sparse one cannot take
WORKLOADS = [
    ("Officers 0.6", "0.6", 1 << 21, "auto", False),
    ("0.167", "0.167", 1 << 24, "auto", False),
    ("Treblecross 0.007", "0.007", 10**6, "auto", False),
    ("Grundy's game 4!.0", "4!.0", 1 << 24, "auto", False),
    ("0.167 stream", "0.167", 1 << 26, "auto", True),
    ("0.37 naive kernel", "0.37", 1 << 17, "naive", False),
]
WALL_TARGET, CPU_TARGET = 0.6, 1.15


def compute(code: str, n: int, kernel: str, stream: bool) -> str:
    """The workload once: the SHA-256 of its values (a stream run keeps them in its folder to be read back)."""
    if not stream:
        return hashlib.sha256(np.ascontiguousarray(GrundySequence(code, kernel=kernel).extend(n)).tobytes()).hexdigest()
    with tempfile.TemporaryDirectory() as folder:
        nim_stream(code, folder, n, store_values=True)
        return hashlib.sha256(np.ascontiguousarray(read_values(folder)).tobytes()).hexdigest()


def measure(code: str, n: int, kernel: str, stream: bool, threads: int, repeat: int) -> tuple[float, float, str]:
    """(median wall seconds, median CPU seconds, hash) of `repeat` runs with `threads` kernel threads."""
    walls, cpus, digests = [], [], set()

    def once() -> None:
        t0, c0 = time.perf_counter(), time.process_time()
        digests.add(compute(code, n, kernel, stream))
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)

    with using_threads(threads):
        median_seconds(once, repeat)
    return float(np.median(walls)), float(np.median(cpus)), digests.pop() if len(digests) == 1 else "differs"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="each workload 8 times shorter, one run each")
    ap.add_argument("--repeat", type=int, default=None, help="runs per thread count (default 3; 1 with --quick)")
    ap.add_argument("--only", default=None, help="the workloads whose code is this (0.6, 0.167, …)")
    args = ap.parse_args()
    repeat = args.repeat or (1 if args.quick else 3)
    counts = sorted({1, min(2, available_threads()), available_threads()})
    print(f"{os.uname().machine}, {available_threads()} cores this process may use, threads {counts}, "
          f"medians of {repeat} run(s)")
    print(f"{'workload':<22}{'heaps':>12}{'threads':>8}{'wall s':>9}{'CPU s':>9}{'wall ×':>8}{'CPU ×':>7}  values")
    for label, code, n, kernel, stream in WORKLOADS:
        if args.only and code != args.only:
            continue
        n = n // 8 if args.quick else n
        with using_threads(counts[-1]):  # compiles what the workload needs (a dtype widened late too), untimed
            compute(code, n, kernel, stream)
        base = None
        for threads in counts:
            wall, cpu, digest = measure(code, n, kernel, stream, threads, repeat)
            if base is None:
                base = (wall, cpu, digest)
                ratios, same = "", "sha256 " + digest[:12]
            else:
                w, c = wall / base[0], cpu / base[1]
                ratios = f"{w:>8.2f}{c:>7.2f}"
                same = "identical" if digest == base[2] else "DIFFER"
                if threads == 2:
                    same += f" · targets wall {'met' if w <= WALL_TARGET else 'missed'}, " \
                            f"CPU {'met' if c <= CPU_TARGET else 'missed'}"
            print(f"{label:<22}{n:>12,}{threads:>8}{wall:>9.2f}{cpu:>9.2f}{ratios or '':>15}  {same}", flush=True)


if __name__ == "__main__":
    main()

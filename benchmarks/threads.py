"""One long run on one thread beside the same run allowed two (and every core, where there are more): wall and CPU
seconds, their ratios, whether the values are the same (a SHA-256 of the whole sequence), and the share of heaps the
run's ThreadChoice computed on more than one thread.

    python benchmarks/threads.py                # the idle machine's workloads, 3 runs each (about 30 minutes, 2 cores)
    python benchmarks/threads.py --quick        # each workload 8 times shorter, one run each (about 1 minute)
    python benchmarks/threads.py --only 0.6 --repeat 5
    python benchmarks/threads.py --load 2       # the busy machine's workloads, idle and beside 2 busy processes

Every figure is measured in this one process, side by side (the machine's speed varies from day to day): medians of
--repeat runs, after one untimed run of each workload that compiles its kernels. The targets printed beside each row
are the issue's: idle, wall(2) ≤ 0.6 × wall(1) and CPU(2) ≤ 1.2 × CPU(1); with --load N (N busy processes, each a
Python loop, not pinned), the default (every core) ≤ 1.1 × the wall of one thread, and a census shard on 2 workers
≤ 2 × its idle wall.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from timing import median_seconds  # noqa: E402

from octal import GrundySequence, nim_stream  # noqa: E402
from octal.engine.stream import read_values  # noqa: E402
from octal.engine.threads import available_threads, current_choice, using_threads  # noqa: E402

# (label, code, heaps, kernel, stream): the five, and the naive kernel on a game the sparse one cannot take
WORKLOADS = [
    ("Officers 0.6", "0.6", 1 << 21, "auto", False),
    ("0.167", "0.167", 1 << 24, "auto", False),
    ("Treblecross 0.007", "0.007", 10**6, "auto", False),
    ("Grundy's game 4!.0", "4!.0", 1 << 24, "auto", False),
    ("0.167 stream", "0.167", 1 << 26, "auto", True),
    ("0.37 naive kernel", "0.37", 1 << 17, "naive", False),
]
WALL_TARGET, CPU_TARGET = 0.6, 1.2
# the busy machine's: the runs, then two census commands timed as a user runs them (the command line)
LOAD_WORKLOADS = [
    ("0.167", "0.167", 1 << 22, "auto", False),
    ("Officers 0.6", "0.6", 1 << 20, "auto", False),
    ("0.37 naive kernel", "0.37", 1 << 16, "naive", False),
]
LOAD_TARGET, SHARD_TARGET = 1.1, 2.0
REPORT = ["census", "report"]  # of a 511-code census (every 3-digit code 0.ddd), made untimed first
SHARD = ["census", "--digits", "4", "--prefix", "both", "--shard", "3/16", "--max-n", "4096", "--workers", "2",
         "--quiet"]


def compute(code: str, n: int, kernel: str, stream: bool) -> str:
    """The workload once: the SHA-256 of its values (a stream run keeps them in its folder to be read back)."""
    if not stream:
        return hashlib.sha256(np.ascontiguousarray(GrundySequence(code, kernel=kernel).extend(n)).tobytes()).hexdigest()
    with tempfile.TemporaryDirectory() as folder:
        nim_stream(code, folder, n, store_values=True)
        return hashlib.sha256(np.ascontiguousarray(read_values(folder)).tobytes()).hexdigest()


def measure(code: str, n: int, kernel: str, stream: bool, threads: int | None,
            repeat: int) -> tuple[float, float, str, float]:
    """(median wall seconds, median CPU seconds, hash, share of heaps on more than one thread) of `repeat` runs with
    at most `threads` kernel threads (None: every core, the default)."""
    walls, cpus, digests, shares = [], [], set(), []

    def once() -> None:
        t0, c0 = time.perf_counter(), time.process_time()
        with using_threads(threads):
            digests.add(compute(code, n, kernel, stream))
            ran = current_choice().heaps
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
        # a stream run holds its own ThreadChoice (nim_stream's using_threads): its share is not seen from here
        shares.append(float("nan") if stream else sum(h for t, h in ran.items() if t > 1) / max(1, sum(ran.values())))

    median_seconds(once, repeat)
    return (float(np.median(walls)), float(np.median(cpus)), digests.pop() if len(digests) == 1 else "differs",
            float(np.median(shares)))


@contextlib.contextmanager
def busy(count: int):
    """`count` busy processes (a Python loop each, not pinned) for the time of the block."""
    procs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        time.sleep(0.5 if count else 0)
        yield
    finally:
        for p in procs:
            p.kill()
            p.wait()


def octal_seconds(argv: list[str], cwd: str, repeat: int, threads: int | None = None) -> float:
    """Median wall seconds of `octal ARGV` as a user runs it (a process of its own), in folder `cwd`; `threads`:
    numba's pool held to that many (NUMBA_NUM_THREADS), for a command without --threads."""
    cmd = [sys.executable, "-m", "octal.front.cli", *argv]
    env = {**os.environ, **({"NUMBA_NUM_THREADS": str(threads)} if threads else {})}
    return median_seconds(lambda: subprocess.run(cmd, cwd=cwd, env=env, check=True, capture_output=True), repeat)


def load_table(load: int, quick: bool, repeat: int, only: str | None) -> None:
    """Each busy-machine workload on one thread and on every core (the default), idle and beside `load` busy
    processes, then the census report and shard: the default's wall against one thread's, and the shard's against
    its idle wall."""
    print(f"\nbusy machine: {load} busy processes beside each run; default = every core ({available_threads()})")
    print(f"{'workload':<22}{'heaps':>12}{'load':>6}{'1 thread':>10}{'default':>9}{'ratio':>7}{'parallel':>10}  target")
    for label, code, n, kernel, stream in LOAD_WORKLOADS:
        if only and code != only:
            continue
        n = n // 8 if quick else n
        compute(code, n, kernel, stream)  # compiles, untimed
        for procs in (0, load):
            with busy(procs):
                one = measure(code, n, kernel, stream, 1, repeat)
                every = measure(code, n, kernel, stream, None, repeat)
            ratio = every[0] / one[0]
            same = "" if every[2] == one[2] else "  VALUES DIFFER"
            verdict = f"≤ {LOAD_TARGET} {'met' if ratio <= LOAD_TARGET else 'missed'}" if procs else ""
            print(f"{label:<22}{n:>12,}{procs:>6}{one[0]:>9.2f}s{every[0]:>8.2f}s{ratio:>7.2f}{every[3]:>9.0%}  "
                  f"{verdict}{same}", flush=True)
    if only:
        return
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run([sys.executable, "-m", "octal.front.cli", "census", "--digits", "3", "--quiet"], cwd=folder,
                       check=True, capture_output=True)
        for procs in (0, load):
            with busy(procs):
                one = octal_seconds(REPORT, folder, repeat, threads=1)
                every = octal_seconds(REPORT, folder, repeat)
            verdict = f"≤ {LOAD_TARGET} {'met' if every <= LOAD_TARGET * one else 'missed'}" if procs else ""
            print(f"{'census report (511)':<22}{'':>12}{procs:>6}{one:>9.2f}s{every:>8.2f}s{every / one:>7.2f}"
                  f"{'':>10}  {verdict}", flush=True)
        idle = None
        for procs in (0, load):
            with busy(procs):
                wall = median_seconds(lambda: shard_once(folder), repeat)
            idle = idle or wall
            verdict = f"≤ {SHARD_TARGET} × idle {'met' if wall <= SHARD_TARGET * idle else 'missed'}" if procs else ""
            print(f"{'census shard 3/16':<22}{'':>12}{procs:>6}{'':>10}{wall:>8.2f}s{wall / idle:>7.2f}{'':>10}  "
                  f"{verdict}", flush=True)


def shard_once(folder: str) -> None:
    """The issue's 4-digit census shard from an empty file (2 workers, 4,096 heaps a code)."""
    db = Path(folder) / "shard.sqlite"
    db.unlink(missing_ok=True)
    subprocess.run([sys.executable, "-m", "octal.front.cli", *SHARD, "--db", str(db)], check=True,
                   capture_output=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="each workload 8 times shorter, one run each")
    ap.add_argument("--repeat", type=int, default=None, help="runs per thread count (default 3; 1 with --quick)")
    ap.add_argument("--only", default=None, help="the workloads whose code is this (0.6, 0.167, …; no census then)")
    ap.add_argument("--load", type=int, default=None, metavar="N",
                    help="the busy machine's table instead: each workload idle and beside N busy processes")
    args = ap.parse_args()
    repeat = args.repeat or (1 if args.quick else 3)
    if args.load is not None:
        load_table(args.load, args.quick, repeat, args.only)
        return
    counts = sorted({1, min(2, available_threads()), available_threads()})
    print(f"{os.uname().machine}, {available_threads()} cores this process may use, threads {counts}, "
          f"medians of {repeat} run(s)")
    print(f"{'workload':<22}{'heaps':>12}{'threads':>8}{'wall s':>9}{'CPU s':>9}{'wall ×':>8}{'CPU ×':>7}"
          f"{'parallel':>9}  values")
    for label, code, n, kernel, stream in WORKLOADS:
        if args.only and code != args.only:
            continue
        n = n // 8 if args.quick else n
        with using_threads(counts[-1]):  # compiles what the workload needs (a dtype widened late too), untimed
            compute(code, n, kernel, stream)
        base = None
        for threads in counts:
            wall, cpu, digest, share = measure(code, n, kernel, stream, threads, repeat)
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
            shown = "–" if share != share else f"{share:.0%}"
            print(f"{label:<22}{n:>12,}{threads:>8}{wall:>9.2f}{cpu:>9.2f}{ratios or '':>15}{shown:>9}  {same}",
                  flush=True)


if __name__ == "__main__":
    main()

"""Stream mode in bounded memory: peak RSS stays flat while N doubles; 0.354 proven in stream mode.

    python benchmarks/stream.py                  # 0.354 (stream and whole-array), then 0.167 to 2^28 (about 2 minutes)
    python benchmarks/stream.py --seconds 600 --store-values   # on past 2^29 (0.167 gets a new rare value there)
    python benchmarks/stream.py --skip-354
    python benchmarks/stream.py --record      # the record run alone: 0.167 to 2^29 + 1, values stored (3 minutes)

Every run is a child process that reports its own CPU seconds and peak RSS (ru_maxrss), so each figure is
one process's. The walk of 0.167 resumes one stream folder at N = 2^22, 2^23, …: the rate of the last
step gives the projected time to 2^32. The record run (`--record`) is one process from 0 to 2^29 + 1 with its values
stored, as `octal run 0.167 --n 536870913 --stream DIR --store-values` runs it, against its targets: CPU ≤ 300 s,
peak RSS ≤ 1 GB, checkpoints (timed around each save) under 5 % of its CPU; it prints the frequency record at 2^29.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time

CHILD = r"""
import json, resource, sys, time
from octal import nim_sequence, nim_stream
mode, code, n, folder, window = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
store = sys.argv[6] == "store"
t0 = time.process_time()
if mode == "stream":
    r = nim_stream(code, folder, n or None, until_proven=not n, max_n=2**35, window=window, store_values=store)
    held = r.memory_bytes
    extra = {"rare": r.rare, "last_rare": r.last_rare, "window": r.window, "max": r.max}
else:
    r = nim_sequence(code, n or None, until_proven=not n, max_n=2**26)
    held = r.values.nbytes * 2
    extra = {}
cpu = time.process_time() - t0
print(json.dumps({"n": r.n, "cpu": cpu, "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
                  "held": held, "verdict": r.periodicity.describe(), **extra}))
"""


RECORD = r"""
import json, resource, sys, time
from pathlib import Path
from octal.engine import stream
spent = [0.0, 0]
save = stream.StreamRun.save
def timed_save(run):
    t0 = time.process_time()
    save(run)
    spent[0] += time.process_time() - t0
    spent[1] += 1
stream.StreamRun.save = timed_save
folder, n = sys.argv[1], int(sys.argv[2])
t0 = time.process_time()
r = stream.nim_stream("0.167", folder, n, store_values=True)
cpu = time.process_time() - t0
last = r.records[-1]
print(json.dumps({"n": r.n, "cpu": cpu, "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
                  "saves": spent[1], "save_cpu": spent[0], "file": (Path(folder) / "stream.npz").stat().st_size,
                  "held": r.memory_bytes, "window": r.window, "last_rare": r.last_rare, "record": last}))
"""


def record(folder: str) -> None:
    """The record run of 0.167 to 2^29 + 1 in one process (see the module docstring)."""
    out = subprocess.run([sys.executable, "-c", RECORD, folder, str(2**29 + 1)], capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(f"record run failed: {out.stderr.strip().splitlines()[-1]}")
    r = json.loads(out.stdout.strip().splitlines()[-1])
    share = r["save_cpu"] / r["cpu"]
    print(f"0.167 to N = {r['n']:,}, values stored, in one process")
    print(f"  CPU {r['cpu']:.1f} s (target ≤ 300 s: {'met' if r['cpu'] <= 300 else 'missed'})")
    print(f"  peak RSS {mb(r['rss'])} (target ≤ 1 GB: {'met' if r['rss'] <= 2**30 else 'missed'}); head and window "
          f"held {mb(r['held'])}, window {r['window']:,} heaps (last rare position {r['last_rare']:,})")
    print(f"  checkpoints {r['saves']} in {r['save_cpu']:.2f} CPU s = {100 * share:.1f} % (target < 5 %: "
          f"{'met' if share < 0.05 else 'missed'}); stream.npz {r['file'] / 1024:,.0f} KB")
    rec = r["record"]
    high = {v: c for v, c in enumerate(rec["counts"]) if v >= 60}
    print(f"  record at 2^{rec['n'].bit_length() - 1}: max {rec['max']}, counts of the values ≥ 60: {high}")


def child(mode: str, code: str, n: int, folder: str, window: int, store: bool = False) -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD, mode, code, str(n), folder, str(window),
                          "store" if store else "-"],
                         capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(f"{mode} run of {code} to {n:,} failed: {out.stderr.strip().splitlines()[-1]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def mb(b: float) -> str:
    return f"{b / 2**20:,.1f} MB"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=100, help="CPU budget for the walk of 0.167 toward 2^32")
    ap.add_argument("--window", type=int, default=1 << 20)
    ap.add_argument("--skip-354", action="store_true")
    ap.add_argument("--store-values", action="store_true", help="store the walk's values (1-2 bytes a heap on disk)")
    ap.add_argument("--folder", help="where the walk keeps its state (default: a temporary folder)")
    ap.add_argument("--record", action="store_true", help="only the record run of 0.167 to 2^29 + 1")
    args = ap.parse_args()
    if args.record:
        with tempfile.TemporaryDirectory() as tmp:
            child("stream", "0.77", 5000, f"{tmp}/warm", 4096)  # compile or load every kernel outside the timings
            record(args.folder or f"{tmp}/record")
        return
    with tempfile.TemporaryDirectory() as tmp:
        child("stream", "0.77", 5000, f"{tmp}/warm", 4096)  # compile or load every kernel outside the timings
        if not args.skip_354:
            print("0.354 until proven (preperiod 10,061,916, period 1,180; Guy–Smith needs 20,126,195 heaps)")
            for mode in ("whole", "stream"):
                r = child(mode, "0.354", 0, f"{tmp}/354", 1 << 16)
                print(f"  {mode:<7} N = {r['n']:>12,}  {r['cpu']:7.1f} CPU s  peak RSS {mb(r['rss']):>10}  "
                      f"values held {mb(r['held']):>9}  {r['verdict']}")
        walk = args.folder or f"{tmp}/167"
        print(f"0.167 toward 2^32 in stream mode (window {args.window:,}"
              f"{', values stored' if args.store_values else ''}), one process per step, same folder")
        print(f"  {'N':>14} {'step CPU s':>11} {'heaps/s':>12} {'peak RSS':>10} {'values held':>12}"
              f" {'window':>12} {'rare':>6} {'last rare':>12} {'max':>5}")
        spent, k = 0.0, 22
        rate = None
        last = 32 if args.store_values else 28  # past 2^28 0.167 needs values only a stored run keeps (see below)
        while spent < args.seconds and k <= last:
            t0 = time.time()
            r = child("stream", "0.167", 2**k, walk, args.window, args.store_values)
            step = r["cpu"]
            spent += step
            done_before = 2 ** (k - 1) if k > 22 else 0
            rate = (r["n"] - done_before) / max(step, 1e-9)
            print(f"  {r['n']:>14,} {step:>11.1f} {rate:>12,.0f} {mb(r['rss']):>10} {mb(r['held']):>12}"
                  f" {r['window']:>12,} {r['rare']:>6,} {r['last_rare'] or 0:>12,} {r['max']:>5}"
                  f"   ({time.time() - t0:.0f} s wall)", flush=True)
            k += 1
        if rate and k <= last:
            left = (2**32 - 2 ** (k - 1)) / rate
            print(f"  projected: 2^32 heaps after about {(spent + left) / 3600:.1f} CPU hours at the last rate")
        elif k > last and not args.store_values:
            print("  stops at 2^28 without --store-values: heap 332,129,728 gets a new rare value, whose scan needs "
                  "every pair (a, 332,129,727 − a), held only on disk (--store-values, or --record)")
    print(f"(children's peak RSS of this script: {mb(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024)})")


if __name__ == "__main__":
    main()

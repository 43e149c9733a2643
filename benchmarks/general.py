"""The general kernel (any take-and-break code, by tables of partition nim-sums): `C.E!` at 1,024 … 8,192 heaps.

    python benchmarks/general.py             # 1,024, 2,048, 4,096 and 8,192 heaps (about a minute)
    python benchmarks/general.py --top 4096  # stop earlier

`C.E!` (split a heap in two or three without removing, or remove one and leave up to three unequal heaps) has values
growing about like n, so the tables' bitsets widen with N. "now" is `nim_sequence` as a user runs it (the driver
keeps the tables from stretch to stretch and copies them into wider bitsets); the baseline, measured in the same run,
is the kernel the way it worked before: every heap count and multiplicity built (a tie table with an unused row that
asks for counts ≥ J, never reached) and the tables built afresh on every call. CPU seconds; values compared by hash.
Targets (the speed issue): 4,096 heaps ≤ 8 s, 8,192 heaps ≤ 40 s.
"""

from __future__ import annotations

import argparse
import hashlib
import time

import numpy as np

from octal import nim_sequence, parse_code
from octal.engine import kernels
from octal.engine.moves import tie_table

TARGETS = {4096: 8.0, 8192: 40.0}


def digest(values: np.ndarray) -> str:
    return hashlib.sha256(values.astype(np.int64).tobytes()).hexdigest()[:16]


def now(code, n: int) -> tuple[float, str, int]:
    """(CPU seconds, hash, largest value) of `nim_sequence` on a fresh sequence."""
    t0 = time.process_time()
    r = nim_sequence(code, n)
    return time.process_time() - t0, digest(r.values), r.max


def run(code, n: int, unbounded: bool) -> tuple[float, str, int]:
    """(CPU seconds, hash of the values, largest value) of G(0..n−1) by one-shot kernel calls, from heap 0 again
    whenever the bitsets must widen."""
    ties = tie_table(code, n)
    if unbounded:  # a row past every heap (never read) that asks for counts ≥ J: every table is built
        extra = np.zeros((n + 1 - len(ties), ties.shape[1]), ties.dtype)
        extra[-1, -1] = 4
        ties = np.vstack([ties, extra])
    words = 1
    while True:
        G = np.zeros(n, np.uint32)
        t0 = time.process_time()
        reached, top = kernels.fill_general(G, 0, n, 0, ties, words, np.iinfo(np.uint32).max)
        seconds = time.process_time() - t0
        if reached == n:
            return seconds, digest(G), int(top)
        words *= 2  # a value passed 64·words bits: widen (the driver does the same)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--top", type=int, default=8192)
    a = ap.parse_args()
    code = parse_code("C.E!")
    run(code, 64, False)  # compile first
    nim_sequence(code, 300)
    print("C.E!, general kernel, CPU s (one process, one run each)")
    print(f"{'heaps':>6} {'now':>8} {'baseline':>9} {'ratio':>6}  largest  same values  target")
    n = 1024
    while n <= a.top:
        seconds, h, top = now(code, n)
        if n <= 4096:
            base, hb, _ = run(code, n, True)
            base_text, ratio, same = f"{base:8.2f}", f"{base / seconds:5.1f}×", "yes" if h == hb else "NO"
        else:
            base_text, ratio, same = "       —", "     ", "—"
        target = f"≤ {TARGETS[n]:g} s: {'met' if seconds <= TARGETS[n] else 'missed'}" if n in TARGETS else ""
        print(f"{n:>6} {seconds:8.2f} {base_text:>9} {ratio:>6}  {top:>7}  {same:>11}  {target}")
        n *= 2


if __name__ == "__main__":
    main()

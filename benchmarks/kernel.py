"""Naive-kernel speed: values/s on Kayles and Treblecross at several N, against plain NumPy in the same run.

    python benchmarks/kernel.py            # full run (about a minute)
    python benchmarks/kernel.py --quick    # small sizes only

The NumPy baseline computes the same mex with vectorised XORs per heap; it is timed on the largest N it
affords and its values/s are compared with the kernel's at that N (medians of --repeat runs).
"""

from __future__ import annotations

import argparse
import subprocess
import sys

import numpy as np
from timing import median_seconds

import octal.engine.kernels.naive  # noqa: F401  loaded, so every run below uses the compiled kernels
from octal import nim_sequence, parse_code
from octal.engine.moves import kernel_moves


def numpy_baseline(code_text: str, n: int) -> np.ndarray:
    """G(0..n−1) with NumPy doing each heap's split XORs: the reference a NumPy user would write."""
    code = parse_code(code_text)
    moves = kernel_moves(code, n)
    G = np.zeros(n, np.int64)
    for h in range(n):
        opts = [np.zeros(0, np.int64)]
        for k in moves.whole:
            if k == h:
                opts.append(np.zeros(1, np.int64))
        for k in moves.one:
            if k < h:
                opts.append(G[h - k : h - k + 1])
        for k in moves.two:
            m = h - k
            if m >= 2:
                a = np.arange(1, m // 2 + 1)
                opts.append(G[a] ^ G[m - a])
        seen = np.zeros(h + 2, bool)
        allv = np.concatenate(opts)
        seen[allv[allv <= h + 1]] = True
        G[h] = int(np.argmin(seen))
    return G




def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    # as in a census or a notebook, the compiled kernels are loaded before the timings (a fresh short command uses the
    # numpy kernels instead: the warm CLI run at the end)
    nim_sequence("0.77", 500)
    nim_sequence("0.007", 2000)
    workloads = {
        "0.77": [10_000, 50_000] if args.quick else [10_000, 50_000, 100_000, 200_000],
        "0.007": [10_000, 30_000] if args.quick else [10_000, 30_000, 100_000],
    }
    base_n = 3_000 if args.quick else 10_000
    print(f"{'code':<7}{'N':>10}{'seconds':>10}{'values/s':>14}   vs NumPy at N={base_n:,}")
    for code, sizes in workloads.items():
        t_np = median_seconds(lambda: numpy_baseline(code, base_n), 1)
        assert np.array_equal(numpy_baseline(code, 500), nim_sequence(code, 500).values)
        t_base = median_seconds(lambda: nim_sequence(code, base_n), args.repeat)
        print(f"{code:<7}{base_n:>10,}{t_np:>10.3f}{base_n / t_np:>14,.0f}   NumPy baseline")
        print(f"{code:<7}{base_n:>10,}{t_base:>10.3f}{base_n / t_base:>14,.0f}   {t_np / t_base:,.0f}x faster")
        for n in sizes:
            t = median_seconds(lambda: nim_sequence(code, n), 1 if n > 50_000 else args.repeat)
            print(f"{code:<7}{n:>10,}{t:>10.3f}{n / t:>14,.0f}")
    # a warm CLI run, the way a user types it
    cmd = [sys.executable, "-m", "octal.front.cli", "run", "0.77", "--n", "10000"]
    subprocess.run(cmd, capture_output=True, check=True)
    wall = median_seconds(lambda: subprocess.run(cmd, capture_output=True, check=True), args.repeat)
    print(f"warm `octal run 0.77 --n 10000`: {wall:.2f} s wall (median of {args.repeat})")


if __name__ == "__main__":
    main()

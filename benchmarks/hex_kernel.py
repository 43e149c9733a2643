"""The three-heap (hexadecimal) kernel against the one it replaced, on the same heaps in the same run.

    python benchmarks/hex_kernel.py                    # 0.F8, 0.9 and 0.018 to 2**13 (about two minutes)
    python benchmarks/hex_kernel.py --n 4096 --codes 0.F8

The baseline is the earlier kernel, kept here: the three-heap options of m as the union over every part a of
G(a) ⊕ S2[m − a], parts of one value OR-ed first (O(m·W) words a heap). Today's kernel (octal.engine.kernels.naive
.fill_hex) looks for each value below the mex until one split gives it. Both are called directly on the same
bitset width; the values must be identical. Prints CPU seconds (medians of --repeat) and the ratio.
"""

from __future__ import annotations

import argparse

import numpy as np
from numba import njit
from timing import median_cpu_seconds

from octal import nim_sequence, parse_code
from octal.engine.kernels.bits import mex_words, xor_permute
from octal.engine.kernels.naive import _split_set, fill_hex, one_and_two_heap_options
from octal.engine.moves import kernel_moves


@njit(cache=True)
def fill_hex_unions(G, S2, start, stop, whole, one, two, three):
    """The baseline: every heap's options as one bitset, the three-heap ones as ∪_a G(a) ⊕ S2[m − a]."""
    W = S2.shape[1]
    P = 64 * W
    opts = np.zeros(W, np.uint64)
    U = np.zeros((P, W), np.uint64)
    used = np.zeros(P, np.bool_)
    simple = np.zeros(len(whole) + len(one), np.int64)
    for n in range(start, stop):
        _split_set(G, S2, n)
        one_and_two_heap_options(G, S2, n, whole, one, two, simple, opts)
        for k in three:
            m = n - k
            if m < 3:
                break
            for a in range(1, m - 1):
                g = np.int64(G[a])
                used[g] = True
                for w in range(W):
                    U[g, w] |= S2[m - a, w]
            for g in range(P):
                if used[g]:
                    hi = g >> 6
                    lo = g & 63
                    for w in range(W):
                        opts[w ^ hi] |= xor_permute(U[g, w], lo)
                        U[g, w] = 0
                    used[g] = False
        G[n] = mex_words(opts, W)
    return stop


def run(kernel: str, code_text: str, n: int, width: int) -> np.ndarray:
    """G(0..n−1) by one kernel, called once over every heap with bitsets of `width` words."""
    moves = kernel_moves(parse_code(code_text), n)
    G = np.zeros(n, np.int64)
    S2 = np.zeros((n, width), np.uint64)
    if kernel == "unions":
        fill_hex_unions(G, S2, 0, n, moves.whole, moves.one, moves.two, moves.three)
    else:
        fill_hex(G, S2, 0, n, 0, moves.whole, moves.one, moves.two, moves.three, np.iinfo(np.int64).max)
    return G


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=2**13)
    ap.add_argument("--codes", nargs="+", default=["0.F8", "0.9", "0.018"])
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    run("unions", "0.F8", 64, 1)  # compile both outside the timings
    run("lo-groups", "0.F8", 64, 1)
    print(f"{'code':8} {'N':>7} {'max':>6} {'unions s':>9} {'lo-grp s':>9} {'ratio':>6}  values")
    for code in args.codes:
        top = int(nim_sequence(code, args.n).values.max())
        width = max(1, (1 << top.bit_length()) // 64)  # every nim-sum of two values fits, as the driver sizes it
        got = {}
        secs = {}
        for kernel in ("unions", "lo-groups"):
            secs[kernel] = median_cpu_seconds(lambda k=kernel: got.__setitem__(k, run(k, code, args.n, width)),
                                              args.repeat)
        same = "identical" if np.array_equal(got["unions"], got["lo-groups"]) else "DIFFER"
        print(f"{code:8} {args.n:>7} {top:>6} {secs['unions']:>9.2f} {secs['lo-groups']:>9.2f} "
              f"{secs['unions'] / secs['lo-groups']:>5.1f}×  {same}")


if __name__ == "__main__":
    main()

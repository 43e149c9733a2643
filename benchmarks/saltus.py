"""The power-of-two saltus test (octal.engine.arithmetic) with its shape table built in numpy against the table of
Python dicts it replaced, on the same candidates in the same run.

    python benchmarks/saltus.py                  # the hex table's arithmetic rows, then 100 random codes' candidates
    python benchmarks/saltus.py --codes 40 --repeat 3

The candidates: every arithmetic row of data/census-hex.csv (short spans, n0 + p mostly below 40), and every
(p, n0, s) that prefixes of random 4- and 5-digit hexadecimal codes follow (spans up to 256, where the table of
three-part splits grows as the cube of the span). The baseline combines splits pair by pair in Python dicts, one
part at a time, the low parts' nim-sums remembered per pair of masks. Both must give the same bounds. Prints CPU
seconds (medians of --repeat) and the ratio.
"""

from __future__ import annotations

import argparse
import csv
import random
from collections import defaultdict
from functools import lru_cache
from pathlib import Path

import numpy as np
from timing import median_cpu_seconds

from octal import nim_sequence, parse_code
from octal.engine import arithmetic

ROOT = Path(__file__).resolve().parent.parent
HEX = "0123456789ABCDEF"


def shapes_by_dicts(G, moves, p, a, s, high, low):
    """The baseline: splits with one more part combined pair by pair, in dicts of bit masks."""
    one: dict[tuple, int] = defaultdict(int)
    for b in range(1, a + p):
        one[(b, ()) if b < a else (b, (high[b - a],))] |= 1 << int(G[b] if b < a else low[b - a])
    tables = {1: dict(one)}
    tables[2] = _combine(tables[1], one)
    tables[3] = _combine(tables[2], one)
    shapes = [defaultdict(int) for _ in range(p)]
    for k, j in moves:
        for (B, hs), lows in tables[j].items():
            if hs:
                R = (B + k - a) % p
                shapes[R][((B + k - a - R) // p, hs)] |= lows
    return shapes


def _combine(left: dict, one: dict) -> dict:
    out: dict[tuple, int] = defaultdict(int)
    for (b1, h1), m1 in left.items():
        for (b2, h2), m2 in one.items():
            out[(b1 + b2, tuple(sorted(h1 + h2)))] |= _xor_masks(m1, m2)
    return out


@lru_cache(maxsize=1 << 14)
def _xor_masks(m1: int, m2: int) -> int:
    out = 0
    for y in (y for y in range(m2.bit_length()) if m2 >> y & 1):
        for x in (x for x in range(m1.bit_length()) if m1 >> x & 1):
            out |= 1 << (x ^ y)
    return out


def table_rows() -> list[tuple]:
    with (ROOT / "data" / "census-hex.csv").open(encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f) if r["status"] == "proven" and int(r["saltus"]) > 0]
    out = []
    for r in rows:
        p, n0, s, bound = (int(r[k]) for k in ("period", "preperiod", "saltus", "proof_bound"))
        G = nim_sequence(r["code"], max(bound, max(n0, 1) + 16 * p)).values.astype(np.int64)
        out.append((parse_code(r["code"]), G, p, n0, s))
    return out


def random_candidates(count: int) -> list[tuple]:
    """Every (p ≤ 32, n0, s > 0) that G(0..L−1) follows for two periods from its least n0, L = 24 … 400, of random
    4- and 5-digit hexadecimal codes with a last digit other than 0 (as tests/test_saltus_two_ways.py draws them)."""
    rng, out = random.Random(51), []
    while count:
        code = "0." + "".join(rng.choice(HEX) for _ in range(rng.choice((4, 5))))
        if code[-1] == "0" or max(code[2:]) < "8":
            continue
        count -= 1
        G = nim_sequence(code, 400).values.astype(np.int64)
        found = set()
        for L in (24, 48, 96, 192, 400):
            for p in range(1, min(L // 3, 33)):
                diff = G[p:L] - G[:L - p]
                s, n0 = int(diff[-1]), L - p
                while s > 0 and n0 > 0 and diff[n0 - 1] == s:
                    n0 -= 1
                if s > 0 and L - p - n0 >= 2 * p:
                    found.add((p, n0, s))
        out += [(parse_code(code), G, *c) for c in sorted(found)]
    return out


def bounds(cases: list[tuple], shapes) -> list:
    arithmetic._shapes = shapes
    return [arithmetic.saltus_bound(*case) for case in cases]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--codes", type=int, default=100, help="random codes whose candidates are tested")
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    today = arithmetic._shapes
    print(f"{'candidates':34} {'count':>6} {'dicts s':>8} {'numpy s':>8} {'ratio':>6}  accepted")
    for name, cases in (("the hex table's arithmetic rows", table_rows()),
                        (f"{args.codes} random codes' candidates", random_candidates(args.codes))):
        want, got = bounds(cases, shapes_by_dicts), bounds(cases, today)
        assert want == got, name
        before = median_cpu_seconds(lambda: bounds(cases, shapes_by_dicts), args.repeat)
        after = median_cpu_seconds(lambda: bounds(cases, today), args.repeat)
        accepted = sum(b is not None for b in got)
        print(f"{name:34} {len(cases):6d} {before:8.2f} {after:8.2f} {after / before:6.2f}  {accepted}")


if __name__ == "__main__":
    main()

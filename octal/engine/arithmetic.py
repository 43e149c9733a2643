"""The power-of-two saltus theorem: a finite test that proves G(n + p) = G(n) + s for every n ≥ n0 (s = 2^m).

Its statement and whole proof are in docs/periodicity.md ("Arithmetic periods"); the names here are the proof's.
Each heap N = n0 + R + Q·p of the tail has value s·(Q + H_R) + L_R (high part and low part of G(n0 + R)); each
option of N is a *shape* (k tokens taken, the small parts below n0, the residues of the parts in the tail) with the
parts' multiples Q_i free subject to ΣQ_i = Q − D. The option values of one shape lie on levels of the high part
that depend on Q only through the offset d = Q + H_R − level, so finitely many offsets decide every N. The test
asks that every level below N's be full (all s low parts reached for sure) and that N's own level reach exactly
the low parts below L_R for sure and L_R by no shape at all.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

import numpy as np

from ..rules.code import OctalCode

MAX_SPAN = 256  # n0 + k·p above this: the test is not tried (its shape table grows as the cube of this span)
MAX_LIFT = 16  # the largest k tried: (k·p, k·s) is an arithmetic period whenever (p, s) is one
MAX_SALTUS = 512  # k·s above this: not tried (each low-part set is a 2^(k·s)-bit mask)


def saltus_bound(code: OctalCode, values: np.ndarray, period: int, preperiod: int, saltus: int) -> int | None:
    """Heaps 0..bound−1 that, once they follow G(n + p) = G(n) + s from n0, prove it for every n ≥ n0 by the
    power-of-two saltus theorem (tried with (k·p, k·s) for k = 1, 2, 4, … as the proof allows); None when the
    theorem does not apply to the code or the values fail its test. `values` must hold G(0..n0 + k·p − 1)."""
    if not theorem_applies(code) or saltus <= 0 or saltus & (saltus - 1):
        return None
    moves = _moves(code)
    G = np.asarray(values, dtype=np.int64)
    k = 1
    while k <= MAX_LIFT and k * saltus <= MAX_SALTUS and max(preperiod, 1) + k * period <= min(len(G), MAX_SPAN):
        bound = lifting_bound(G, moves, k * period, preperiod, k * saltus, int(code.max_take))
        if bound is not None:
            return bound
        k *= 2
    return None


def theorem_applies(code: OctalCode) -> bool:
    """The theorem's rules: a finite code without constraints whose moves leave at most three heaps."""
    return code.proof_criteria is not None and code.max_heaps <= 3


def _moves(code: OctalCode) -> list[tuple[int, int]]:
    """(k, j): a move may take k tokens and leave j ≥ 1 heaps (a move taking a whole heap ends before the tail). d₀'s
    one-heap bit is no move (it would leave the heap as it was): the kernels ignore it, and so does the test."""
    return [(k, j) for k, d in enumerate(code.digits) for j in (1, 2, 3) if d.mask >> j & 1 and (k or j > 1)]


def lifting_bound(G: np.ndarray, moves: list[tuple[int, int]], p: int, n0: int, s: int, t: int) -> int | None:
    """The test itself for one (p, n0, s), s a power of two (docs/periodicity.md, conditions (A)–(D)), for a code
    whose last non-zero digit is d_t; the bound, or None when a condition fails."""
    m = s.bit_length() - 1
    a = max(n0, 1)  # the proof needs every part in the tail to be a heap: n0 ≥ 1 (G(p) = G(0) + s is checked directly)
    if any(int(G[x]) >= s for x in range(1, a)):
        return None  # (A): the small parts' values lie below s, so they touch the low part only
    high = [int(G[a + r]) >> m for r in range(p)]
    low = [int(G[a + r]) & (s - 1) for r in range(p)]
    shapes = _shapes(G, moves, p, a, s, high, low)
    full = (1 << s) - 1
    hmax = max(max(high), 1)
    d_star = max([0] + [_last_offset(D, hs, high[R]) for R in range(p) for D, hs in shapes[R]])
    for R in range(p):
        sh = shapes[R]
        below = (1 << low[R]) - 1
        if _reached(sh, high[R], 0) & below != below:  # (B): N's own level reaches every low part below L_R for sure
            return None
        if any(lows >> low[R] & 1 and _may_reach_top(D, hs, high[R]) for (D, hs), lows in sh.items()):
            return None  # (B): and L_R by no shape at all
        if any(_reached(sh, high[R], d) != full for d in range(1, d_star + 3)):
            return None  # (C): every level below, at offsets up to d* + 2 (beyond, only d's parity matters)
        for h in range(hmax):  # (D): the lowest levels, which parts with a high part above h cannot reach
            if any(_reached(sh, high[R], d, h) != full for d in (d_star + 1, d_star + 2)):
                return None
    q_base = d_star + hmax + 3
    return max(a + q_base * p, t + 3 * a - 2)


def _shapes(G, moves, p, a, s, high, low):
    """R → {(D, H multiset of the tail parts): mask of the low parts ℓ its options reach}, over every split of
    N − k into parts of sizes 1..a+p−1 (a part ≥ a stands for its whole residue class). Computed as one table over
    numpy arrays: each option is the key (N − k − a + B, its parts' high codes, nim-sum of their values), sorted
    once; N − k − a + B fixes (R, D) and the groups of equal keys but the nim-sum give the masks."""
    sizes = np.arange(1, a + p)
    tail = sizes >= a
    rest = np.clip(sizes - a, 0, p - 1)
    high_code = np.where(tail, np.asarray(high, dtype=np.int64)[rest] + 1, 0)  # 0: a small part, no high part
    value = np.where(tail, np.asarray(low, dtype=np.int64)[rest], G[np.minimum(sizes, a - 1)])
    ranks, code = np.unique(np.r_[0, high_code], return_inverse=True)  # ranked: keys stay small whatever the highs
    width = len(ranks)
    splits = {j: _splits(code[1:], value, j, width) for j in {j for _, j in moves}}
    # one int64 key an option: offset ≤ 3·MAX_SPAN + t, codes < width³ ≤ 257³, nim-sum < s ≤ MAX_SALTUS (< 2⁴⁴ all told)
    keys = np.concatenate([((splits[j][0] + k - a) * width ** 3 + splits[j][1]) * s + splits[j][2]
                           for k, j in moves])
    keys.sort()
    keys = keys[np.r_[True, keys[1:] != keys[:-1]]]
    shapes = [defaultdict(int) for _ in range(p)]
    multisets: dict[int, tuple] = {}
    for group, lows in _masks(keys, s):
        off, parts = divmod(group, width ** 3)
        hs = multisets.get(parts)
        if hs is None:
            hs = multisets[parts] = tuple(int(ranks[r]) - 1 for r in divmod(parts // width, width) + (parts % width,)
                                          if r)
        shapes[off % p][(off // p, hs)] = lows
    return shapes


def _splits(code: np.ndarray, value: np.ndarray, j: int, width: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every multiset of j parts (part i of size i + 1, high code `code[i]`, value `value[i]`) with a part in the
    tail: (total size B, its sorted high codes as one number in base `width`, padded with 0, nim-sum of values)."""
    idx = _multisets(len(code), j)
    c = [code[i] for i in idx] + [np.zeros(1, np.int64)] * (3 - j)  # padded with small parts: no high part
    lo, hi = np.minimum(np.minimum(c[0], c[1]), c[2]), np.maximum(np.maximum(c[0], c[1]), c[2])
    keep = hi > 0  # a tail part among them (every part small: a heap below t + 3(a − 1) + 1, which the bound covers)
    parts = (lo * width + (c[0] + c[1] + c[2] - lo - hi)) * width + hi
    nim = np.bitwise_xor.reduce([value[i] for i in idx])
    return (sum(idx) + j)[keep], parts[keep], nim[keep]


def _masks(keys: np.ndarray, s: int) -> Iterable[tuple[int, int]]:
    """(key // s, mask of every key % s in its group) for sorted distinct keys: OR-ed 64 bits at a time in numpy."""
    group, bit = np.divmod(keys, s)
    run = group * max(1, s // 64) + bit // 64
    starts = np.flatnonzero(np.r_[True, run[1:] != run[:-1]])
    words = np.bitwise_or.reduceat(np.left_shift(np.uint64(1), (bit % 64).astype(np.uint64)), starts)
    out: dict[int, int] = defaultdict(int)
    for g, shift, w in zip(group[starts].tolist(), (bit[starts] // 64 * 64).tolist(), words.tolist()):
        out[g] |= w << shift
    return out.items()


def _multisets(n: int, j: int) -> list[np.ndarray]:
    """Every i₁ ≤ … ≤ i_j below n (j = 1, 2, 3), as j index arrays: the splits into j parts, each counted once."""
    if j == 1:
        return [np.arange(n)]
    a, b = np.triu_indices(n)
    if j == 2:
        return [a, b]
    first = np.repeat(np.arange(len(a)), a + 1)  # (i₂, i₃) = (a, b) with every i₁ ≤ a
    starts = np.repeat(np.cumsum(a + 1) - (a + 1), a + 1)
    return [np.arange(len(first)) - starts, a[first], b[first]]


def _reached(shapes: dict, h_r: int, d: int, level: int | None = None) -> int:
    """The low parts reached for sure on the level d below N's own (s·(Q + H_R − d)), for every Q large enough;
    `level` given: that low level itself (h < max H), reached only through parts whose high part is at most h."""
    cov = 0
    for (D, hs), lows in shapes.items():
        c, total = len(hs), sum(hs)
        two_e = d - D + total - h_r  # the sum of the y_i minus the level
        if c == 1:
            ok = level is None and two_e == 0
        elif c == 2:
            ok = (level is None and two_e == 0 and hs[0] == 0) or (
                level == 0 and two_e >= 0 and two_e % 2 == 0 and two_e // 2 >= hs[1])  # y1 = y2: the highs cancel
        else:
            e = two_e // 2
            if two_e < 0 or two_e % 2:
                ok = False
            elif level is None:
                ok = e >= hs[1]  # y = (level, e, e) with the largest H as the lone part
            else:
                ok = any(hs[i] <= level and e >= max(hs[:i] + hs[i + 1:]) for i in range(3))
        if ok:
            cov |= lows
    return cov


def _may_reach_top(D: int, hs: tuple, h_r: int) -> bool:
    """Whether a shape can reach N's own level at all: the nim-sum of the y_i is at most their sum and has its
    parity (one part: it is its sum)."""
    delta = sum(hs) - D - h_r
    return delta == 0 if len(hs) == 1 else delta >= 0 and delta % 2 == 0


def _last_offset(D: int, hs: tuple, h_r: int) -> int:
    """d*: the largest offset at which what a shape reaches for sure still depends on more than d's parity."""
    if len(hs) <= 2:
        return D + h_r - sum(hs)
    return D - sum(hs) + h_r + 2 * hs[1]

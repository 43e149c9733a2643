"""Plain-Python references, independent of octal's engine: G(n) by enumerating every option of every heap and
taking the mex (no numba); partizan game trees compared, added and judged by the definitions."""

from __future__ import annotations

import random
from functools import cache

from octal.outcomes import LEFT_WINS, NEXT, PREVIOUS, RIGHT_WINS


def reference_digits(text: str) -> tuple[list[int], list[int]]:
    """Digits of a simple code written as 'd0.d1d2…' (no brackets), independent of octal.rules.code."""
    head, _, body = text.partition(".")
    return [int(head or "0", 16)] + [int(c, 16) for c in body], []


def reference_code(text: str) -> tuple[list[int], list[int], dict[int, str]]:
    """(digits, tail, marks) of a code written 'd0.d1d2…[t1t2…]' with hexadecimal digits, each optionally followed by
    a mark on the heaps its moves leave ('!' pairwise unequal, '?' not all equal, '=' all equal): marks[k] for digit
    k. Independent of octal.rules.code; marks on tail digits are not supported."""
    digits: list[int] = []
    tail: list[int] = []
    marks: dict[int, str] = {}
    in_tail = False
    for ch in text:
        if ch == ".":
            continue
        if ch in "[]":
            in_tail = ch == "["
        elif ch in "!?=":
            assert not in_tail, "marks on tail digits are not supported"
            marks[len(digits) - 1] = ch
        else:
            (tail if in_tail else digits).append(int(ch, 16))
    return digits, tail, marks


def _allowed(mark: str | None, heaps: tuple[int, ...]) -> bool:
    if mark == "!":
        return len(set(heaps)) == len(heaps)
    if mark == "?":
        return len(set(heaps)) > 1
    if mark == "=":
        return len(set(heaps)) == 1
    return True


def reference_values(digits: list[int], n: int, tail: list[int] | None = None,
                     marks: dict[int, str] | None = None) -> list[int]:
    """G(0..n−1) by brute force: every k, every way of leaving 0, 1, 2 or 3 non-empty heaps (`marks`: see
    reference_code; a mark constrains the heaps left by two- and three-heap moves)."""
    tail = tail or []
    marks = marks or {}

    def d(k: int) -> int:
        if k < len(digits):
            return digits[k]
        return tail[(k - len(digits)) % len(tail)] if tail else 0

    G: list[int] = []
    for h in range(n):
        opts = set()
        for k in range(h + 1):
            dk = d(k)
            mark = marks.get(k)
            rest = h - k
            if dk & 1 and rest == 0 and k > 0:
                opts.add(0)
            if dk & 2 and rest >= 1 and k > 0:
                opts.add(G[rest])
            if dk & 4:
                for a in range(1, rest):
                    if _allowed(mark, (a, rest - a)):
                        opts.add(G[a] ^ G[rest - a])
            if dk & 8:
                for a in range(1, rest):
                    for b in range(1, rest - a):
                        if _allowed(mark, (a, b, rest - a - b)):
                            opts.add(G[a] ^ G[b] ^ G[rest - a - b])
        v = 0
        while v in opts:
            v += 1
        G.append(v)
    return G


def partitions(n: int, largest: int | None = None):
    """Every multiset of positive heaps summing to n (parts ≤ largest), largest part first."""
    largest = n if largest is None else largest
    if n == 0:
        yield ()
        return
    for first in range(min(n, largest), 0, -1):
        for rest in partitions(n - first, first):
            yield (first,) + rest


# --- partizan game trees by the definitions: (left options, right options), nested tuples -----------------------


@cache
def tree_sum(a, b):
    return (tuple(tree_sum(x, b) for x in a[0]) + tuple(tree_sum(a, x) for x in b[0]),
            tuple(tree_sum(x, b) for x in a[1]) + tuple(tree_sum(a, x) for x in b[1]))


@cache
def tree_neg(a):
    return (tuple(tree_neg(x) for x in a[1]), tuple(tree_neg(x) for x in a[0]))


@cache
def left_first(a) -> bool:
    return any(not right_first(x) for x in a[0])


@cache
def right_first(a) -> bool:
    return any(not left_first(x) for x in a[1])


def tree_outcome(a) -> str:
    lf, rf = left_first(a), right_first(a)
    return NEXT if lf and rf else LEFT_WINS if lf else RIGHT_WINS if rf else PREVIOUS


def random_trees(seed: int, count: int, days: int = 3, width: int = 3) -> list:
    """`count` game trees drawn from those born by day `days`, each with at most `width` options a side."""
    rng = random.Random(seed)
    pool = [((), ())]
    for _ in range(days):
        born = list(pool)
        for _ in range(12):
            pool.append((tuple(rng.sample(born, rng.randint(0, min(width, len(born))))),
                         tuple(rng.sample(born, rng.randint(0, min(width, len(born)))))))
    return [rng.choice(pool) for _ in range(count)]


def reference_hex_values(text: str, n: int) -> list[int]:
    """G(0..n−1) of a plain finite code 'd0.d1d2…' whose moves leave at most three heaps, by the definition, fast
    enough for a few thousand heaps: the nim-sums of two-heap splits of each size kept as sets (numpy), three-heap
    splits as a two-heap split plus one heap. Independent of octal's engine."""
    import numpy as np

    digits, _ = reference_digits(text)
    assert all(d < 16 for d in digits), "moves leaving four heaps or more are not supported"
    width = 1 << max(6, (2 * n).bit_length())  # every value is at most the heap size, so its nim-sums lie below
    G = np.zeros(n, dtype=np.int64)
    pairs = np.zeros((n, width), dtype=bool)  # pairs[m, v]: some split of m into two heaps has nim-sum v
    threes: dict[int, np.ndarray] = {}  # rest → which nim-sums its three-heap splits reach
    cols = np.arange(width)
    for m in range(n):
        w = 1 << int(G[:m].max(initial=0)).bit_length()  # every value so far lies below w, so every nim-sum does
        if m >= 2:  # the two-heap splits of m read only smaller heaps (d0 splits m itself)
            a = np.arange(1, m // 2 + 1)
            pairs[m, G[a] ^ G[m - a]] = True
        seen = np.zeros(width, dtype=bool)
        for k, d in enumerate(digits):
            rest = m - k
            if rest < 0:
                continue
            if d & 1 and rest == 0 and k > 0:  # taking nothing is no move: d0 may only split
                seen[0] = True
            if d & 2 and rest >= 1 and k > 0:
                seen[G[rest]] = True
            if d & 4 and rest >= 2:
                seen |= pairs[rest]
            if d & 8 and rest >= 3:
                if rest not in threes:  # the nim-sums of three-heap splits of rest, once for every digit
                    c = np.arange(1, rest - 1)  # the lone heap; the other two split rest − c
                    order = np.argsort(G[c], kind="stable")  # lone heaps of one value g: their pair sets OR-ed
                    g, start = np.unique(G[c][order], return_index=True)  # first, then moved by ⊕ g once
                    merged = np.logical_or.reduceat(pairs[rest - c[order], :w], start, axis=0)
                    threes[rest] = merged[np.arange(len(g))[:, None], cols[None, :w] ^ g[:, None]].any(axis=0)
                seen[:len(threes[rest])] |= threes[rest]
        G[m] = int(np.argmin(seen))
    return G.tolist()

"""The rules of a code, as the verifier reads them: its digits, the values a certificate claims, and every heap's mex.

A code d0.d1d2…dk (octal digits 0–7 or hexadecimal 0–F) lets a move remove k tokens from a heap and leave no heap
(bit 1 of d_k, only when the heap has exactly k), one heap (bit 2, of n − k ≥ 1), two heaps (bit 4, of sizes
a + b = n − k, a, b ≥ 1) or three (bit 8, a + b + c = n − k, each ≥ 1); a move's value is the nim-sum (xor) of the
values of the heaps it leaves, and G(n) is the mex of the values of n's moves. d0 may only split (its bits 4 and 8).
"""

from __future__ import annotations

import numpy as np

HEX = "0123456789ABCDEF"
WORD = np.dtype("<u8")  # 64 columns of a split table a word, little-endian so its bytes unpack in column order


def digits(code: str) -> list[int]:
    """d0, d1, …, dk of a code 'd0.d1…dk' (d0 is 0, 4, 8 or C: a move may split a heap without removing)."""
    head, dot, body = code.partition(".")
    if not dot or head not in ("0", "4", "8", "C") or not body or any(c not in HEX for c in body):
        raise ValueError(f"{code[:20]!r} is not a code 0.d1…dk or 4.d1…dk (digits 0–9, A–F)")
    return [HEX.index(head)] + [HEX.index(c) for c in body]


def heaps_left(d: list[int]) -> int:
    """r: the most heaps a move leaves (3 when a digit has the 8 bit, 2 the 4 bit, else 1)."""
    return 3 if any(x & 8 for x in d) else 2 if any(x & 4 for x in d) else 1


def last_digit(d: list[int]) -> int:
    """t: the index of the last non-zero digit (0 when there is none)."""
    return max((k for k, x in enumerate(d) if x), default=0)


def guy_smith_bound(d: list[int], n0: int, p: int) -> int:
    """Heaps 0..B−1 whose values prove a period (saltus 0): B = r·max(n0,1) + r·p + t, so that
    G(n + p) = G(n) for max(n0,1) ≤ n < r·max(n0,1) + (r − 1)·p + t. Past that range an option of n + p leaves at
    most r heaps summing to at least n + p − t ≥ r·(max(n0,1) + p), so one of them is at least max(n0,1) + p and can
    be paired with the heap p smaller (Guy and Smith 1956; Winning Ways ch. 4; the same induction for r = 3)."""
    r = heaps_left(d)
    return r * max(n0, 1) + r * p + last_digit(d)


def values_for(block: np.ndarray, n0: int, p: int, s: int, length: int) -> np.ndarray:
    """G(0..length−1): the stored values through n0 + p − 1, then G(n) = G(n − p) + s."""
    G = np.empty(length, dtype=np.int64)
    head = min(length, n0 + p)
    G[:head] = block[:head]
    for start in range(n0 + p, length, p):
        stop = min(start + p, length)
        G[start:stop] = G[start - p:stop - p] + s
    return G


def width_for(top: int) -> int:
    """P: the least power of two above the largest value, so every xor of values is below it too."""
    P = 1
    while P <= top:
        P *= 2
    return P


def pair_values(G: np.ndarray, P: int) -> np.ndarray:
    """two[m, v]: some a + b = m, a, b ≥ 1, has G(a) xor G(b) = v (every value below P). Rows are kept as bits
    (v in word v // 64, bit v % 64): for each first heap a, row m = a + b gains the bit G(a) xor G(b), the rows of
    one value G(a) sharing a column of those bits."""
    N = len(G)
    words = np.zeros((N, -(-P // 64)), dtype=WORD)
    firsts = G[1:N // 2 + 1]  # a = 1 .. N // 2, b = a .. N − 1 − a
    for u in np.unique(firsts):
        x = (G ^ u).astype(WORD)
        bits = np.where((x >> 6)[:, None] == np.arange(words.shape[1]), WORD.type(1) << (x & 63)[:, None], 0)
        for a in np.flatnonzero(firsts == u) + 1:
            words[2 * a:N] |= bits[a:N - a]
    return _unpack(words, P)


def triple_values(G: np.ndarray, two: np.ndarray) -> np.ndarray:
    """three[m, v]: some a + b + c = m, each ≥ 1, has G(a) xor G(b) xor G(c) = v: for every first heap a, the values
    of the splits of m − a into two, each xor-ed with G(a) (a column permutation, made once for each value G(a))."""
    N, P = two.shape
    words = np.zeros((N, -(-P // 64)), dtype=WORD)
    firsts = G[1:max(N - 2, 1)]  # a = 1 .. N − 3, m − a = 2 .. N − 1 − a
    for u in np.unique(firsts):
        moved = _pack(two[:, np.arange(P) ^ u])
        for a in np.flatnonzero(firsts == u) + 1:
            words[a + 2:] |= moved[2:N - a]
    return _unpack(words, P)


def _pack(table: np.ndarray) -> np.ndarray:
    """A boolean table's rows as bits: column v in word v // 64, bit v % 64."""
    N, P = table.shape
    wide = np.zeros((N, -(-P // 64) * 64), dtype=bool)
    wide[:, :P] = table
    return np.packbits(wide, axis=1, bitorder="little").view(WORD)


def _unpack(words: np.ndarray, P: int) -> np.ndarray:
    """The boolean table (N × P) whose rows `words` holds as bits."""
    return np.unpackbits(words.view(np.uint8), axis=1, bitorder="little")[:, :P].astype(bool)


def mex_values(d: list[int], G: np.ndarray, two: np.ndarray, three: np.ndarray | None) -> np.ndarray:
    """mex of each heap's options under the digits d, from the values G and the split tables (three: None when no
    digit has the 8 bit); P, the tables' width, where every value below it is an option."""
    N, P = two.shape
    opts = np.zeros((N, P), dtype=bool)
    flat, base = opts.reshape(-1), np.arange(N, dtype=np.int64) * P
    for k, x in enumerate(d):
        if x & 1 and 1 <= k < N:
            opts[k, 0] = True  # the whole heap taken
        if x & 2 and k >= 1 and k + 1 < N:
            flat[base[k + 1:] + G[1:N - k]] = True  # one heap of n − k left
        if x & 4 and k + 2 < N:
            opts[k + 2:] |= two[2:N - k]  # two heaps of n − k in all
        if x & 8 and k + 3 < N:
            opts[k + 3:] |= three[3:N - k]  # three heaps of n − k in all
    missing = ~opts
    return np.where(missing.any(axis=1), missing.argmax(axis=1), P)

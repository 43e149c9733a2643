"""The power-of-two saltus theorem, written again from its statement (docs/periodicity.md, "Arithmetic periods"):
the heaps B whose values, once they follow G(n + p) = G(n) + s from n0, prove it for every n ≥ n0.

For the verifier alone: it shares no code with octal's engine, so that a reader can check one against the other.
The names are the proof's: a = max(n0, 1); a heap below a is *small*, the others *tail* heaps; a tail heap
a + r + q·p has residue r and value s·(H_r + q) + L_r. A move of the heap N = a + R + Q·p leaving at least one tail
heap has a *shape*: k, its small heaps, its tail heaps' residues; with base b (the small sizes plus a + r_i for each
tail heap) it needs Q ≥ D = (b + k − a − R)/p, and its values lie on levels at offset d below N's own level.
"""

from __future__ import annotations

from functools import lru_cache

from .rules import last_digit

LIFTS = (1, 2, 4, 8, 16)  # (k·p, k·s) is tried when (p, s) fails: an arithmetic period whenever (p, s) is one
SPAN = 256  # a + k·p above this: not tried (the shapes grow as the cube of the span)
MAX_S = 512  # k·s above this: not tried (each set of low parts is a 2^(k·s)-bit integer)


def is_power_of_two(s: int) -> bool:
    return s > 0 and s & (s - 1) == 0


def saltus_bound(d: list[int], G, n0: int, p: int, s: int) -> tuple[int | None, str]:
    """(B, "") for the first k of LIFTS whose (k·p, k·s) passes (A)–(D), or (None, why): the condition that fails for
    each k tried, e.g. "(A) for k = 1; (D) for k = 2, 4, 8, 16", or "too large" when not even k = 1 is within SPAN and
    MAX_S. G must hold G(0..a + 16·p − 1)."""
    if not is_power_of_two(s):
        return None, f"saltus {s} is not a power of two"
    a = max(n0, 1)
    failed: dict[str, list[int]] = {}
    for k in LIFTS:
        if a + k * p > SPAN or k * s > MAX_S:
            break
        B, why = _test(d, G, n0, k * p, k * s)
        if B is not None:
            return B, ""
        failed.setdefault(why, []).append(k)
    if not failed:
        return None, "too large"
    return None, "; ".join(f"({why}) for k = {', '.join(map(str, ks))}" for why, ks in failed.items())


def _moves(d: list[int]) -> list[tuple[int, int]]:
    """(k, j): a move may remove k tokens and leave j ≥ 1 heaps (d0's one-heap bit would leave the heap as it is)."""
    return [(k, j) for k, x in enumerate(d) for j in (1, 2, 3) if x >> j & 1 and (k > 0 or j > 1)]


@lru_cache(maxsize=1 << 14)
def _members(x: int) -> tuple[int, ...]:
    """The numbers in the set x (a bit mask), ascending."""
    return tuple(u for u in range(x.bit_length()) if x >> u & 1)


@lru_cache(maxsize=1 << 14)
def _xor_sets(x: int, y: int) -> int:
    """{u xor w : u in x, w in y}, sets of small numbers as bit masks (the same few sets recur: remembered)."""
    out = 0
    for w in _members(y):
        for u in _members(x):
            out |= 1 << (u ^ w)
    return out


def _small_splits(G, a: int) -> list[dict[int, int]]:
    """For u = 0, 1, 2 small heaps: their total size → the set of their values' xors."""
    none = {0: 1}
    one: dict[int, int] = {}
    for x in range(1, a):
        one[x] = one.get(x, 0) | 1 << int(G[x])
    two: dict[int, int] = {}
    for x in range(1, a):
        for y in range(x, a):
            two[x + y] = two.get(x + y, 0) | 1 << (int(G[x]) ^ int(G[y]))
    return [none, one, two]


def _tail_splits(H: list[int], L: list[int], a: int) -> list[dict[tuple, int]]:
    """For c = 1, 2, 3 tail heaps: (their total base size, their high parts sorted) → the set of their low parts'
    xors; built one heap (of any residue) at a time, so every choice of residues is in it."""
    one: dict[tuple, int] = {}
    for r in range(len(H)):
        one[(a + r, (H[r],))] = one.get((a + r, (H[r],)), 0) | 1 << L[r]
    out = [one]
    for _ in (2, 3):
        nxt: dict[tuple, int] = {}
        for (b, hs), lows in out[-1].items():
            for (b1, h1), low1 in one.items():
                key = (b + b1, tuple(sorted(hs + h1)))
                nxt[key] = nxt.get(key, 0) | _xor_sets(lows, low1)
        out.append(nxt)
    return out


def shapes(d: list[int], G, a: int, p: int, H: list[int], L: list[int]) -> list[dict[tuple, int]]:
    """For each residue R: (D, high parts sorted) → the low values ℓ of the shapes with that D and those tail heaps."""
    small = _small_splits(G, a)
    tails = _tail_splits(H, L, a)
    out: list[dict[tuple, int]] = [{} for _ in range(p)]
    for k, j in _moves(d):
        for c in range(1, j + 1):
            for (bt, hs), lows_t in tails[c - 1].items():
                for z, lows_s in small[j - c].items():
                    excess = bt + z + k - a  # = R + D·p
                    R, D = excess % p, excess // p
                    key = (D, hs)
                    out[R][key] = out[R].get(key, 0) | _xor_sets(lows_t, lows_s)
    return out


def _twice_e(D: int, hs: tuple, HR: int, d: int) -> int:
    """2e = T − h = d − D + ΣH − H_R: how far the shape's total stands above the level."""
    return d - D + sum(hs) - HR


def sure_at_offset(D: int, hs: tuple, HR: int, d: int) -> bool:
    """Whether the shape reaches, for sure, the level at offset d (levels h ≥ Ĥ): F1, F2, F4."""
    if len(hs) == 1:
        return d == D + HR - hs[0]
    if len(hs) == 2:
        return hs[0] == 0 and d == D + HR - sum(hs)
    x = _twice_e(D, hs, HR, d)
    return x >= 0 and x % 2 == 0 and x // 2 >= hs[1]


def sure_at_small_level(D: int, hs: tuple, HR: int, h: int, d: int) -> bool:
    """Whether the shape reaches, for sure, the small level h < Ĥ at offset d: F3 (two heaps, level 0), F4."""
    x = _twice_e(D, hs, HR, d)
    if len(hs) == 1 or x < 0 or x % 2:
        return False
    e = x // 2
    if len(hs) == 2:
        return h == 0 and e >= max(hs)
    return any(hs[i] <= h and e >= max(hs[:i] + hs[i + 1:]) for i in range(3))


def possible_at_zero(D: int, hs: tuple, HR: int) -> bool:
    """Whether the shape can put a value on N's own level at all (F1)."""
    if len(hs) == 1:
        return D + HR - hs[0] == 0
    x = sum(hs) - D - HR
    return x >= 0 and x % 2 == 0


def last_offset(D: int, hs: tuple, HR: int) -> int:
    """The shape's term of d*: past it, being sure at offset d depends only on d's parity."""
    if len(hs) <= 2:
        return D + HR - sum(hs)
    return D - sum(hs) + HR + 2 * hs[1]


def _lows(table: dict, keep, *args) -> int:
    """The low values of the shapes of one residue for which keep(D, highs, *args) holds."""
    out = 0
    for (D, hs), lows in table.items():
        if keep(D, hs, *args):
            out |= lows
    return out


def _test(d: list[int], G, n0: int, p: int, s: int) -> tuple[int | None, str]:
    """(B, "") when (A)–(D) hold for (p, n0, s), else (None, the first condition that fails)."""
    a = max(n0, 1)
    if any(int(G[x]) >= s for x in range(1, a)):
        return None, "A"
    m = s.bit_length() - 1
    H = [int(G[a + r]) >> m for r in range(p)]
    L = [int(G[a + r]) & (s - 1) for r in range(p)]
    Hhat = max([1] + H)
    full = (1 << s) - 1
    table = shapes(d, G, a, p, H, L)
    d_star = max([0] + [last_offset(D, hs, H[R]) for R in range(p) for (D, hs) in table[R]])
    for R in range(p):
        HR, LR, t = H[R], L[R], table[R]
        below = (1 << LR) - 1
        if _lows(t, sure_at_offset, HR, 0) & below != below:
            return None, "B: a low part below L_R not reached for sure"
        if _lows(t, possible_at_zero, HR) >> LR & 1:
            return None, "B: L_R reachable on N's own level"
        for off in range(1, d_star + 3):
            if _lows(t, sure_at_offset, HR, off) != full:
                return None, "C"
        for h in range(Hhat):
            for off in (d_star + 1, d_star + 2):
                if _lows(t, sure_at_small_level, HR, h, off) != full:
                    return None, "D"
    return max(a + (d_star + Hhat + 3) * p, last_digit(d) + 3 * a - 2), ""

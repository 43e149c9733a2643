"""Reading a misère quotient: a presentation by generators and relations, element names, tameness."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import monoid as mon

_SUPER = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


@dataclass
class Presentation:
    """Generators (one letter per heap that brings a new element) and relations u = v between words.

    Words are exponent tuples over the generators; `normal[x]` is the least word (degree, then more of
    the earlier letters) of element x, and the relations are the least words that are not normal,
    each equal to its normal form: together they rewrite every word to its normal form.
    """

    letters: list[str]
    heaps: list[int]
    normal: list[tuple[int, ...]]
    relations: list[tuple[tuple[int, ...], tuple[int, ...]]]

    def word(self, exps: tuple[int, ...], ascii: bool = False) -> str:
        parts = []
        for letter, e in zip(self.letters, exps):
            if e == 1:
                parts.append(letter)
            elif e > 1:
                parts.append(f"{letter}^{e}" if ascii else letter + str(e).translate(_SUPER))
        return "".join(parts) or "1"

    def name(self, x: int, ascii: bool = False) -> str:
        return self.word(self.normal[x], ascii)

    def relation_texts(self, ascii: bool = False) -> list[str]:
        return [f"{self.word(u, ascii)} = {self.word(v, ascii)}" for u, v in self.relations]


def present(mul: np.ndarray, phi: np.ndarray) -> Presentation:
    """Generators from the heaps in order (a heap whose class is not yet generated brings a letter),
    normal forms by degree then lexicographic order, relations at the least non-normal words."""
    gens, heaps = [], []
    reached = np.zeros(len(mul), dtype=bool)
    reached[0] = True
    for h, x in enumerate(phi):
        x = int(x)
        if not reached[x]:
            gens.append(x)
            heaps.append(h)
            reached[:] = False
            reached[mon.generated(mul, gens)] = True
    k = len(gens)
    letters = [chr(ord("a") + i) for i in range(k)] if k <= 26 else [f"x{i + 1}" for i in range(k)]
    normal: dict[int, tuple[int, ...]] = {0: (0,) * k}
    element = {(0,) * k: 0}
    relations = []
    layer = [(0,) * k]
    while layer:
        cands = sorted({w[:i] + (w[i] + 1,) + w[i + 1:] for w in layer for i in range(k)}, reverse=True)
        nxt = []
        for w in cands:
            if not all(w[:j] + (w[j] - 1,) + w[j + 1:] in element for j in range(k) if w[j]):
                continue  # a non-normal word below it: implied by a smaller relation
            i = next(j for j in range(k) if w[j])
            x = int(mul[element[w[:i] + (w[i] - 1,) + w[i + 1:]], gens[i]])
            if x in normal:
                relations.append((w, normal[x]))
            else:
                normal[x] = w
                element[w] = x
                nxt.append(w)
        layer = nxt
    return Presentation(letters, heaps, [normal[x] for x in range(len(mul))], relations)


def is_tame(mul: np.ndarray, p: np.ndarray) -> bool:
    """Is (Q, P) the quotient of nim heaps (tame)? Those are {1}, {1, a} and, of order 2^k + 2 (k ≥ 2),
    {1, a} ∪ H with a² = 1, H an ideal that is a group of exponent 2 with identity e, a·e ≠ e, P = {a, e}.

    Any two such bipartite monoids of one order are isomorphic (H ≅ Z2^k, and Aut(Z2^k) moves a·e to any
    element other than e), and nim heaps ≤ 2^k − 1 give one of them; so the test is exact.
    """
    m = len(mul)
    if m == 1:
        return not p[0]
    ps = np.flatnonzero(p)
    if m == 2:
        return len(ps) == 1 and ps[0] == 1 and mul[1, 1] == 0
    k = (m - 2).bit_length() - 1
    if m - 2 != 1 << k or k < 2 or len(ps) != 2:
        return False
    for a in ps:
        if mul[a, a] != 0:
            continue
        h = np.array([x for x in range(m) if x not in (0, a)])
        if not np.isin(mul[:, h], h).all():  # H must be an ideal
            continue
        idem = [x for x in h if mul[x, x] == x]
        if len(idem) != 1:
            continue
        e = idem[0]
        if (mul[e, h] == h).all() and (mul[h, h] == e).all() and mul[a, e] != e and set(ps.tolist()) == {a, e}:
            return True
    return False

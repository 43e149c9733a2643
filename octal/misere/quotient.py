"""Misère quotients (Plambeck–Siegel): the monoid of an octal game's positions modulo misère indistinguishability.

Two positions G, H are indistinguishable when G + X and H + X have the same misère outcome for every
position X of the game; the classes form a commutative monoid Q, the P-portion P ⊆ Q holds the classes
of P-positions, and the pretending function Φ sends each heap size to its class. With Q known, a
position is decided by multiplying the classes of its heaps.

The quotient of heaps ≤ n is grown heap by heap. A candidate (Q, P, Φ) is *verified* exactly: the pair
σ(w) = (Φ(w), {Φ(w') : w' an option of w}) of a word w (a multiset of heaps) obeys
σ(w·h) = (Φ(w)Φ(h), O(w)·Φ(h) ∪ Φ(w)·T(h)) with T(h) the classes of h's options, so the pairs reachable
from the empty word are finite, and Φ predicts every misère outcome iff each reachable pair satisfies
Φ(w) ∈ P ⇔ (O(w) ≠ ∅ and O(w) ∩ P = ∅) (induction on the game tree; the empty word is N). A candidate
comes from the quotient so far, either unchanged (heap n pretends to be an existing element: a
conservative extension) or extended by free cyclic generators for heap n and for heaps of a failing
word (recalibration), with P marked along the shortest word of each element, then reduced. A
verified candidate, reduced to the classes its heaps generate, is the quotient itself.

Periodicity: if Φ(n + p) = Φ(n) for n0 ≤ n below the Guy–Smith bound of the code and the quotient did
not change there, every later heap has the option classes of the heap p before it (the normal-play
argument applied to Φ), so pretends to be the same element and Φ is periodic for ever.
"""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..code import OctalCode, parse_code
from ..errors import DataFileError, InvalidArgumentError, ResourceLimitError
from ..kernels import misere as kernel
from ..periodicity import proof_bound
from ..position import heap_moves
from . import monoid as mon

if TYPE_CHECKING:
    from ..position import Solution

MAX_ORDER = 600  # a quotient growing past this is reported as "growing"
MAX_HEAP = 2000  # heaps examined at most when looking for a period
MAX_TRIAL = 6000  # elements of a trial monoid before reduction
MAX_STATES = 3_000_000  # (Φ(w), O(w)) pairs examined by one verification


class QuotientFailure(Exception):
    """Internal: no candidate could be built within the limits (the quotient is reported as growing)."""


# ---- element sets as uint64 words ------------------------------------------------------------------

def _words(m: int) -> int:
    return max(1, (m + 63) // 64)


def _set_mask(flags: np.ndarray) -> np.ndarray:
    """A bool array over the elements as a row of uint64 words."""
    out = np.zeros(_words(len(flags)), dtype=np.uint64)
    for x in np.flatnonzero(flags):
        out[x >> 6] |= np.uint64(1) << np.uint64(x & 63)
    return out


def _times_masks(mul: np.ndarray, elems) -> np.ndarray:
    """Row y: the set {y·t : t ∈ elems} as uint64 words."""
    m = len(mul)
    out = np.zeros((m, _words(m)), dtype=np.uint64)
    rows = np.arange(m)
    for t in elems:
        y = mul[:, t].astype(np.int64)
        np.bitwise_or.at(out, (rows, y >> 6), np.left_shift(np.uint64(1), (y & 63).astype(np.uint64)))
    return out


# ---- the game's heaps ------------------------------------------------------------------------------

class HeapOptions:
    """Option words (tuples of leaf heaps) of each heap; a heap with no option is the game 0.

    `weight(h)` strictly exceeds the weight of every option word of h (h, or h² when a heap may split
    without losing a token), so searches ordered by total weight meet every option before its position.
    """

    def __init__(self, code: OctalCode):
        self.code = code
        self._opts: list[tuple[tuple[int, ...], ...]] = []
        self._square = code.digit(0) != 0

    def weight(self, h: int) -> int:
        return h * h if self._square else h

    def __call__(self, h: int) -> tuple[tuple[int, ...], ...]:
        while len(self._opts) <= h:
            n = len(self._opts)
            words = {tuple(x for x in mv.leaves if x and self._opts[x]) if all(x < n for x in mv.leaves) else mv.leaves
                     for mv in heap_moves(self.code, n)}
            self._opts.append(tuple(sorted(words)))
        return self._opts[h]

    def live(self, h: int) -> bool:
        return bool(self(h))


# ---- pretensions -----------------------------------------------------------------------------------

@dataclass
class _Pretension:
    """A candidate: monoid table, P-portion, Φ for heaps 0..n and T(h) = classes of each heap's options."""

    mul: np.ndarray
    p: np.ndarray
    phi: list[int]
    trans: list[frozenset[int]]

    def element(self, word) -> int:
        x = 0
        for h in word:
            x = int(self.mul[x, self.phi[h]])
        return x


def _transitions(times: Callable[[int, int], int], phi: list[int], options: HeapOptions, h: int) -> frozenset[int]:
    """T(h): the classes of the options of heap h."""
    out = set()
    for word in options(h):
        x = 0
        for leaf in word:
            x = times(x, phi[leaf])
        out.add(x)
    return frozenset(out)


def _table_times(mul: np.ndarray) -> Callable[[int, int], int]:
    return lambda a, b: int(mul[a, b])


def _generators(pre: _Pretension, options: HeapOptions):
    """Distinct (Φ(h), T(h)) pairs of live heaps, each with its smallest heap (the cheapest witness)."""
    seen: dict[tuple[int, frozenset[int]], int] = {}
    for h in range(1, len(pre.phi)):
        if options.live(h):
            seen.setdefault((pre.phi[h], pre.trans[h]), h)
    return [(g, t, h, options.weight(h)) for (g, t), h in seen.items()]


def _word(parent: dict, state) -> tuple[int, ...]:
    out = []
    while True:
        prev = parent[state]
        if prev is None:
            return tuple(sorted(out))
        state, h = prev
        out.append(h)


def _kernel_gens(mul: np.ndarray, gens) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    elem = np.array([g for g, *_ in gens], dtype=np.int64)
    weight = np.array([w for *_, w in gens], dtype=np.int64)
    tmask = np.zeros((len(gens), len(mul), _words(len(mul))), dtype=np.uint64)
    for k, (_, t, _, _) in enumerate(gens):
        tmask[k] = _times_masks(mul, sorted(t))
    return elem, weight, tmask


def verify(pre: _Pretension, options: HeapOptions, max_states: int = MAX_STATES,
           states: list | None = None) -> tuple[int, ...] | None:
    """The least (by weight) word whose outcome Φ predicts wrongly, or None when Φ predicts every outcome.

    Dijkstra over the pairs σ(w) = (Φ(w), O(w)) by the least weight of a word reaching them: every
    option of that word weighs less, so its pair was checked earlier and the first failure is genuine.
    On success the reachable pairs go to `states` (when given) for quick checks of the next heap.
    """
    if pre.p[0]:
        return ()
    gens = _generators(pre, options)
    elem, weight, tmask = _kernel_gens(pre.mul, gens)
    fail, count, xs, sets, parent, pgen = kernel.explore(pre.mul, pre.p, _set_mask(pre.p), elem, weight, tmask,
                                                          max_states)
    if count < 0:
        raise QuotientFailure(f"verification passed {max_states:,} states")
    if fail >= 0:
        word = []
        i = fail
        while parent[i] >= 0:
            word.append(gens[pgen[i]][2])
            i = parent[i]
        return tuple(sorted(word))
    if states is not None:
        states[:] = [xs.copy(), sets.copy()]
    return None


def _mark(mul: np.ndarray, phi: list[int], trans: list[frozenset[int]], options: HeapOptions) -> np.ndarray:
    """P-portion of a trial monoid: each element takes the outcome of its least word (Dijkstra by weight)."""
    gens: dict = {}
    for h in range(1, len(phi)):
        if options.live(h):
            gens.setdefault((phi[h], trans[h]), h)
    elem, weight, tmask = _kernel_gens(mul, [(g, t, h, options.weight(h)) for (g, t), h in gens.items()])
    return kernel.mark(mul, elem, weight, tmask)


def _word_text(word: tuple[int, ...]) -> str:
    """Heaps of a position, repeated ones counted: '3 ×14, 25'."""
    return ", ".join(f"{h} ×{word.count(h)}" if word.count(h) > 1 else str(h) for h in sorted(set(word)))


def _cyclic_type(mul: np.ndarray, x: int) -> tuple[int, int]:
    """(index, period) of x: the least i, p ≥ 1 with x^(i+p) = x^i."""
    seen: dict[int, int] = {}
    y, i = 0, 0
    while y not in seen:
        seen[y] = i
        y = int(mul[y, x])
        i += 1
    return seen[y], i - seen[y]


class _Builder:
    """Grows the quotient heap by heap; `pre` is always a verified, reduced pretension for heaps 0..n."""

    def __init__(self, code: OctalCode, options: HeapOptions, max_order: int, time_limit: float | None = None):
        self.code = code
        self.options = options
        self.max_order = max_order
        self.time_limit = time_limit
        self.deadline = None if time_limit is None else time.perf_counter() + time_limit
        self.pre = _Pretension(np.zeros((1, 1), dtype=np.int32), np.zeros(1, dtype=bool), [0], [frozenset()])
        self.states: list = [np.zeros(1, dtype=np.int64), np.zeros((1, 1), dtype=np.uint64)]
        self.changes: list[int] = []

    @property
    def n(self) -> int:
        return len(self.pre.phi) - 1

    def add(self) -> None:
        """Extend the quotient to the next heap."""
        pre, n = self.pre, self.n + 1
        if not self.options.live(n):
            pre.phi.append(0)
            pre.trans.append(frozenset())
            return
        t = _transitions(_table_times(pre.mul), pre.phi, self.options, n)
        for m in range(1, n):
            if pre.trans[m] == t and self.options.live(m):  # the same generator again: nothing new is reachable
                pre.phi.append(pre.phi[m])
                pre.trans.append(t)
                return
        for x in self._candidates(t):
            self.check_time()
            trial = _Pretension(pre.mul, pre.p, pre.phi + [x], pre.trans + [t])
            states: list = []
            if verify(trial, self.options, states=states) is None:
                self.pre, self.states = trial, states
                return
        self._expand(n)

    def _candidates(self, t: frozenset[int]) -> list[int]:
        """Elements x that heap n could pretend to be: right outcome alone and beside every known word."""
        pre = self.pre
        alone_p = not any(pre.p[y] for y in t)
        xs, sets = self.states
        ok = kernel.candidates(pre.mul, pre.p, _set_mask(pre.p), xs, sets, _times_masks(pre.mul, sorted(t)), alone_p)
        return [int(x) for x in np.flatnonzero(ok)]

    def _trial(self, base: np.ndarray, image: list[int | None], free: dict[int, tuple[int, int]]) -> _Pretension:
        """Reduced candidate on base × Π C(index, period), one cyclic factor per free heap, P marked by least words."""
        comps = [base] + [mon.cyclic(i, p) for i, p in free.values()]
        slot = {h: j + 1 for j, h in enumerate(free)}
        gens, live = [], []
        for h, x in enumerate(image):
            if not self.options.live(h):
                continue
            g = [0] * len(comps)
            if h in slot:
                g[slot[h]] = 1
            else:
                g[0] = x
            gens.append(tuple(g))
            live.append(h)
        try:
            pm = mon.ProductMonoid(comps, gens, MAX_TRIAL)
        except OverflowError:
            raise QuotientFailure(f"a trial monoid passed {MAX_TRIAL} elements") from None
        phi = [0] * len(image)
        for h, g in zip(live, gens):
            phi[h] = pm.index(g)
        trans = [_transitions(pm.product, phi, self.options, h) for h in range(len(image))]
        # columns x ↦ x·e for the generators and the option classes: all the searches need
        needed = sorted({phi[h] for h in live}.union(*trans))
        col = {e: i for i, e in enumerate(needed)}
        cols = np.stack([pm.column(e) for e in needed], axis=1).astype(np.int32)
        phi_c = [col.get(x, -1) for x in phi]
        p = _mark(cols, phi_c, [frozenset(col[y] for y in tr) for tr in trans], self.options)
        cls = mon.syntactic_classes(cols[:, sorted({phi_c[h] for h in live})], p)
        reps = mon.representatives(cls)
        qmul = np.stack([cls[pm.column(int(r))][reps] for r in reps], axis=1).astype(np.int32)
        return _Pretension(qmul, p[reps].copy(), [int(cls[x]) for x in phi],
                           [frozenset(int(cls[y]) for y in tr) for tr in trans])

    def _expand(self, n: int) -> None:
        """Heap n pretends to be nothing known: give it a free generator, then recalibrate until verified."""
        pre = self.pre
        trial = self._trial(pre.mul, pre.phi + [None], {n: (2, 2)})
        for _ in range(200):
            states: list = []
            fail = verify(trial, self.options, states=states)
            if fail is None:
                self.pre, self.states = trial, states
                self.changes.append(n)
                return
            if len(trial.mul) > 4 * self.max_order:  # a runaway candidate: the order limit is far behind
                raise QuotientFailure(f"the quotient passed {self.max_order} elements")
            self.check_time()
            trial = self._recalibrate(trial, n, fail)
        raise QuotientFailure("recalibration did not converge")

    def check_time(self) -> None:
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise QuotientFailure(f"stopped after {self.time_limit:g} s")

    def _recalibrate(self, trial: _Pretension, n: int, fail: tuple[int, ...]) -> _Pretension:
        """Free the heaps of the least failing word (fewest first) until that word gets its true outcome."""
        should_be_p = not trial.p[trial.element(fail)]
        heaps = sorted(set(h for h in fail if self.options.live(h)))
        for size in range(1, len(heaps) + 1):
            for chosen in itertools.combinations(heaps, size):
                rest = [trial.phi[h] for h in range(n + 1) if self.options.live(h) and h not in chosen]
                base, new = mon.restrict(trial.mul, mon.generated(trial.mul, rest))
                image = [None if h in chosen else int(new[trial.phi[h]]) if self.options.live(h) else 0
                         for h in range(n + 1)]
                free = {}
                for h in chosen:
                    index, _ = _cyclic_type(trial.mul, trial.phi[h])
                    index = max(2, index, fail.count(h))
                    free[h] = (index, 2 if index <= 4 else 2 * ((index - 2) // 2))
                self.check_time()
                try:
                    cand = self._trial(base, image, free)
                except QuotientFailure:
                    continue
                if bool(cand.p[cand.element(fail)]) == should_be_p:
                    return cand
        raise QuotientFailure(f"no candidate within the search limits predicts the position {_word_text(fail)}")


# ---- the result ------------------------------------------------------------------------------------

FORMAT = "octal-misere-quotient"
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


@dataclass
class MisereQuotient:
    """The misère quotient of heaps 0..max_heap of a code: table, P-portion, pretending function Φ.

    `status` is "finite" when the quotient was settled (Φ proven periodic, or every heap up to the
    requested one computed) and "growing" when a budget stopped it; every answer it gives is exact
    for the heaps it covers.
    """

    code: OctalCode
    mul: np.ndarray
    p: np.ndarray
    phi: np.ndarray
    changes: list[int]
    period: int | None = None
    preperiod: int | None = None
    status: str = "finite"
    reason: str = ""
    seconds: float = 0.0
    _presentation: Presentation | None = field(default=None, repr=False)
    _tame: bool | str = field(default="?", repr=False)

    @property
    def order(self) -> int:
        return len(self.mul)

    @property
    def p_portion(self) -> int:
        return int(self.p.sum())

    @property
    def max_heap(self) -> int:
        return len(self.phi) - 1

    @property
    def proven(self) -> bool:
        return self.period is not None

    def pretend(self, h: int) -> int:
        """Φ(h): through the proven period beyond the heaps computed."""
        if h < len(self.phi):
            return int(self.phi[h])
        if self.period is None:
            raise ResourceLimitError(f"heap {h:,} is beyond the quotient of {self.code} computed to heap "
                                     f"{self.max_heap:,} (no period is proven)")
        n0, p = self.preperiod, self.period
        return int(self.phi[n0 + (h - n0) % p])

    def element(self, heaps) -> int:
        """The class of a position: the product of Φ(h) over its heaps (O(#heaps))."""
        x = 0
        for h in heaps:
            x = int(self.mul[x, self.pretend(h)])
        return x

    def is_p(self, heaps) -> bool:
        """Misère outcome: True when the player to move loses."""
        return bool(self.p[self.element(heaps)])

    def covers(self, heaps) -> bool:
        return self.period is not None or max(heaps, default=0) <= self.max_heap

    @property
    def presentation(self) -> Presentation:
        if self._presentation is None:
            self._presentation = _present(self.mul, self.phi)
        return self._presentation

    @property
    def tame(self) -> bool:
        """True when (Q, P) is isomorphic to the quotient of nim heaps."""
        if self._tame == "?":
            self._tame = _is_tame(self.mul, self.p)
        return self._tame

    def to_dict(self) -> dict:
        """The `octal misere --json` shape plus the presentation and Φ."""
        pres = self.presentation
        return {
            "code": str(self.code),
            "order": self.order,
            "p_portion": self.p_portion,
            "tame": self.tame,
            "max_heap": self.max_heap,
            "period": self.period,
            "preperiod": self.preperiod,
            "status": self.status,
            "generators": {letter: heap for letter, heap in zip(pres.letters, pres.heaps)},
            "relations": pres.relation_texts(ascii=True),
            "p_elements": [pres.name(x, ascii=True) for x in np.flatnonzero(self.p)],
            "pretending_function": [pres.name(int(x), ascii=True) for x in self.phi],
            "changes": list(self.changes),
            "seconds": round(self.seconds, 3),
        }

    # ---- saving and loading --------------------------------------------------------------------
    def to_document(self) -> dict:
        return {
            "format": FORMAT,
            "version": 1,
            "code": str(self.code),
            "table": self.mul.tolist(),
            "p": [int(x) for x in np.flatnonzero(self.p)],
            "phi": self.phi.tolist(),
            "changes": list(self.changes),
            "period": self.period,
            "preperiod": self.preperiod,
            "status": self.status,
            "reason": self.reason,
        }

    def save(self, path: str | Path) -> Path:
        """A small JSON document (written atomically) from which `load` rebuilds the quotient."""
        from ..io import atomic_write

        path = Path(path)
        if path.suffix.lower() != ".json":
            raise DataFileError(f"cannot save a quotient to {path}: use a .json file")
        atomic_write(path, (json.dumps(self.to_document(), separators=(",", ":")) + "\n").encode())
        return path

    @classmethod
    def load(cls, path: str | Path, check: bool = True) -> MisereQuotient:
        """Read a saved quotient; with `check`, verify it against the game's rules before trusting it."""
        path = Path(path)
        try:
            doc = json.loads(path.read_text())
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
            raise DataFileError(f"cannot read a quotient from {path}: {e}") from None
        return cls.from_document(doc, check=check, where=str(path))

    @classmethod
    def from_document(cls, doc: dict, check: bool = True, where: str = "document") -> MisereQuotient:
        try:
            if doc.get("format") != FORMAT:
                raise ValueError(f"not an {FORMAT} document")
            code = parse_code(doc["code"])
            mul = np.array(doc["table"], dtype=np.int32)
            m = len(mul)
            if mul.ndim != 2 or mul.shape != (m, m) or m == 0 or mul.min() < 0 or mul.max() >= m:
                raise ValueError("the table is not a square table of elements")
            if not (np.array_equal(mul[0], np.arange(m)) and np.array_equal(mul[:, 0], np.arange(m))):
                raise ValueError("element 0 is not the identity")
            p = np.zeros(m, dtype=bool)
            p[np.array(doc["p"], dtype=np.int64)] = True
            phi = np.array(doc["phi"], dtype=np.int32)
            if phi.ndim != 1 or len(phi) == 0 or phi.min() < 0 or phi.max() >= m:
                raise ValueError("the pretending function names elements outside the table")
            period, preperiod = doc.get("period"), doc.get("preperiod")
            status = doc.get("status", "finite")
            if status not in ("finite", "growing"):
                raise ValueError(f"unknown status {status!r}")
        except (KeyError, TypeError, ValueError, IndexError) as e:
            raise DataFileError(f"{where} is not a saved misère quotient: {e}") from None
        q = cls(code, mul, p, phi, list(doc.get("changes", [])), period, preperiod, status, doc.get("reason", ""))
        if check and not q.check():
            raise DataFileError(f"{where} does not match the rules of {code}: its quotient predicts a wrong outcome")
        return q

    def check(self) -> bool:
        """Verify the quotient exactly (every position of heaps ≤ max_heap is predicted right)."""
        options = HeapOptions(self.code)
        phi = [int(x) for x in self.phi]
        times = _table_times(self.mul)
        trans = [_transitions(times, phi, options, h) for h in range(len(phi))]
        if any(not options.live(h) and phi[h] != 0 for h in range(len(phi))):
            return False
        try:
            return verify(_Pretension(self.mul, self.p, phi, trans), options) is None
        except QuotientFailure:
            return False


def _present(mul: np.ndarray, phi: np.ndarray) -> Presentation:
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


def _is_tame(mul: np.ndarray, p: np.ndarray) -> bool:
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


def _period_proof(code: OctalCode, phi: list[int], last_bad: np.ndarray) -> tuple[int, int] | None:
    """(period, preperiod) when Φ(n + p) = Φ(n) has held from n0 through the Guy–Smith bound, else None."""
    n = len(phi) - 1
    for p in range(1, n // 2 + 1):
        n0 = int(last_bad[p]) + 1
        bound = proof_bound(code, p, n0)
        if bound is not None and n + 1 >= bound and n0 + p <= n:
            return p, n0
    return None


def misere_quotient(
    code: OctalCode | str,
    max_heap: int | None = None,
    max_order: int = MAX_ORDER,
    time_limit: float | None = None,
    progress: Callable | None = None,
) -> MisereQuotient:
    """The misère quotient of `code`: of heaps ≤ max_heap, or (max_heap None) grown until Φ is proven periodic.

    Stops as "growing" when the quotient passes `max_order` elements, a candidate cannot be built within
    the search limits, `time_limit` seconds pass, or MAX_HEAP heaps go by without a proof. On Ctrl-C the
    KeyboardInterrupt carries the quotient verified so far as its `partial` attribute.
    """
    if isinstance(code, str):
        from ..presets import resolve  # presets sit above the engine: imported late

        code, _ = resolve(code)
    if max_heap is not None and (not isinstance(max_heap, int) or max_heap < 0):
        raise InvalidArgumentError(f"--max-heap must be a non-negative whole number, not {max_heap}")
    if max_order < 1:
        raise InvalidArgumentError(f"the order limit must be positive, not {max_order}")
    t0 = time.perf_counter()
    options = HeapOptions(code)
    builder = _Builder(code, options, max_order, time_limit)
    target = MAX_HEAP if max_heap is None else max_heap
    last_bad = np.full(target + 2, -1, dtype=np.int64)
    status, reason, proof = "finite", "", None
    while builder.n < target:
        try:
            builder.add()
        except QuotientFailure as e:
            status, reason = "growing", str(e)
            break
        except KeyboardInterrupt as e:  # hand what is verified so far to the caller (to save it)
            pre = builder.pre
            e.partial = MisereQuotient(code, pre.mul, pre.p.copy(), np.array(pre.phi, dtype=np.int32),
                                       list(builder.changes), None, None, "growing", "interrupted",
                                       time.perf_counter() - t0)
            raise
        n = builder.n
        phi = builder.pre.phi
        if len(builder.pre.mul) > max_order:
            status, reason = "growing", f"the quotient passed {max_order} elements"
            break
        # last_bad[p] = the last k with Φ(k) ≠ Φ(k + p); Φ is renumbered when the quotient changes
        if builder.changes and builder.changes[-1] == n:
            arr = np.array(phi)
            last_bad[:] = -1
            for p in range(1, n + 1):
                bad = np.flatnonzero(arr[p:] != arr[:-p])
                if len(bad):
                    last_bad[p] = bad[-1]
        else:
            ks = np.arange(n - 1, -1, -1)
            arr = np.array(phi)
            bad = arr[ks] != arr[n]
            ps = n - ks
            last_bad[ps[bad]] = ks[bad]
        if progress is not None:
            progress(n, 0 if max_heap is None else max_heap, len(builder.pre.mul), f"|Q| = {len(builder.pre.mul)}")
        proof = _period_proof(code, phi, last_bad)
        if proof is not None:
            break
        if time_limit is not None and time.perf_counter() - t0 > time_limit:
            if builder.n < target:
                status, reason = "growing", f"stopped after {time_limit:g} s"
            break
    if max_heap is None and proof is None and status == "finite":
        status, reason = "growing", f"no period proven within {builder.n} heaps"
    pre = builder.pre
    period, preperiod = proof if proof else (None, None)
    return MisereQuotient(code, pre.mul, pre.p.copy(), np.array(pre.phi, dtype=np.int32), list(builder.changes),
                          period, preperiod, status, reason, time.perf_counter() - t0)


# ---- positions -------------------------------------------------------------------------------------

def quotient_solution(q: MisereQuotient, heaps) -> Solution:
    """Misère outcome and winning moves read from the quotient: products of Φ(h), O(#heaps) per position."""
    from ..position import Solution, collect_moves, parse_heaps

    heaps = parse_heaps(heaps)
    if not q.covers(heaps):
        raise ResourceLimitError(f"heap {max(heaps):,} is beyond the quotient of {q.code}, computed to heap "
                                 f"{q.max_heap:,} with no period proven")
    elems = [q.pretend(h) for h in heaps]
    mul, p = q.mul, q.p
    # the product of all heaps but one, from prefix and suffix products: O(#heaps)
    prefix = [0]
    for x in elems:
        prefix.append(int(mul[prefix[-1], x]))
    suffix = [0]
    for x in reversed(elems):
        suffix.append(int(mul[suffix[-1], x]))
    suffix.reverse()
    rest = {h: int(mul[prefix[i], suffix[i + 1]]) for i, h in enumerate(heaps)}
    outcome = "P" if p[prefix[-1]] else "N"

    def wins(h: int, leaves: tuple[int, ...]) -> bool:
        y = rest[h]
        for leaf in leaves:
            y = int(mul[y, q.pretend(leaf)])
        return bool(p[y])

    moves, truncated = collect_moves(q.code, heaps, wins) if outcome == "N" else ([], False)
    how = f"period {q.period} proven" if q.proven else f"heaps ≤ {q.max_heap}"
    return Solution(q.code, heaps, "misere", outcome, moves, truncated, [],
                    f"misère quotient (order {q.order}, {how})")

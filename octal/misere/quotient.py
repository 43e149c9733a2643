"""Misère quotients (Plambeck–Siegel): the monoid of an octal game's positions modulo misère indistinguishability.

Two positions G, H are indistinguishable when G + X and H + X have the same misère outcome for every
position X of the game; the classes form a commutative monoid Q, the P-portion P ⊆ Q holds the classes
of P-positions, and the pretending function Φ sends each heap size to its class. With Q known, a
position is decided by multiplying the classes of its heaps.

The quotient of heaps ≤ n is grown heap by heap. Every candidate (Q, P, Φ) is verified exactly
(`pretension.verify`: the pairs (Φ(w), classes of w's options) are finite and must all be consistent). A
candidate comes from the quotient so far, either unchanged (heap n pretends to be an existing element: a
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

import numpy as np

from ..displays import HtmlRepr
from . import kernel
from ..engine.periodicity import PeriodProof, holds_through, periodic_index
from ..errors import DataFileError, OctalError, ResourceLimitError
from ..io import atomic_write
from ..outcomes import FINITE, GROWING, NEXT, PREVIOUS, STOPPED
from ..positions.position import Solution, collect_moves, parse_heaps
from ..rules.code import OctalCode, parse_code
from ..rules.options import HeapOptions
from ..rules.presets import as_code
from ..validate import positive, whole_number
from . import monoid as mon
from .presentation import Presentation, is_tame, present
from .pretension import (
    Pretension,
    QuotientFailure,
    mark_p,
    set_mask,
    table_times,
    times_masks,
    transitions,
    verify,
)

MAX_ORDER = 600  # a quotient growing past this is reported as GROWING
MAX_HEAP = 2000  # heaps examined at most when looking for a period
MAX_TRIAL = 6000  # elements of a trial monoid before reduction
TRIAL_STEPS = 16  # work charged per element and generator of a trial monoid (its products, P-marking and reduction
# cost about as much as 16 verification steps: measured on the 2-digit codes, both near 10⁷ steps a second)


class StoppedByTime(QuotientFailure):
    """Internal: the outer wall-clock cap ran out (the quotient is reported as STOPPED, which no one stores)."""


def _word_text(word: tuple[int, ...]) -> str:
    """Heaps of a position, repeated ones counted: '3 ×14, 25'."""
    return ", ".join(f"{h} ×{word.count(h)}" if word.count(h) > 1 else str(h) for h in sorted(set(word)))


class _Builder:
    """Grows the quotient heap by heap; `pre` is always a verified, reduced pretension for heaps 0..n."""

    def __init__(self, code: OctalCode, options: HeapOptions, max_order: int, max_work: int | None = None,
                 time_limit: float | None = None):
        self.code = code
        self.options = options
        self.max_order = max_order
        self.max_work = max_work
        self.work = 0
        self.time_limit = time_limit
        self.deadline = None if time_limit is None else time.perf_counter() + time_limit
        self.pre = Pretension(np.zeros((1, 1), dtype=np.int32), np.zeros(1, dtype=bool), [0], [frozenset()])
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
        t = transitions(table_times(pre.mul), pre.phi, self.options, n)
        for m in range(1, n):
            if pre.trans[m] == t and self.options.live(m):  # the same generator again: nothing new is reachable
                pre.phi.append(pre.phi[m])
                pre.trans.append(t)
                return
        for x in self._candidates(t):
            self.check_time()
            trial = Pretension(pre.mul, pre.p, pre.phi + [x], pre.trans + [t])
            states: list = []
            if verify(trial, self.options, states=states, charge=self.charge) is None:
                self.pre, self.states = trial, states
                return
        self._expand(n)

    def _candidates(self, t: frozenset[int]) -> list[int]:
        """Elements x that heap n could pretend to be: right outcome alone and beside every known word."""
        pre = self.pre
        alone_p = not any(pre.p[y] for y in t)
        xs, sets = self.states
        ok = kernel.candidates(pre.mul, pre.p, set_mask(pre.p), xs, sets, times_masks(pre.mul, sorted(t)), alone_p)
        return [int(x) for x in np.flatnonzero(ok)]

    def _trial(self, base: np.ndarray, image: list[int | None], free: dict[int, tuple[int, int]]) -> Pretension:
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
        self.charge(TRIAL_STEPS * pm.size * len(gens))
        phi = [0] * len(image)
        for h, g in zip(live, gens):
            phi[h] = pm.index(g)
        trans = [transitions(pm.product, phi, self.options, h) for h in range(len(image))]
        # columns x ↦ x·e for the generators and the option classes: all the searches need
        needed = sorted({phi[h] for h in live}.union(*trans))
        col = {e: i for i, e in enumerate(needed)}
        cols = np.stack([pm.column(e) for e in needed], axis=1).astype(np.int32)
        phi_c = [col.get(x, -1) for x in phi]
        p = mark_p(cols, phi_c, [frozenset(col[y] for y in tr) for tr in trans], self.options)
        cls = mon.syntactic_classes(cols[:, sorted({phi_c[h] for h in live})], p)
        reps = mon.representatives(cls)
        qmul = np.stack([cls[pm.column(int(r))][reps] for r in reps], axis=1).astype(np.int32)
        return Pretension(qmul, p[reps].copy(), [int(cls[x]) for x in phi],
                           [frozenset(int(cls[y]) for y in tr) for tr in trans])

    def _expand(self, n: int) -> None:
        """Heap n pretends to be nothing known: give it a free generator, then recalibrate until verified."""
        pre = self.pre
        trial = self._trial(pre.mul, pre.phi + [None], {n: (2, 2)})
        for _ in range(200):
            states: list = []
            fail = verify(trial, self.options, states=states, charge=self.charge)
            if fail is None:
                self.pre, self.states = trial, states
                self.changes.append(n)
                return
            if len(trial.mul) > 4 * self.max_order:  # a runaway candidate: the order limit is far behind
                raise QuotientFailure(f"the quotient passed {self.max_order} elements")
            self.check_time()
            trial = self._recalibrate(trial, n, fail)
        raise QuotientFailure("recalibration did not converge")

    def result(self, proof: tuple[int, int] | None, status: str, reason: str, seconds: float) -> MisereQuotient:
        """The verified quotient so far, with Φ's (period, preperiod) when proven."""
        pre = self.pre
        period, preperiod = proof if proof else (None, None)
        return MisereQuotient(self.code, pre.mul, pre.p.copy(), np.array(pre.phi, dtype=np.int32),
                              list(self.changes), period, preperiod, status, reason, seconds, self.work)

    def charge(self, units: int) -> None:
        """Count work against the budget: steps of verification and products of trial monoids, never seconds, so the
        same code and budget stop at the same heap on any machine."""
        self.work += units
        if self.max_work is not None and self.work > self.max_work:
            raise QuotientFailure(f"the work budget ({self.max_work:,} steps) ran out")

    def check_time(self) -> None:
        """The optional outer wall-clock cap: reported as STOPPED, never as a result."""
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise StoppedByTime(f"stopped by time after {self.time_limit:g} s")

    def _recalibrate(self, trial: Pretension, n: int, fail: tuple[int, ...]) -> Pretension:
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
                    index, _ = mon.cyclic_type(trial.mul, trial.phi[h])
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
VERSION = 1


def _int_array(value, ndim: int) -> np.ndarray:
    """A JSON list of whole numbers (no booleans, no fractions) as an int64 array of `ndim` dimensions."""
    arr = np.array(value, dtype=object)
    if arr.ndim != ndim or any(not isinstance(x, int) or isinstance(x, bool) for x in arr.flat):
        raise ValueError(f"expected a {'table' if ndim == 2 else 'list'} of whole numbers")
    return arr.astype(np.int64)


@dataclass
class MisereQuotient(HtmlRepr):
    """The misère quotient of heaps 0..max_heap of a code: table, P-portion, pretending function Φ.

    `status` is FINITE when the quotient was settled (Φ proven periodic, or every heap up to the
    requested one computed) and GROWING when a budget stopped it; every answer it gives is exact
    for the heaps it covers.
    """

    code: OctalCode
    mul: np.ndarray
    p: np.ndarray
    phi: np.ndarray
    changes: list[int]
    period: int | None = None
    preperiod: int | None = None
    status: str = FINITE
    reason: str = ""
    seconds: float = 0.0
    work: int = 0  # steps of work spent (see _Builder.charge): the same on every machine
    source: str = ""  # where a loaded quotient was read from (it was verified there, not computed)
    _presentation: Presentation | None = field(default=None, repr=False)
    _tame: bool | str = field(default="?", repr=False)

    def __repr__(self) -> str:
        period = f", Φ period {self.period} from {self.preperiod}" if self.period is not None else ""
        return (f"MisereQuotient({self.code}: |Q| = {self.order}, |P| = {self.p_portion}, heaps 0..{self.max_heap}"
                f"{period}, {self.status})")

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
        return int(self.phi[periodic_index(h, self.period, self.preperiod)])

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
            self._presentation = present(self.mul, self.phi)
        return self._presentation

    @property
    def tame(self) -> bool:
        """True when (Q, P) is isomorphic to the quotient of nim heaps."""
        if self._tame == "?":
            self._tame = is_tame(self.mul, self.p)
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
            "work": self.work,
        }

    # ---- saving and loading --------------------------------------------------------------------
    def to_document(self) -> dict:
        return {
            "format": FORMAT,
            "version": VERSION,
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
        path = Path(path)
        if path.suffix.lower() != ".json":
            raise DataFileError(f"cannot save a quotient to {path}: use a .json file")
        atomic_write(path, (json.dumps(self.to_document(), separators=(",", ":")) + "\n").encode())
        return path

    @classmethod
    def load(cls, path: str | Path) -> MisereQuotient:
        """Read a saved quotient and verify every field against the game's rules before trusting it."""
        path = Path(path)
        try:
            doc = json.loads(path.read_text())
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as e:
            reason = e.strerror if isinstance(e, OSError) and e.strerror else e
            raise DataFileError(f"cannot read a quotient from {path}: {reason}") from None
        return cls.from_document(doc, where=str(path))

    @classmethod
    def from_document(cls, doc: dict, where: str = "document") -> MisereQuotient:
        """Rebuild a quotient from `to_document`'s shape: the table and Φ verified exactly, the period re-proven."""
        try:
            if not isinstance(doc, dict) or doc.get("format") != FORMAT:
                raise ValueError(f"not an {FORMAT} document")
            if doc.get("version") != VERSION or isinstance(doc.get("version"), bool):
                raise ValueError(f"version {doc.get('version')!r} is not one this octal reads ({VERSION})")
            code = parse_code(doc["code"])
            mul = _int_array(doc["table"], 2)
            m = len(mul)
            if mul.shape != (m, m) or m == 0 or mul.min() < 0 or mul.max() >= m:
                raise ValueError("the table is not a square table of elements")
            if not (np.array_equal(mul[0], np.arange(m)) and np.array_equal(mul[:, 0], np.arange(m))):
                raise ValueError("element 0 is not the identity")
            p_list = _int_array(doc["p"], 1)
            if len(p_list) and (p_list.min() < 0 or p_list.max() >= m):
                raise ValueError("the P-portion names elements outside the table")
            p = np.zeros(m, dtype=bool)
            p[p_list] = True
            phi = _int_array(doc["phi"], 1)
            if len(phi) == 0 or phi.min() < 0 or phi.max() >= m:
                raise ValueError("the pretending function names elements outside the table")
            changes = [int(x) for x in _int_array(doc.get("changes", []), 1)]
            if any(not 0 <= x < len(phi) for x in changes):
                raise ValueError("the heaps where the presentation changed lie outside Φ")
            period, preperiod = doc.get("period"), doc.get("preperiod")
            status = doc.get("status", FINITE)
            if status not in (FINITE, GROWING, STOPPED):
                raise ValueError(f"unknown status {status!r}")
            reason = doc.get("reason", "")
            if not isinstance(reason, str):
                raise ValueError("the reason is not text")
            if (period is None) != (preperiod is None):
                raise ValueError("a period needs its preperiod and the other way round")
            if period is not None:
                if not all(isinstance(x, int) and not isinstance(x, bool) for x in (period, preperiod)):
                    raise ValueError("the period and preperiod must be whole numbers")
                if status != FINITE:
                    raise ValueError("a proven period belongs to a finite quotient, not a growing one")
        except (KeyError, TypeError, ValueError, IndexError, OverflowError, RecursionError, OctalError) as e:
            raise DataFileError(f"{where} is not a saved misère quotient: {e}") from None
        if period is not None and not holds_through(phi, period, preperiod, code.proof_criteria):
            raise DataFileError(f"{where} claims Φ(n + {period}) = Φ(n) from heap {preperiod} for {code}, "
                                f"but its Φ does not prove that (the Guy–Smith bound is not met or Φ disagrees)")
        q = cls(code, mul.astype(np.int32), p, phi.astype(np.int32), changes, period, preperiod, status, reason,
                source=where)
        if not q.check():
            raise DataFileError(f"{where} does not match the rules of {code}: its quotient predicts a wrong outcome")
        return q

    def check(self) -> bool:
        """Verify the quotient exactly (every position of heaps ≤ max_heap is predicted right)."""
        options = HeapOptions(self.code)
        phi = [int(x) for x in self.phi]
        times = table_times(self.mul)
        trans = [transitions(times, phi, options, h) for h in range(len(phi))]
        if any(not options.live(h) and phi[h] != 0 for h in range(len(phi))):
            return False
        try:
            return verify(Pretension(self.mul, self.p, phi, trans), options) is None
        except QuotientFailure:
            return False


def misere_quotient(
    code: OctalCode | str,
    max_heap: int | None = None,
    max_order: int = MAX_ORDER,
    max_work: int | None = None,
    time_limit: float | None = None,
    progress: Callable | None = None,
) -> MisereQuotient:
    """The misère quotient of `code`: of heaps ≤ max_heap, or (max_heap None) grown until Φ is proven periodic.

    Stops as GROWING when the quotient passes `max_order` elements, a candidate cannot be built within
    the search limits, the work passes `max_work` steps (see `_Builder.charge`), or MAX_HEAP heaps go by
    without a proof: budgets of work, so the answer depends only on the arguments. `time_limit` is an outer
    cap in seconds, reported as STOPPED ("stopped by time after …"). On Ctrl-C the KeyboardInterrupt carries
    the quotient verified so far as its `partial` attribute.
    """
    code = as_code(code)
    if max_heap is not None:
        max_heap = whole_number(max_heap, "--max-heap")
    max_order = whole_number(max_order, "the order limit (--max-order)", 1)
    if max_work is not None:
        max_work = whole_number(max_work, "the work budget (--max-work)", 1)
    if time_limit is not None:
        time_limit = positive(time_limit, "the time limit in seconds")
    t0 = time.perf_counter()
    options = HeapOptions(code)
    builder = _Builder(code, options, max_order, max_work, time_limit)
    target = MAX_HEAP if max_heap is None else max_heap
    tracker = PeriodProof(code.proof_criteria, min(target, MAX_HEAP))  # Φ's period, proven as normal play's is
    status, reason, proof = FINITE, "", None
    while builder.n < target:
        try:
            builder.check_time()
            builder.add()
        except QuotientFailure as e:
            status, reason = STOPPED if isinstance(e, StoppedByTime) else GROWING, str(e)
            break
        except KeyboardInterrupt as e:  # hand what is verified so far to the caller (to save it)
            e.partial = builder.result(None, GROWING, "interrupted", time.perf_counter() - t0)
            raise
        n = builder.n
        phi = builder.pre.phi
        if len(builder.pre.mul) > max_order:
            status, reason = GROWING, f"the quotient passed {max_order} elements"
            break
        if builder.changes and builder.changes[-1] == n:  # Φ is renumbered when the quotient changes
            tracker.restart(phi)
        else:
            tracker.append(phi)
        if progress is not None:
            progress(n, 0 if max_heap is None else max_heap, len(builder.pre.mul), f"|Q| = {len(builder.pre.mul)}")
        proof = tracker.proven(len(phi))
        if proof is not None:
            break
    if max_heap is None and proof is None and status == FINITE:
        status, reason = GROWING, f"no period proven within {builder.n} heaps"
    return builder.result(proof, status, reason, time.perf_counter() - t0)


# ---- positions -------------------------------------------------------------------------------------

def quotient_solution(q: MisereQuotient, heaps) -> Solution:
    """Misère outcome and winning moves read from the quotient: products of Φ(h), O(#heaps) per position."""
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
    outcome = PREVIOUS if p[prefix[-1]] else NEXT

    def wins(h: int, leaves: tuple[int, ...]) -> bool:
        y = rest[h]
        for leaf in leaves:
            y = int(mul[y, q.pretend(leaf)])
        return bool(p[y])

    period = (q.preperiod, q.period) if q.proven else None
    moves, truncated = collect_moves(q.code, heaps, wins, period) if outcome == NEXT else ([], False)
    how = f"period {q.period} proven" if q.proven else f"heaps ≤ {q.max_heap}"
    return Solution(q.code, heaps, "misere", outcome, moves, truncated, [],
                    f"misère quotient (order {q.order}, {how})")

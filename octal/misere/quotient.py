"""Growing a misère quotient (Plambeck–Siegel): the monoid of an octal game's positions modulo misère
indistinguishability, built heap by heap (the value it yields is in value.py, its file in quotient_file.py).

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
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from ..defaults import MISERE_MAX_ORDER, MISERE_MAX_WORK
from ..engine.periodicity import PeriodProof
from ..errors import InvalidArgumentError
from ..io import check_writable
from ..outcomes import FINITE, GROWING, STOPPED
from ..rules.code import OctalCode
from ..rules.options import HeapOptions
from ..rules.presets import as_code
from ..validate import positive, whole_number
from . import kernel
from . import monoid as mon
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
from .value import MisereQuotient, new_generators, quotient_solution

MAX_ORDER = MISERE_MAX_ORDER  # a quotient growing past this is reported as GROWING
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
        ok = kernel.candidates(pre.mul, pre.p, set_mask(pre.p), xs, sets, times_masks(pre.mul, t), alone_p)
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
        qmul = cls[pm.table(reps)].astype(np.int32)
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
        phi = np.array(pre.phi, dtype=np.int32)
        # the heaps that are new generators of the final presentation (recalibration can free earlier heaps, so the
        # heaps where growth was first met are fewer): derived from the table and Φ, so a file's list can be checked
        return MisereQuotient(self.code, pre.mul, pre.p.copy(), phi, new_generators(pre.mul, phi), period, preperiod,
                              status, reason, seconds, self.work)

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


def misere_quotient(
    code: OctalCode | str,
    max_heap: int | None = None,
    max_order: int = MAX_ORDER,
    max_work: int | None = MISERE_MAX_WORK,
    time_limit: float | None = None,
    progress: Callable | None = None,
    out: str | Path | None = None,
) -> MisereQuotient:
    """The misère quotient of `code`: of heaps ≤ max_heap, or (max_heap None) grown until Φ is proven periodic.

    Stops as GROWING when the quotient passes `max_order` elements, a candidate cannot be built within
    the search limits, the work passes `max_work` steps (see `_Builder.charge`), or MAX_HEAP heaps go by
    without a proof: budgets of work, so the answer depends only on the arguments. `time_limit` is an outer
    cap in seconds, reported as STOPPED ("stopped by time after …"). On Ctrl-C the KeyboardInterrupt carries
    the quotient verified so far as its `partial` attribute. `out` names a .json file (checked before computing)
    written at the end, or on Ctrl-C with the part verified so far.
    """
    code = as_code(code)
    if max_heap is not None:
        max_heap = whole_number(max_heap, "--max-heap")
    max_order = whole_number(max_order, "the order limit (--max-order)", 1)
    if max_work is not None:
        max_work = whole_number(max_work, "the work budget (--max-work)", 1)
    if time_limit is not None:
        time_limit = positive(time_limit, "the time limit in seconds")
    if out is not None:
        check_writable(out, (".json",))
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
            if out is not None:
                e.partial.save(out)
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
    result = builder.result(proof, status, reason, time.perf_counter() - t0)
    if out is not None:
        result.save(out)
    return result


def load_or_compute(game: str | OctalCode | None = None, load: str | Path | None = None, out: str | Path | None = None,
                    max_heap: int | None = None, **budgets) -> MisereQuotient:
    """`octal misere`: the quotient saved in `load` (verified; of `game`, when one is named too), or the one
    `misere_quotient` computes for `game` within `budgets`; saved to `out` (.json, checked first) either way."""
    if load is None and game is None:
        raise InvalidArgumentError("name a game (an octal code or a preset) or --load a saved quotient")
    if out is not None:
        check_writable(out, (".json",))
    if load is None:
        return misere_quotient(game, max_heap=max_heap, out=out, **budgets)
    if max_heap is not None:
        raise InvalidArgumentError("--max-heap asks for a quotient to be computed: it does not go with --load")
    q = MisereQuotient.load(load)
    if game is not None and str(as_code(game)) != str(q.code):
        raise InvalidArgumentError(f"{load} holds the quotient of {q.code}, not of {as_code(game)}")
    if out is not None:
        q.save(out)
    return q


__all__ = ["MAX_ORDER", "MAX_HEAP", "MisereQuotient", "load_or_compute", "misere_quotient", "quotient_solution"]

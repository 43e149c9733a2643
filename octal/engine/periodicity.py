"""Periodicity of a nim sequence: detect (p, n0) in O(N), prove it with the Guy–Smith theorem.

Guy–Smith (octal periodicity theorem): for a finite code without constraints, with last non-zero digit t,
whose moves leave at most r heaps (the code's `Criteria`), if G(n+p) = G(n) for all n0 ≤ n < r·n0 + (r−1)·p + t
then it holds for every n ≥ n0.
The argument needs n0 ≥ 1 (0.04 has G(0..3) = 0 but G(4) = 1), so max(n0, 1) stands in for n0.
Arithmetic periodicity G(n+p) = G(n) + s is looked for only where it can occur: codes with a repeating
tail or hexadecimal digits (finite octal codes never have it, Horrocks–Nowakowski 2003). A power-of-two saltus is
proven by the theorem of docs/periodicity.md where its test passes (`arithmetic.saltus_bound`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..errors import InvalidArgumentError, ResourceLimitError
from ..outcomes import APPARENT, NONE, PROVEN  # noqa: F401 (the verdicts, named here for the engine's readers)
from ..rules.code import Criteria, OctalCode
from ..rules.presets import as_code
from ..validate import value_array, whole_number
from . import kernels
from .arithmetic import saltus_bound, theorem_applies
from .kernels import small
from .kernels.small import credible
from .partial import PartialPeriod, find_partial


@dataclass(frozen=True)
class Periodicity:
    """The verdict on a sequence: status, period p, preperiod n0, saltus s, and the Guy–Smith bound.

    `proof_bound` is the number of heaps (0..proof_bound−1) the certificate needs: reached when proven,
    still to be computed when apparent; None where no theorem applies.
    """

    status: str = NONE
    period: int | None = None
    preperiod: int | None = None
    saltus: int = 0
    proof_bound: int | None = None
    no_theorem: str | None = None  # why no theorem proves an apparent period (None: one does, given the heaps)
    partial: PartialPeriod | None = None  # with no period: an apparent partial arithmetic period (partial.py)

    @property
    def theorem(self) -> str | None:
        """The theorem that proves (or, given its heaps, would prove) the period: GUY_SMITH for a plain period,
        SALTUS_THEOREM for an arithmetic one; None where none applies."""
        if self.period is None or self.proof_bound is None:
            return None
        return SALTUS_THEOREM if self.saltus else GUY_SMITH

    @property
    def last_exception(self) -> int | None:
        """The last heap n0 − 1 that does not follow the period (None when n0 = 0)."""
        if self.preperiod is None or self.preperiod == 0:
            return None
        return self.preperiod - 1

    def describe(self) -> str:
        """The verdict in words, e.g. 'period 12 from heap 71 (last exception at 70) — proven by …'."""
        if self.status == NONE or self.period is None:
            if self.partial is not None:
                return f"no period, no arithmetic period; {self.partial.describe()}"
            return "no regularity found in the computed range (no period, no arithmetic period)"
        exc = self.last_exception
        last = f"(last exception at {exc:,})" if exc is not None else "(no exceptions)"
        where = f"from heap {self.preperiod:,} {last}"
        if self.saltus:
            head = f"arithmetic period {self.period:,}, saltus {self.saltus:,}, {where}"
            if self.status == PROVEN:
                return f"{head} — proven by the {SALTUS_THEOREM} with heaps 0..{self.proof_bound - 1:,}"
            if self.proof_bound is None:
                return f"apparent {head} — no theorem proves it ({self.no_theorem or 'values without their code'})"
            return f"apparent {head} — the {SALTUS_THEOREM}'s proof needs heaps 0..{self.proof_bound - 1:,}"
        head = f"period {self.period:,} {where}"
        if self.status == PROVEN:
            return f"{head} — proven by the Guy–Smith bound with heaps 0..{self.proof_bound - 1:,}"
        if self.proof_bound is None:
            return f"apparent {head} — no theorem applies to {self.no_theorem or 'values without their code'}"
        return f"apparent {head} — the Guy–Smith proof needs heaps 0..{self.proof_bound - 1:,}"

    def value(self, values: np.ndarray, heap: int) -> int:
        """G(heap) for any heap, read through the period when heap lies beyond the computed values."""
        if heap < len(values):
            return int(values[heap])
        if self.period is None or self.status != PROVEN:
            raise ResourceLimitError(f"heap {heap:,} is beyond the {len(values):,} computed values and no period is "
                                     "proven: compute more heaps")
        base = periodic_index(heap, self.period, self.preperiod)
        return int(values[base]) + self.saltus * ((heap - base) // self.period)


GUY_SMITH = "Guy–Smith theorem"  # periodicity of octal (and hexadecimal) games, Winning Ways ch. 4
SALTUS_THEOREM = "power-of-two saltus theorem"  # arithmetic periodicity, proven in docs/periodicity.md


def periodic_index(heap: int, period: int, preperiod: int) -> int:
    """The heap whose value G(heap) repeats: heap itself before n0, else n0 + (heap − n0) mod p."""
    return heap if heap < preperiod else preperiod + (heap - preperiod) % period


def through_period(values: np.ndarray, period: int, preperiod: int, length: int, saltus: int = 0) -> np.ndarray | None:
    """G(0..length−1) from the values known, continued through the period from n0 (None when they fall short):
    G(n) = G(n0 + (n − n0) mod p) + s·⌊(n − n0)/p⌋ for n ≥ n0. The one reading of a sequence through its period
    (normal values, a census row, a misère quotient's Φ)."""
    if len(values) >= length:
        return values[:length]
    idx = np.arange(length)
    base = np.where(idx < preperiod, idx, preperiod + (idx - preperiod) % period)
    if base.max() >= len(values):
        return None
    return values[base] + saltus * ((idx - base) // period) if saltus else values[base]


def holds_through(values: np.ndarray, period: int, preperiod: int, criteria: Criteria | None) -> bool:
    """Whether values (G, or a misère quotient's Φ) prove the period: V(n + p) = V(n) for every n0 ≤ n with n + p
    known, and the values known reach the Guy–Smith bound."""
    if period < 1 or preperiod < 0 or preperiod + period >= len(values):
        return False
    bound = proof_bound(criteria, period, preperiod)
    if bound is None or len(values) < bound:
        return False
    return bool(np.array_equal(values[preperiod + period:], values[preperiod:len(values) - period]))


class PeriodProof:
    """Proof of a period for values that come one at a time (a misère quotient's Φ): for every p, the last n with
    V(n) ≠ V(n + p), kept as each value arrives; the least p whose Guy–Smith bound the values reach is proven."""

    def __init__(self, criteria: Criteria | None, size: int = 64):
        self.criteria = criteria
        self.last_bad = np.full(size + 2, -1, dtype=np.int64)

    def restart(self, values) -> None:
        """All values changed (Φ renumbered): every p's last mismatch recomputed."""
        arr = np.asarray(values)
        self._room(len(arr))
        self.last_bad[:] = -1
        for p in range(1, len(arr)):
            bad = np.flatnonzero(arr[p:] != arr[:-p])
            if len(bad):
                self.last_bad[p] = bad[-1]

    def append(self, values) -> None:
        """values[-1] has just arrived: each p with V(n − p) ≠ V(n) has n − p as its last mismatch."""
        arr = np.asarray(values)
        n = len(arr) - 1
        self._room(len(arr))
        ks = np.arange(n - 1, -1, -1)
        bad = arr[ks] != arr[n]
        self.last_bad[(n - ks)[bad]] = ks[bad]

    def proven(self, count: int) -> tuple[int, int] | None:
        """(period, preperiod) of the least p proven by `count` values, else None."""
        n = count - 1
        for p in range(1, n // 2 + 1):
            n0 = int(self.last_bad[p]) + 1
            bound = proof_bound(self.criteria, p, n0)
            if bound is not None and n + 1 >= bound and n0 + p <= n:
                return p, n0
        return None

    def _room(self, count: int) -> None:
        if count + 1 > len(self.last_bad):
            self.last_bad = np.concatenate([self.last_bad, np.full(max(count + 1, 2 * len(self.last_bad)) -
                                                                   len(self.last_bad), -1, dtype=np.int64)])


EXCEPTION_CHUNK = 1 << 20  # heaps compared at a time: int64 scratch of a few MB however long the preperiod


def exceptions(values: np.ndarray, periodicity: Periodicity) -> np.ndarray:
    """The heaps n < n0 marked as exceptions the way Winning Ways and every table since mark them: G(n) differs
    from the periodic value of its residue class, G(m) − s·(m − n)/p with m = n0 + ((n − n0) mod p) (for Kayles
    0, 3, 6, 9, 11, 15, 18, 21, 22, 28, 34, 39, 57, 70); an int64 array, empty when no period is known, and without
    the heaps whose m lies beyond `values`. Compared in numpy, EXCEPTION_CHUNK heaps at a time (0.354's preperiod of
    10⁷ heaps: 14 s in a Python loop)."""
    p, n0, s = periodicity.period, periodicity.preperiod, periodicity.saltus
    if p is None or n0 is None:
        return np.zeros(0, np.int64)
    ref = np.asarray(values[n0 : n0 + p], dtype=np.int64)  # each residue class's value at m = n0 + r
    if len(ref) == 0:
        return np.zeros(0, np.int64)
    found = []
    for lo in range(0, n0, EXCEPTION_CHUNK):
        n = np.arange(lo, min(n0, lo + EXCEPTION_CHUNK), dtype=np.int64)
        r = (n - n0) % p  # m = n0 + r, and m − n is a multiple of p
        held = r < len(ref)
        expected = ref[np.minimum(r, len(ref) - 1)] - s * ((n0 + r - n) // p)
        found.append(n[held & (np.asarray(values[lo : lo + len(n)], dtype=np.int64) != expected)])
    return np.concatenate(found) if found else np.zeros(0, np.int64)


def proof_bound(criteria: Criteria | None, period: int, preperiod: int) -> int | None:
    """Heaps needed (0..bound−1) so that r·max(n0,1) + (r−1)·p + t rows of agreement are all checked;
    None when no theorem applies (criteria None: a repeating tail, an open count or a constraint)."""
    if criteria is None:
        return None
    return small.guy_smith_bound(criteria.heaps, criteria.take, period, preperiod)  # r ≥ 1: holds for larger r too


def _read_only(values: np.ndarray) -> np.ndarray:
    """The values as a contiguous read-only view (no copy where they are contiguous): numba compiles a kernel once
    for each array type it is handed, and read-only (a stored row read back) and writeable (a run's values) are two;
    handed the one, the period search compiles once a dtype, not twice."""
    view = np.ascontiguousarray(values).view()
    view.flags.writeable = False
    return view


def _search(N: int):
    """The period-search kernels for N values: plain numpy for short runs while the compiled search is not loaded
    (no compiler to load for one short command), else compiled; both are the same code, so the same verdict."""
    return small if N <= small.MAX_N and not kernels.compiled_loaded("period") else kernels


def scan_period(values: np.ndarray, code: OctalCode | str | None = None, repeats: int = 3, min_agree: int = 0,
                share: float = 1.0) -> Periodicity:
    """Minimal period and preperiod of `values`, proven by Guy–Smith when `code` is finite and the bound is met.

    Candidates p = 1, 2, … are checked from the end backwards, so a wrong p costs a few comparisons and
    one check is O(N) in practice. A proven p wins; else the least p with credible evidence: seen
    `repeats` times past n0, agreeing on at least `min_agree` heaps, over a stretch of at least
    `share`·n0 heaps (`small.credible`; with the defaults: N − n0 ≥ 4p and N − n0 ≥ n0).
    """
    G = _read_only(value_array(values))
    code = None if code is None else as_code(code)
    criteria = None if code is None else code.proof_criteria
    repeats, min_agree = whole_number(repeats, "repeats", 1), whole_number(min_agree, "min_agree")
    number = isinstance(share, (int, float, np.integer, np.floating)) and not isinstance(share, bool)
    if not number or not 0 <= share < math.inf:
        raise InvalidArgumentError(f"share must be a number from 0 up, not {share!r}")
    N = len(G)
    if N < 2:
        return Periodicity()
    provable = criteria is not None
    r = criteria.heaps if provable else 2
    t = criteria.take if provable else 0
    p, n0, proven = _search(N).scan_periods(G, N, r, t, provable, repeats, min_agree, float(share))
    p, n0 = int(p), int(n0)
    if proven:
        return Periodicity(PROVEN, p, n0, 0, proof_bound(criteria, p, n0))
    if p:
        return Periodicity(APPARENT, p, n0, 0, proof_bound(criteria, p, n0), _no_theorem(code))
    if code is not None and (not code.is_finite or code.max_heaps > 2):
        found = _find_arithmetic(G, N, repeats, share, code)
        return found if found.status != NONE else Periodicity(partial=find_partial(G))
    return Periodicity()


def judge(code: OctalCode, N: int, period: int | None, preperiod: int | None) -> Periodicity:
    """The verdict on heaps 0..N−1 known to follow `period` from `preperiod` on: proven when the Guy–Smith
    bound is met, apparent when credible (`small.credible`), none otherwise (or when no candidate is known)."""
    if not period or preperiod is None:
        return Periodicity()
    criteria = as_code(code).proof_criteria
    bound = proof_bound(criteria, period, preperiod)
    if bound is not None and bound <= N:
        return Periodicity(PROVEN, period, preperiod, 0, bound)
    if credible(N, period, preperiod):
        return Periodicity(APPARENT, period, preperiod, 0, bound, _no_theorem(as_code(code)))
    return Periodicity()


def _no_theorem(code: OctalCode | None) -> str | None:
    """Why no theorem proves a period of these values: the code's reason, or that no code came with them."""
    return "values without their code" if code is None else code.no_theorem


@dataclass(frozen=True)
class OnlinePeriod:
    """A period candidate tracked over a sliding window: p and its preperiod n0 (None: p = 0, no candidate).

    `update` looks in the newest window for the least p agreeing over at least 3p heaps. Its last
    exception is exact when it lies inside the window; when the agreement spans the whole window the
    previous n0 stands, which is exact provided updates come at least every window − 3p heaps (no
    exception can have come and gone unseen). A candidate first seen spanning a whole window that
    starts after heap 0 has no known n0 and is dropped.
    """

    period: int = 0
    preperiod: int | None = None

    def update(self, window: np.ndarray, base: int) -> "OnlinePeriod":
        """The candidate after seeing G(base..base+len(window)−1)."""
        W = _read_only(window)
        N = len(W)
        if N < 8:
            return self
        if self.period and self.preperiod is not None and self.period < N:
            # the candidate in hand first: while it still holds, a shorter agreement at the very end (p = 1 over the
            # last few heaps, say) must not push it out, since it could not come back once its n0 has left memory
            held = int(_search(N).periodic_from(W, N, self.period, N - self.period))
            if held == 0:
                return self
            if N - self.period - held >= 3 * self.period:
                return OnlinePeriod(self.period, base + held)  # its last exception is in the window: n0 is exact
        p, n0, _ = _search(N).scan_periods(W, N, 2, 0, False, 3, 0, 0.0)
        p, n0 = int(p), int(n0)
        if not p:
            return OnlinePeriod()
        if n0 > 0 or base == 0:
            return OnlinePeriod(p, base + n0)
        if p == self.period:
            return self
        return OnlinePeriod()


def _find_arithmetic(G: np.ndarray, N: int, repeats: int, share: float, code: OctalCode) -> Periodicity:
    """Least credible p with G(n+p) = G(n) + s, s > 0: proven when the power-of-two saltus theorem's test passes and
    its bound lies within the N heaps (every one of which follows the period from n0), else apparent."""
    for p in range(1, N // 4 + 1):
        s = int(G[N - 1]) - int(G[N - 1 - p])
        if s <= 0:
            continue
        n0 = int(_search(N).arithmetic_from(G, N, p, s))
        if credible(N, p, n0, repeats, 0, share):
            bound = saltus_bound(code, G, p, n0, s)
            if bound is not None and bound <= N:
                return Periodicity(PROVEN, p, n0, s, bound)
            return Periodicity(APPARENT, p, n0, s, bound, None if bound else _no_saltus_theorem(code, s))
    return Periodicity()


def _no_saltus_theorem(code: OctalCode, saltus: int) -> str:
    """Why the power-of-two saltus theorem does not prove an arithmetic period, in words."""
    if not theorem_applies(code):
        return code.no_theorem or "a code whose moves leave more than three heaps"
    if saltus & (saltus - 1):
        return "its saltus is not a power of two"
    return "its values fail the test of the power-of-two saltus theorem"

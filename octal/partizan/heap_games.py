"""Partizan heap games: a take-and-break game with one code per player (Left moves by the rules of one code, Right by
another; CGSuite's PartizanTakeAndBreak). A partizan subtraction game with sets S_L, S_R is the pair of codes with
digit 3 at each k of its set.

The value of a heap n is {G^L | G^R}, each option the sum of the values of the heaps a move leaves. Regularities:

* the outcome sequence's period — *proven* when neither code's moves leave two heaps or more: the outcome of a heap
  is then fixed by the outcomes of the heaps n − k it can move to (k ≤ t, the larger code's largest take), so once
  the outcomes repeat with period p through a window of t heaps from n0 ≥ 1, they repeat forever (induction: each
  later heap's window is a window already seen);
* the value sequence's arithmetic period G(n + p) = G(n) + x with x a number (x = 0: a period) — always apparent.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..errors import InvalidArgumentError
from ..rules.code import OctalCode
from ..rules.presets import as_code
from .canonical import ZERO, Game, add, game, neg, outcome, total
from .notation import MAX_TEXT, definitions, text_within, to_text
from .store import FormTooLarge, work_limit
from .thermal import stops

MAX_WORK = 50_000_000  # comparisons and sums spent on the values of all heaps, at most
MAX_HEAPS = 100_000  # heaps at most: 0.3 | 0.33 to there takes some 8 s and 275 MB
STOP_PAIRS = 16  # pairs whose stops are compared before a candidate value period costs a sum
REPEATS = 3  # an apparent period is seen this many times past its start


@dataclass(frozen=True)
class OutcomePeriod:
    period: int
    preperiod: int
    proven: bool

    def describe(self) -> str:
        how = ("proven: neither code's moves leave two heaps, and the outcomes repeat through a window of the "
               "largest take" if self.proven else "apparent")
        return f"period {self.period} from heap {self.preperiod} — {how}"


@dataclass(frozen=True)
class ValuePeriod:
    period: int
    preperiod: int
    saltus: Game  # a number: G(n + p) = G(n) + saltus

    def describe(self) -> str:
        head = (f"period {self.period}" if self.saltus is ZERO else
                f"arithmetic period {self.period}, saltus {to_text(self.saltus)},")
        return f"{head} from heap {self.preperiod} — apparent (no theorem here proves it)"


@dataclass(frozen=True)
class PartizanSequence:
    """The canonical value and outcome class of heaps 0..n−1 of the game (left code, right code), and the
    regularities seen."""

    left: OctalCode
    right: OctalCode
    values: tuple[Game, ...]
    outcomes: tuple[str, ...]
    outcome_period: OutcomePeriod | None
    value_period: ValuePeriod | None

    @property
    def n(self) -> int:
        return len(self.values)

    def __repr__(self) -> str:
        return f"PartizanSequence({self.left} | {self.right}: {self.n:,} heaps)"

    def to_dict(self) -> dict:
        """The `--json` shape: left, right, n, values (canonical text, heap 0 first; null for a value whose text
        would pass MAX_TEXT characters, written instead as shared definitions in value_forms, keyed by its heap),
        outcomes, outcome_period, value_period (null when none is seen)."""
        op, vp = self.outcome_period, self.value_period
        texts = [text_within(g, MAX_TEXT) for g in self.values]
        return {
            "left": str(self.left), "right": str(self.right), "n": self.n,
            "values": texts, "outcomes": list(self.outcomes),
            "outcome_period": None if op is None else {"period": op.period, "preperiod": op.preperiod,
                                                         "status": "proven" if op.proven else "apparent"},
            "value_period": None if vp is None else {"period": vp.period, "preperiod": vp.preperiod,
                                                       "saltus": to_text(vp.saltus), "status": "apparent"},
            "value_forms": {str(h): definitions(g) for h, (g, t) in enumerate(zip(self.values, texts)) if t is None},
        }


def _moves(code: OctalCode, h: int) -> set[tuple[int, ...]]:
    return {leaves for _, leaves in code.options(h)}


def partizan_values(left: OctalCode | str, right: OctalCode | str, n: int,
                    progress: Callable[[int, int, int | None, str], None] | None = None) -> PartizanSequence:
    """Values and outcomes of heaps 0..n−1 (FormTooLarge naming the heap when the forms pass MAX_WORK steps);
    `progress(done, n, None, note)` is called after each heap, the note its value's birthday."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise InvalidArgumentError(f"the number of heaps must be a whole number ≥ 1, not {n!r}")
    if n > MAX_HEAPS:
        raise InvalidArgumentError(f"at most {MAX_HEAPS:,} heaps, not {n:,} (every value is held, some 3 kB each)")
    L, R = as_code(left), as_code(right)
    values: list[Game] = []
    try:
        with work_limit(MAX_WORK):
            for h in range(n):
                lo = [total([values[x] for x in leaves]) for leaves in _moves(L, h)]
                ro = [total([values[x] for x in leaves]) for leaves in _moves(R, h)]
                values.append(game(lo, ro))
                if progress is not None:
                    progress(h + 1, n, None, f"the last value born on day {values[-1].birthday:,}")
    except FormTooLarge:
        raise FormTooLarge(f"the values of {L} | {R} grow too large to bring to canonical form past heap "
                           f"{len(values):,} (within {MAX_WORK:,} steps): ask for fewer heaps") from None
    outcomes = tuple(outcome(g) for g in values)
    return PartizanSequence(L, R, tuple(values), outcomes, _outcome_period(L, R, outcomes), _value_period(values))


def _outcome_period(L: OctalCode, R: OctalCode, outcomes: tuple[str, ...]) -> OutcomePeriod | None:
    """The least period of the outcomes (and its least start), seen REPEATS times; proven as the module says."""
    N = len(outcomes)
    one_heap = L.is_finite and R.is_finite and max(L.max_heaps, R.max_heaps) <= 1
    t = max(int(L.max_take), int(R.max_take)) if one_heap else 0
    for p in range(1, N // (REPEATS + 1) + 1):
        n0 = N - p
        while n0 > 0 and outcomes[n0 - 1] == outcomes[n0 - 1 + p]:
            n0 -= 1
        if N - n0 - p >= REPEATS * p:
            start = max(n0, 1)
            proven = one_heap and N - p >= start + t  # o(m + p) = o(m) checked for start ≤ m < start + t
            return OutcomePeriod(p, n0, proven)
    return None


def _value_period(values: list[Game]) -> ValuePeriod | None:
    """The least p with G(n + p) − G(n) the same number x for every n ≥ n0 (and its least n0), seen REPEATS times.
    Adding a number x shifts both stops by x, so a p whose last STOP_PAIRS pairs' stops do not shift alike is passed
    over without a sum; the sum then decides, pair by pair from the last."""
    N = len(values)
    st = [stops(g) for g in values]
    for p in range(1, N // (REPEATS + 1) + 1):
        d = st[N - 1][0] - st[N - 1 - p][0]  # the shift the last pairs must show, in both stops, before any sum
        if any(st[n + p][0] - st[n][0] != d or st[n + p][1] - st[n][1] != d
               for n in range(N - 1 - p, max(N - 1 - REPEATS * p, N - 1 - p - STOP_PAIRS), -1)):
            continue
        x = add(values[N - 1], neg(values[N - 1 - p]))
        if x.number is None:
            continue
        n0 = N - 1 - p
        while n0 > 0 and add(values[n0 - 1], x) is values[n0 - 1 + p]:
            n0 -= 1
        if N - n0 - p >= REPEATS * p:
            return ValuePeriod(p, n0, x)
    return None

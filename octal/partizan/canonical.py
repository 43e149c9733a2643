"""Short partizan games in canonical form (Conway, *On Numbers and Games*; Winning Ways ch. 2; Lessons in Play).

A game {G^L | G^R} is kept in its canonical form — dominated options removed, reversible options bypassed — which
is unique for each value, so canonical games are interned: two games are equal exactly when they are the same
object. G ≤ H is the usual recursion (no G^L ≥ H and no H^R ≤ G), memoized on pairs; the sum G + H is
{G^L + H, G + H^L | G^R + H, G + H^R} brought to canonical form, with numbers added as numbers and translated
through non-numbers (number translation: x + G = {x + G^L | x + G^R} when G is not a number).

Work (comparisons and sums computed, not looked up) is counted so that a caller can bound a computation whose
forms grow too large: inside `work_limit(n)`, FormTooLarge is raised once n steps are spent.
"""

from __future__ import annotations

import contextlib
from fractions import Fraction
from typing import Iterable, Iterator

from ..errors import InvalidArgumentError, ResourceLimitError
from ..outcomes import LEFT_WINS, NEXT, PREVIOUS, RIGHT_WINS


class FormTooLarge(ResourceLimitError):
    """A computation on canonical forms spent its budget of work (the forms grew too large)."""


class Game:
    """A short game in canonical form; build one with `game`, `number` or `nimber`, never directly."""

    __slots__ = ("left", "right", "number", "uid", "birthday")

    def __init__(self, left: tuple, right: tuple, uid: int = -1, num: Fraction | None = None):
        self.left = left  # canonical Left options, in a fixed order
        self.right = right
        self.uid = uid  # index in the intern table, −1 for a form still being reduced
        self.number = num  # the value when the game is a number, else None
        self.birthday = 1 + max((g.birthday for g in left + right), default=-1)

    def __hash__(self) -> int:
        return self.uid

    def __eq__(self, other: object) -> bool:
        return self is other

    def __add__(self, other: Game) -> Game:
        return add(self, other)

    def __neg__(self) -> Game:
        return neg(self)

    def __sub__(self, other: Game) -> Game:
        return add(self, neg(other))

    def __le__(self, other: Game) -> bool:
        return le(self, other)

    def __ge__(self, other: Game) -> bool:
        return le(other, self)

    def __lt__(self, other: Game) -> bool:
        return le(self, other) and not le(other, self)

    def __gt__(self, other: Game) -> bool:
        return le(other, self) and not le(self, other)

    def fuzzy(self, other: Game) -> bool:
        """G ‖ H: neither G ≤ H nor H ≤ G (confused with)."""
        return not le(self, other) and not le(other, self)


_TABLE: dict[tuple, Game] = {}
_LE: dict[tuple[int, int], bool] = {}
_SUM: dict[tuple[int, int], Game] = {}
_NEG: dict[int, Game] = {}
_NUMBERS: dict[Fraction, Game] = {}
_work = [0, None]  # steps spent, and the step count at which FormTooLarge is raised (None: no limit)


def _charge() -> None:
    _work[0] += 1
    if _work[1] is not None and _work[0] > _work[1]:
        raise FormTooLarge("the canonical forms grew beyond the budget of work")


@contextlib.contextmanager
def work_limit(steps: int | None) -> Iterator[list]:
    """Bound the comparisons and sums computed inside the block by `steps` (None: no bound); yields [spent]."""
    saved = _work[1]
    start = _work[0]
    spent = [0]
    _work[1] = None if steps is None else start + steps
    try:
        yield spent
    finally:
        spent[0] = _work[0] - start
        _work[1] = saved


def forget() -> None:
    """Drop the memo of comparisons and sums (interned forms stay): a computation bounded by `work_limit` then
    spends the same work whatever was computed before it, so its answer never depends on the history."""
    _LE.clear()
    _SUM.clear()


def _key(g: Game) -> int:
    return g.uid


def _intern(left: Iterable[Game], right: Iterable[Game], num: Fraction | None = None) -> Game:
    left = tuple(sorted(set(left), key=_key))
    right = tuple(sorted(set(right), key=_key))
    k = (tuple(g.uid for g in left), tuple(g.uid for g in right))
    g = _TABLE.get(k)
    if g is None:
        g = _TABLE[k] = Game(left, right, len(_TABLE), num)
    return g


def number(x: int | Fraction | str) -> Game:
    """The canonical form of a dyadic rational: n = {n−1 |}, −n = {| −n+1}, m/2^k = {(m−1)/2^k | (m+1)/2^k}."""
    try:
        x = Fraction(x)
    except (TypeError, ValueError, ZeroDivisionError):
        raise InvalidArgumentError(f"{x!r} is not a number") from None
    d = x.denominator
    if d & (d - 1):
        raise InvalidArgumentError(f"{x} is not a dyadic rational: short games' numbers are m/2^k")
    todo = [x]  # built from the simpler numbers up, without recursion (2000 = {1999 |} is 2000 levels deep)
    while todo:
        y = todo[-1]
        if y in _NUMBERS:
            todo.pop()
            continue
        left, right = _number_options(y)
        missing = [z for z in left + right if z not in _NUMBERS]
        if missing:
            todo.extend(missing)
            continue
        _NUMBERS[y] = _intern([_NUMBERS[z] for z in left], [_NUMBERS[z] for z in right], y)
        todo.pop()
    return _NUMBERS[x]


def _number_options(x: Fraction) -> tuple[list[Fraction], list[Fraction]]:
    """The options of x's canonical form: n = {n−1 |}, −n = {| −n+1}, m/2^k = {(m−1)/2^k | (m+1)/2^k}."""
    d = x.denominator
    if d == 1:
        n = x.numerator
        return ([x - 1] if n > 0 else []), ([x + 1] if n < 0 else [])
    return [x - Fraction(1, d)], [x + Fraction(1, d)]


ZERO = number(0)
ONE = number(1)


def nimber(k: int) -> Game:
    """*k = {0, *, …, *(k−1) | 0, *, …, *(k−1)}."""
    if k < 0:
        raise InvalidArgumentError("a nimber *k needs k ≥ 0")
    g = ZERO
    below = [ZERO]
    for _ in range(k):
        g = _intern(below, below)
        below.append(g)
    return g


STAR = nimber(1)
UP = _intern([ZERO], [STAR])  # ↑ = {0 | *}


def _simplest_between(lo: Fraction | None, hi: Fraction | None) -> Fraction:
    """The simplest number strictly between lo and hi (None: unbounded): an integer nearest 0 if one fits, else
    the dyadic of least denominator (the simplicity theorem)."""
    if (lo is None or lo < 0) and (hi is None or hi > 0):
        return Fraction(0)
    if hi is None:
        return Fraction(int(lo) + 1 if lo >= 0 else 0)
    if lo is None:
        return Fraction(-int(-hi) - 1 if hi <= 0 else 0)
    d = 1
    while True:
        m = (lo * d).__floor__() + 1
        if lo >= 0 and Fraction(m, d) < hi:
            return Fraction(m, d)
        m = (hi * d).__ceil__() - 1
        if hi <= 0 and Fraction(m, d) > lo:
            return Fraction(m, d)
        d *= 2


def le(g: Game, h: Game) -> bool:
    """G ≤ H: no Left option of G is ≥ H and no Right option of H is ≤ G."""
    if g is h:
        return True
    if g.number is not None and h.number is not None:
        return g.number <= h.number
    k = (g.uid, h.uid)
    if g.uid >= 0 and h.uid >= 0:
        r = _LE.get(k)
        if r is not None:
            return r
    _charge()
    r = not any(le(h, gl) for gl in g.left) and not any(le(hr, g) for hr in h.right)
    if g.uid >= 0 and h.uid >= 0:
        _LE[k] = r
    return r


def _maximal(opts: list[Game]) -> list[Game]:
    """Drop dominated Left options: keep those no other option is ≥."""
    return [a for i, a in enumerate(opts) if not any(j != i and le(a, b) for j, b in enumerate(opts))]


def _minimal(opts: list[Game]) -> list[Game]:
    return [a for i, a in enumerate(opts) if not any(j != i and le(b, a) for j, b in enumerate(opts))]


def game(left: Iterable[Game], right: Iterable[Game]) -> Game:
    """The canonical form of {left | right} (options of any form that are themselves canonical Games)."""
    left = list(dict.fromkeys(left))
    right = list(dict.fromkeys(right))
    while True:
        if all(g.number is not None for g in left + right):
            lo = max((g.number for g in left), default=None)
            hi = min((g.number for g in right), default=None)
            if lo is None or hi is None or lo < hi:
                return number(_simplest_between(lo, hi))
            return _intern([number(lo)], [number(hi)])  # {a | b} with a ≥ b numbers: hot, already canonical
        left, right = _maximal(left), _minimal(right)
        here = Game(tuple(left), tuple(right))
        changed = False
        new_left: list[Game] = []
        for gl in left:
            # G^L is reversible through G^LR ≤ G: replace it by the Left options of G^LR
            through = next((x for x in gl.right if le(x, here)), None)
            changed |= through is not None
            new_left.extend(through.left if through is not None else (gl,))
        new_right: list[Game] = []
        for gr in right:
            through = next((x for x in gr.left if le(here, x)), None)
            changed |= through is not None
            new_right.extend(through.right if through is not None else (gr,))
        left, right = list(dict.fromkeys(new_left)), list(dict.fromkeys(new_right))
        if not changed:
            break
    if all(g.number is not None for g in left + right):
        return game(left, right)
    return _intern(left, right)


def neg(g: Game) -> Game:
    """−G = {−G^R | −G^L} (the negative of a canonical form is canonical)."""
    r = _NEG.get(g.uid)
    if r is None:
        r = _intern([neg(x) for x in g.right], [neg(x) for x in g.left],
                    None if g.number is None else -g.number)
        _NEG[g.uid] = r
    return r


def add(g: Game, h: Game) -> Game:
    """G + H in canonical form (the disjunctive sum: a move is a move in exactly one summand)."""
    if g is ZERO:
        return h
    if h is ZERO:
        return g
    if g.number is not None and h.number is not None:
        return number(g.number + h.number)
    if g.uid > h.uid:
        g, h = h, g
    k = (g.uid, h.uid)
    r = _SUM.get(k)
    if r is not None:
        return r
    _charge()
    if g.number is not None:  # number translation: x + H = {x + H^L | x + H^R}
        r = game([add(g, x) for x in h.left], [add(g, x) for x in h.right])
    elif h.number is not None:
        r = game([add(x, h) for x in g.left], [add(x, h) for x in g.right])
    else:
        r = game([add(x, h) for x in g.left] + [add(g, x) for x in h.left],
                 [add(x, h) for x in g.right] + [add(g, x) for x in h.right])
    _SUM[k] = r
    return r


def total(games: Iterable[Game]) -> Game:
    """The sum of many games (numbers first added as numbers, equal hot parts kept together)."""
    acc = ZERO
    others = []
    for g in games:
        if g.number is not None:
            acc = number(acc.number + g.number)
        else:
            others.append(g)
    for g in sorted(others, key=lambda x: x.birthday):
        acc = add(acc, g)
    return acc


def outcome(g: Game) -> str:
    """The outcome class: L (Left wins whoever starts, G > 0), R (G < 0), P (the second player wins, G = 0) or
    N (the first player wins, G ‖ 0)."""
    ge, le0 = le(ZERO, g), le(g, ZERO)
    return PREVIOUS if ge and le0 else LEFT_WINS if ge else RIGHT_WINS if le0 else NEXT


def left_wins_first(g: Game) -> bool:
    """Left, moving first, wins: some Left option is ≥ 0."""
    return any(le(ZERO, x) for x in g.left)


def right_wins_first(g: Game) -> bool:
    return any(le(x, ZERO) for x in g.right)

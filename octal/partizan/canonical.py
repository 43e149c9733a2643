"""Short partizan games in canonical form (Conway, *On Numbers and Games*; Winning Ways ch. 2; Lessons in Play).

A game {G^L | G^R} is kept in its canonical form — dominated options removed, reversible options bypassed — which
is unique for each value, so canonical games are interned: two games are equal exactly when they are the same
object. G ≤ H is the usual recursion (no G^L ≥ H and no H^R ≤ G), memoized on pairs; the sum G + H is
{G^L + H, G + H^L | G^R + H, G + H^R} brought to canonical form, with numbers added as numbers and translated
through non-numbers (number translation: x + G = {x + G^L | x + G^R} when G is not a number).

A form x + n·↑ + *k (x a dyadic rational) is recognised when it is built and keeps (x, n, k) as `nus`: ≤, + and −
of two such forms follow from the theory of ups and stars without the recursion, as CGSuite does.

Every memo lives in one bounded `FormStore`, `STORE`; `forget()` empties it. Work (comparisons and sums computed,
not looked up) is counted so that a caller can bound a computation whose forms grow too large: inside
`work_limit(n)`, FormTooLarge is raised once n steps are spent.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from ..errors import InvalidArgumentError
from ..outcomes import LEFT_WINS, NEXT, PREVIOUS, RIGHT_WINS
from .form import LazyOptions
from .notation import to_text
from .store import STORE, Nus
from .upstar import dyadic, number_options, nus_le, recognise, simplest_between


class Game:
    """A short game in canonical form; build one with `game`, `number`, `nimber` or `number_up_star`, never
    directly."""

    __slots__ = ("__weakref__", "birthday", "left", "number", "nus", "right", "uid")

    def __init__(self, left: tuple, right: tuple, uid: int = -1, num: Fraction | None = None,
                 nus: Nus | None = None):
        self.left = left  # canonical Left options, in a fixed order
        self.right = right
        self.uid = uid  # the store's serial number of an interned form, −1 for a form still being reduced
        self.number = num  # the value when the game is a number, else None
        self.nus = nus  # (x, n, k) when the game is x + n·↑ + *k, else None
        self.birthday = 1 + max((g.birthday for g in left + right), default=-1)

    def __repr__(self) -> str:
        return f"Game({to_text(self)})"

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


class Number(LazyOptions, Game):
    """A number x in canonical form whose options are made when first read: so number(10**7) is as cheap as
    number(1), and ≤, + and − between numbers read x itself (`nus`). Reading its options goes one level down the
    chain n = {n−1 |} at a time, never further than the comparison needs."""

    __slots__ = ()

    def __init__(self, x: Fraction, uid: int):  # the options stay unset until read
        self.uid, self.number, self.nus = uid, x, (x, 0, 0)
        whole = abs(x.numerator) // x.denominator
        self.birthday = whole if x.denominator == 1 else whole + x.denominator.bit_length()  # m/2^k: ⌊|x|⌋ + 1 + k

    def _options(self) -> tuple[tuple, tuple]:
        try:
            return Game.left.__get__(self), Game.right.__get__(self)
        except AttributeError:
            lo, hi = number_options(self.number)
            Game.left.__set__(self, tuple(_number(z) for z in lo))
            Game.right.__set__(self, tuple(_number(z) for z in hi))
            return Game.left.__get__(self), Game.right.__get__(self)


def _key(g: Game) -> int:
    return g.uid


_READ = object()


def _intern(left: Iterable[Game], right: Iterable[Game], nus: Nus | None | object = _READ) -> Game:
    """The one form {left | right} (canonical options of a canonical form, not a number: `number` makes those),
    made on first sight; `nus`: its (x, n, k) where the caller knows it, else read off its options (`recognise`)."""
    left = tuple(sorted(set(left), key=_key))
    right = tuple(sorted(set(right), key=_key))
    k = (tuple(g.uid for g in left), tuple(g.uid for g in right))
    g = STORE.forms.get(k)
    if g is None:
        g = Game(left, right, STORE.serial, None, recognise(left, right) if nus is _READ else nus)
        STORE.serial += 1
        STORE.forms[k] = g
    return g


def number(x: int | Fraction | str) -> Game:
    """The canonical form of a dyadic rational: n = {n−1 |}, −n = {| −n+1}, m/2^k = {(m−1)/2^k | (m+1)/2^k}.
    O(1) whatever x, as in CGSuite: its options are made when first read (`Number`), one level at a time."""
    return _number(dyadic(x))


def _number(x: Fraction) -> Game:
    """`number` of a dyadic x already checked (the sums' shortcut)."""
    key = (x.numerator, x.denominator)
    g = STORE.held_numbers.get(key)
    if g is None:
        g = STORE.numbers.get(key)
        if g is None:
            g = Number(x, STORE.serial)
            STORE.serial += 1
            STORE.numbers[key] = g
        STORE.remember(STORE.held_numbers, key, g)
    return g


def number_up_star(x: int | Fraction | str = 0, n: int = 0, k: int = 0) -> Game:
    """The canonical form of x + n·↑ + *k (↓ for n < 0), built from its known form without any comparison:
    x + *k = {x + *j, j < k | the same}, x + ↑* = {x, x* | x}, x + n·↑ + *k = {x | x + (n−1)·↑ + *(k⊕1)} for
    n ≥ 1, the negatives mirrored (see `recognise`)."""
    if k < 0:
        raise InvalidArgumentError("a nimber *k needs k ≥ 0")
    return _nus_form(dyadic(x), n, k)


def _nus_form(x: Fraction, n: int, k: int) -> Game:
    """`number_up_star` of a dyadic x already checked (the sums' and negatives' shortcut)."""
    if n == 0 and k == 0:
        return _number(x)
    g = STORE.built.get((x, n, k))
    if g is not None:
        return g
    base = _number(x)
    if n == 0:
        prev = STORE.built.get((x, 0, k - 1)) if k > 1 else None
        if prev is not None:  # x + *(k−1)'s options and itself: all k forms below (*1024's incentives build a chain)
            g = _intern([*prev.left, prev], [*prev.left, prev], (x, 0, k))
            STORE.remember(STORE.built, (x, 0, k), g)
            return g
        below = [base]  # x, x*, x*2, …: each one's options are all those before it
        for j in range(1, k + 1):
            g = STORE.built.get((x, 0, j))
            if g is None:
                g = _intern(below, below, (x, 0, j))
                STORE.remember(STORE.built, (x, 0, j), g)
            below.append(g)
        return below[k]
    sign, steps = (1, n) if n > 0 else (-1, -n)

    def star_at(level: int) -> int:  # the nimber of the form `level` steps up the chain x + ↑ + …
        return k ^ ((steps - level) & 1)

    level = steps - 1  # the highest form of the chain already built (0: none)
    while level > 0 and (g := STORE.built.get((x, sign * level, star_at(level)))) is None:
        level -= 1
    if level == 0:
        level, j = 1, star_at(1)
        if j == 1:  # x + ↑* = {x, x* | x}
            x_star = _nus_form(x, 0, 1)
            g = _intern([base, x_star], [base]) if sign > 0 else _intern([base], [base, x_star])
        else:
            below = _nus_form(x, 0, j ^ 1)
            g = _intern([base], [below]) if sign > 0 else _intern([below], [base])
        STORE.remember(STORE.built, (x, sign, j), g)
    for lv in range(level + 1, steps + 1):
        g = _intern([base], [g]) if sign > 0 else _intern([g], [base])
        STORE.remember(STORE.built, (x, sign * lv, star_at(lv)), g)
    return g


ZERO = number(0)
ONE = number(1)


def nimber(k: int) -> Game:
    """*k = {0, *, …, *(k−1) | 0, *, …, *(k−1)}."""
    if isinstance(k, bool) or not isinstance(k, int):
        raise InvalidArgumentError(f"a nimber *k needs a whole number k, not {k!r}")
    return number_up_star(0, 0, k)


STAR = nimber(1)
UP = number_up_star(0, 1, 0)  # ↑ = {0 | *}


def up_nth(n: int) -> Game:
    """↑ⁿ, "up-nth" (CGSuite's ^<n>): ↑¹ = ↑, ↑ⁿ = {0 | ↓^[n−1]*} with ↓^[k] = −(↑ + ↑² + … + ↑ᵏ) (Siegel,
    Combinatorial Game Theory II.4: ↑² = {0 | ↓*}, ↑³ = {0 | ↓ + ↓² + *})."""
    return UP if n == 1 else game([ZERO], [add(neg(up_sum(n - 1)), STAR)])


def up_sum(n: int) -> Game:
    """↑ + ↑² + … + ↑ⁿ (CGSuite's ^[n]): ↑^[1] = ↑, ↑^[n+1] = {↑^[n] | *}."""
    g = UP
    for _ in range(n - 1):
        g = game([g], [STAR])
    return g


def le(g: Game, h: Game) -> bool:
    """G ≤ H: memoized on serial numbers; by the ups and stars when both are x + n·↑ + *k (Fraction's comparisons
    cost more than the lookup, so the memo is asked first), else by `le_by_options`."""
    if g is h:
        return True
    if g.uid < 0 or h.uid < 0:
        return le_by_options(g, h)
    k = (g.uid, h.uid)
    r = STORE.le.get(k)
    if r is None:
        a, b = g.nus, h.nus
        r = nus_le(a, b) if a is not None and b is not None else le_by_options(g, h)
        STORE.remember(STORE.le, k, r)
    return r


def le_by_options(g: Game, h: Game) -> bool:
    """G ≤ H by the definition: no Left option of G is ≥ H and no Right option of H is ≤ G (one step of work)."""
    STORE.charge()
    for x in g.left:
        if le(h, x):
            return False
    for x in h.right:
        if le(x, g):
            return False
    return True


def undominated(opts: list[Game], greatest: bool = True) -> list[Game]:
    """The options no other one dominates (distinct options): for Left (greatest) those no other is ≥, for Right
    those no other is ≤."""
    if len(opts) < 2:
        return opts
    if all(o.nus is not None for o in opts):  # x + n·↑ + *k each: compared by their values, no memo to fill
        return [a for a in opts if not any(b is not a and (nus_le(a.nus, b.nus) if greatest else nus_le(b.nus, a.nus))
                                           for b in opts)]
    kept = []
    for a in opts:
        for b in opts:
            if b is not a and (le(a, b) if greatest else le(b, a)):
                break
        else:
            kept.append(a)
    return kept


class _Scratch:
    """{left | right} while it is being reduced: compared by `le_by_options`, never memoized (uid −1)."""

    __slots__ = ("left", "nus", "number", "right", "uid")

    def __init__(self, left: tuple, right: tuple):
        self.left, self.right, self.uid, self.number, self.nus = left, right, -1, None, None


def _all_numbers(games: list[Game]) -> bool:
    for g in games:
        if g.number is None:
            return False
    return True


def game(left: Iterable[Game], right: Iterable[Game]) -> Game:
    """The canonical form of {left | right} (options of any form that are themselves canonical Games)."""
    left = list(dict.fromkeys(left))
    right = list(dict.fromkeys(right))
    while True:
        if _all_numbers(left) and _all_numbers(right):
            lo = max((g.number for g in left), default=None)
            hi = min((g.number for g in right), default=None)
            if lo is None or hi is None or lo < hi:
                return _number(simplest_between(lo, hi))
            return _intern([_number(lo)], [_number(hi)])  # {a | b} with a ≥ b numbers: hot, already canonical
        left, right = undominated(left), undominated(right, False)
        here = _Scratch(tuple(left), tuple(right))
        new_left, changed_left = _bypass(left, here, True)
        new_right, changed_right = _bypass(right, here, False)
        if not (changed_left or changed_right):
            break
        left, right = list(dict.fromkeys(new_left)), list(dict.fromkeys(new_right))
    if _all_numbers(left) and _all_numbers(right):
        return game(left, right)
    return _intern(left, right)


def _bypass(opts: list[Game], here: _Scratch, left: bool) -> tuple[list[Game], bool]:
    """Reversible options replaced: a Left option G^L is reversible through a G^LR ≤ G, and is replaced by the Left
    options of G^LR (Right's mirrored); the new options and whether any was replaced."""
    out: list[Game] = []
    changed = False
    for g in opts:
        for x in (g.right if left else g.left):
            if le(x, here) if left else le(here, x):
                out.extend(x.left if left else x.right)
                changed = True
                break
        else:
            out.append(g)
    return out, changed


def neg(g: Game) -> Game:
    """−G = {−G^R | −G^L} (the negative of a canonical form is canonical); −(x + n·↑ + *k) = −x − n·↑ + *k."""
    r = STORE.negatives.get(g.uid)
    if r is None:
        if g.nus is not None:
            x, n, k = g.nus
            r = _nus_form(-x, -n, k)
        else:
            r = _intern([neg(x) for x in g.right], [neg(x) for x in g.left])
        STORE.remember(STORE.negatives, g.uid, r)
    return r


def add(g: Game, h: Game) -> Game:
    """G + H in canonical form (the disjunctive sum: a move is a move in exactly one summand), memoized; two forms
    x + n·↑ + *k add as (x + y) + (n + m)·↑ + *(k ⊕ j), any others by `add_by_options`."""
    if g is ZERO:
        return h
    if h is ZERO:
        return g
    if g.number is not None and h.number is not None:
        return _number(g.number + h.number)
    if g.uid > h.uid:
        g, h = h, g
    k = (g.uid, h.uid)
    r = STORE.sums.get(k)
    if r is None:
        if g.nus is not None and h.nus is not None:
            (x, n, a), (y, m, b) = g.nus, h.nus
            r = _nus_form(x + y, n + m, a ^ b)
        else:
            r = add_by_options(g, h)
        STORE.remember(STORE.sums, k, r)
    return r


def add_by_options(g: Game, h: Game) -> Game:
    """G + H by the definition {G^L + H, G + H^L | G^R + H, G + H^R}, brought to canonical form; a number x is
    translated through instead (x + H = {x + H^L | x + H^R}). One step of work."""
    STORE.charge()
    if g.number is not None and h.number is not None:
        return _nus_form(g.number + h.number, 0, 0)
    if g.number is not None:
        return game([add(g, x) for x in h.left], [add(g, x) for x in h.right])
    if h.number is not None:
        return game([add(x, h) for x in g.left], [add(x, h) for x in g.right])
    return game([add(x, h) for x in g.left] + [add(g, x) for x in h.left],
                [add(x, h) for x in g.right] + [add(g, x) for x in h.right])


def total(games: Iterable[Game]) -> Game:
    """The sum of many games (numbers first added as numbers, equal hot parts kept together)."""
    games = games if isinstance(games, (list, tuple)) else list(games)
    if len(games) <= 2:  # a heap's options: most leave one heap or two
        return games[0] if len(games) == 1 else add(games[0], games[1]) if games else ZERO
    num, den, others = 0, 1, []  # the numbers' sum num / den (den a power of two: integers, not Fractions), the rest
    for g in games:
        x = g.number
        if x is None:
            others.append(g)
        elif x.denominator <= den:
            num += x.numerator * (den // x.denominator)
        else:
            num, den = num * (x.denominator // den) + x.numerator, x.denominator
    acc = _number(Fraction(num, den))
    for g in sorted(others, key=lambda y: y.birthday):
        acc = add(acc, g)
    return acc


def outcome(g: Game) -> str:
    """The outcome class: L (Left wins whoever starts, G > 0), R (G < 0), P (the second player wins, G = 0) or
    N (the first player wins, G ‖ 0)."""
    ge, le0 = le(ZERO, g), le(g, ZERO)
    return PREVIOUS if ge and le0 else LEFT_WINS if ge else RIGHT_WINS if le0 else NEXT




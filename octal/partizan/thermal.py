"""Stops and thermographs of short games (Winning Ways ch. 6; Siegel, Combinatorial Game Theory II.5), in CGSuite's
convention: temperatures from t = −1, so an integer has temperature −1 and m/2^k (k ≥ 1) has −1/2^k.

A wall is a piecewise linear function of the temperature t ≥ −1 with slopes 0 and ±1. The thermograph of an integer
n is the mast x = n; of any other canonical game G, the scaffold L(t) = max over G^L of (the right wall of G^L)(t) − t
and R(t) = min over G^R of (the left wall of G^R)(t) + t, cut where they first meet (L(t) ≤ R(t)), at the game's
temperature, by the mast at its mean above it. The stops are the walls at t = 0.

A left wall has slopes −1 and 0 only, a right wall 0 and 1 (by induction: a mast has slope 0; a Left scaffold is a
max of right walls less t, slopes −1 and 0, and a max keeps its pieces' slopes; Right's alike). So two walls of one
scaffold cross at whole units of the walls' 2^−e, and L and R, closing at 1 or 2, meet at a whole unit or a half.
Every coordinate is thus dyadic: a wall holds them as integers over one power of two, 2^e, raised a bit where L and
R meet at a half: exact, and integer arithmetic instead of Fraction's; the walls' points, the mean and the
temperature are given as fractions.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from .form import Form
from .store import STORE


class Wall:
    """x(t) for t ≥ −1: through the points (t_i, x_i) (t_0 = −1, increasing), each followed by a slope of −1, 0 or 1
    up to the next point (the last one's beyond it); held as integers over 2^e."""

    __slots__ = ("e", "slopes", "ts", "xs")

    def __init__(self, e: int, ts: tuple[int, ...], xs: tuple[int, ...], slopes: tuple[int, ...]):
        self.e, self.ts, self.xs, self.slopes = e, ts, xs, slopes

    @property
    def points(self) -> tuple[tuple[Fraction, Fraction], ...]:
        d = 1 << self.e
        return tuple((Fraction(t, d), Fraction(x, d)) for t, x in zip(self.ts, self.xs))

    @property
    def slope(self) -> Fraction:
        """The slope past the last point."""
        return Fraction(self.slopes[-1])

    def at(self, t: Fraction) -> Fraction:
        d = 1 << self.e
        u = Fraction(t) * d
        i = max(0, _last_at_most(self.ts, u))
        return (self.xs[i] + self.slopes[i] * (u - self.ts[i])) / d

    def breaks(self) -> list[Fraction]:
        return [Fraction(t, 1 << self.e) for t in self.ts]

    def tilted(self, c: int) -> Wall:
        """x(t) + c·t."""
        return Wall(self.e, self.ts, tuple([x + c * t for t, x in zip(self.ts, self.xs)]),
                    tuple([s + c for s in self.slopes]))

    def scaled(self, e: int) -> Wall:
        """The same wall over 2^e (e ≥ self.e)."""
        k = e - self.e
        return self if k == 0 else Wall(e, tuple([t << k for t in self.ts]), tuple([x << k for x in self.xs]),
                                        self.slopes)

    def _normal(self) -> tuple:
        """The wall over the least power of two that holds it (equal walls alike, whatever their e)."""
        z = self.e
        for v in self.ts + self.xs:
            if v:
                z = min(z, (v & -v).bit_length() - 1)
        return self.e - z, tuple(t >> z for t in self.ts), tuple(x >> z for x in self.xs), self.slopes

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Wall) and self._normal() == other._normal()

    def __hash__(self) -> int:
        return hash(self._normal())

    def __repr__(self) -> str:
        return f"Wall({self.points}, slope {self.slope})"


def _last_at_most(ts: tuple, u) -> int:
    """The index of the last t_i ≤ u (−1 when u < t_0)."""
    i = len(ts) - 1
    while i >= 0 and ts[i] > u:
        i -= 1
    return i


def _extreme(walls: list[Wall], pick) -> Wall:
    """The pointwise max (pick = max) or min of a scaffold's walls (two or more), folded two at a time."""
    sign = 1 if pick is max else -1
    e = max([w.e for w in walls])
    out = walls[0].scaled(e)
    for w in walls[1:]:
        out = _extreme2(out, w.scaled(e), sign)
    return out


def _extreme2(a: Wall, b: Wall, sign: int) -> Wall:
    """The max (sign 1) or min (sign −1) of two walls of one scaffold over one 2^e, by one walk over both walls'
    breaks. Their slopes differ by 1 at most (see the module's note), so they cross at whole units of 2^−e. A point
    is kept only where the slope changes (and the first), so equal walls are held alike."""
    at, ax, sa_ = a.ts, a.xs, a.slopes
    bt, bx, sb_ = b.ts, b.xs, b.slopes
    na, nb = len(at) - 1, len(bt) - 1
    i = j = 0
    t, va, vb = at[0], ax[0], bx[0]
    ts: list[int] = []
    xs: list[int] = []
    ss: list[int] = []
    while True:
        sa, sb = sa_[i], sb_[j]
        nxt = min(at[i + 1] if i < na else _FAR, bt[j + 1] if j < nb else _FAR)
        d, ds = (va - vb) * sign, (sa - sb) * sign
        if d > 0 or (d == 0 and ds >= 0):
            x, s, other = va, sa, sb
        else:
            x, s, other = vb, sb, sa
        if not ss or s != ss[-1]:
            ts.append(t)
            xs.append(x)
            ss.append(s)
        if d * ds < 0 and t + abs(d) < nxt:  # they cross at t + |d| (|ds| = 1), before the next break
            ts.append(t + abs(d))
            xs.append(x + s * abs(d))
            ss.append(other)
        if nxt == _FAR:
            return Wall(a.e, tuple(ts), tuple(xs), tuple(ss))
        va += sa * (nxt - t)
        vb += sb * (nxt - t)
        t = nxt
        if i < na and at[i + 1] == t:
            i += 1
        if j < nb and bt[j + 1] == t:
            j += 1


_FAR = float("inf")


class Thermograph:
    """The walls (x as t grows from −1), the mast's value (the mean) and the temperature where the walls meet."""

    __slots__ = ("_as_left", "_as_right", "_m", "_t", "left", "right")

    def __init__(self, left: Wall, right: Wall, m: int, t: int):
        self.left, self.right, self._m, self._t = left, right, m, t  # mean and temperature over the walls' 2^e
        self._as_left = self._as_right = None

    def as_left_option(self) -> Wall:
        """Its right wall − t: its share of the Left scaffold of a game it is a Left option of (made once)."""
        if self._as_left is None:
            self._as_left = self.right.tilted(-1)
        return self._as_left

    def as_right_option(self) -> Wall:
        """Its left wall + t, for a Right scaffold."""
        if self._as_right is None:
            self._as_right = self.left.tilted(1)
        return self._as_right

    @property
    def mean(self) -> Fraction:
        return Fraction(self._m, 1 << self.left.e)

    @property
    def temperature(self) -> Fraction:
        return Fraction(self._t, 1 << self.left.e)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Thermograph) and (self.left, self.right, self.mean, self.temperature) == (
            other.left, other.right, other.mean, other.temperature)

    def __hash__(self) -> int:
        return hash((self.left, self.mean, self.temperature))

    def __repr__(self) -> str:
        return f"Thermograph(mean {self.mean}, temperature {self.temperature})"


def thermograph(g: Form) -> Thermograph:
    """The thermograph of a canonical game (memoized in the store of forms, on its serial number)."""
    found = STORE.thermographs.get(g.uid)
    return found if found is not None else _bottom_up(g, STORE.thermographs, _thermograph, _thermograph_needs)


def stops(g: Form) -> tuple[Fraction, Fraction]:
    """(left stop, right stop): where play ends when Left (Right) starts and both play well until a number is
    reached — a number itself, else the largest right stop of a Left option (the least left stop of a Right one)."""
    found = STORE.stops.get(g.uid)
    return found if found is not None else _bottom_up(g, STORE.stops, _stops, _stops_need)


_SHALLOW = 64  # a game born by this day is measured by recursion (three frames a day), quicker than a stack


def _bottom_up(g: Form, memo: dict, make: Callable, needs: Callable) -> object:
    """make(g), memoized in memo, after make of the subgames it needs (`needs`: all its options, or fewer where the
    answer is known in closed form): by recursion when g is born by day _SHALLOW, else from a stack of its own. A
    number m/2^k is k options deep, and a game may be born past Python's 1,000 frames."""
    if g.birthday <= _SHALLOW:
        found = make(g)
        STORE.remember(memo, g.uid, found)
        return found
    stack = [g]
    while stack:
        x = stack[-1]
        if x.uid in memo:
            stack.pop()
            continue
        missing = [y for y in needs(x) if y.uid not in memo]
        if missing:
            stack += missing
            continue
        stack.pop()
        found = make(x)  # its options' are memoized (or, past a clear of the store, made again)
        STORE.remember(memo, x.uid, found)
    return found


def _integer(g: Form) -> bool:
    return g.number is not None and g.number.denominator == 1


def _star_option(g: Form) -> Form | None:
    """x + * among the options of x + *k, k ≥ 2, whose thermograph is x + *'s: each x + *j (j ≥ 1) has the Left
    scaffold of x + * (the max of x's right wall less t, met by x + *'s own from below) and Right's alike, by
    induction on k; None for any other game."""
    if g.nus is None or g.nus[1] != 0 or g.nus[2] < 2:
        return None
    return next(y for y in g.left if y.nus == (g.nus[0], 0, 1))


def _thermograph_needs(g: Form) -> tuple[Form, ...]:
    if _integer(g):
        return ()
    star = _star_option(g)
    return (star,) if star is not None else g.left + g.right


def _stops_need(g: Form) -> tuple[Form, ...]:
    """No subgame where the stops are known: x + n·↑ + *k stops at x whoever starts (a number: n = k = 0)."""
    return () if g.nus is not None else g.left + g.right


def _stops(g: Form) -> tuple[Fraction, Fraction]:
    if g.nus is not None:
        return g.nus[0], g.nus[0]
    return (max([stops(x)[1] for x in g.left]),
            min([stops(x)[0] for x in g.right]))


def _thermograph(g: Form) -> Thermograph:
    if _integer(g):
        n = int(g.number)
        mast = Wall(0, (-1,), (n,), (0,))
        return Thermograph(mast, mast, n, -1)
    star = _star_option(g)
    if star is not None:
        return thermograph(star)
    left, right = g.left, g.right
    L = (thermograph(left[0]).as_left_option() if len(left) == 1 else
         _extreme([thermograph(x).as_left_option() for x in left], max))
    R = (thermograph(right[0]).as_right_option() if len(right) == 1 else
         _extreme([thermograph(x).as_right_option() for x in right], min))
    if L.e != R.e:
        e = max(L.e, R.e)
        L, R = L.scaled(e), R.scaled(e)
    return _capped(L, R)


def _capped(L: Wall, R: Wall) -> Thermograph:
    """The scaffolds L and R (over one 2^e) up to T, the least t ≥ −1 with L(t) ≤ R(t), then the mast at their value
    there: T found by one walk over both walls' breaks, where L − R is linear. Closing at 1 or 2, they meet at a
    whole unit of 2^−e or at a half; then the thermograph is held over 2^(e+1)."""
    lt, lx, ls = L.ts, L.xs, L.slopes
    rt, rx, rs = R.ts, R.xs, R.slopes
    nl, nr = len(lt) - 1, len(rt) - 1
    i = j = 0
    t, d = lt[0], lx[0] - rx[0]  # > 0: only an integer has temperature −1, so L and R meet past t = −1
    while True:
        closing = rs[j] - ls[i]  # how fast L − R falls past t
        nxt = min(lt[i + 1] if i < nl else _FAR, rt[j + 1] if j < nr else _FAR)
        if nxt == _FAR:  # the last segment, without end
            if closing <= 0:
                raise ValueError("walls that never meet: not a short game's")
            break
        if d <= closing * (nxt - t):  # d > 0, so only when closing > 0
            break
        d -= closing * (nxt - t)
        t = nxt
        if i < nl and lt[i + 1] == t:
            i += 1
        if j < nr and rt[j + 1] == t:
            j += 1
    q, up = divmod(d, closing)  # they meet at t + q, or a half past it (up = 1: one more bit)
    T = ((t + q) << up) + up
    m = (lx[i] << up) + ls[i] * (T - (lt[i] << up))
    return Thermograph(_cut(L, i + 1, T, m, up), _cut(R, j + 1, T, m, up), m, T)


def _cut(w: Wall, k: int, T: int, m: int, up: int) -> Wall:
    """The wall's first k points (those before T; over one more bit when up is 1), then the mast x = m from T (a
    point of its own only where the slope changes there)."""
    ts, xs, ss = w.ts[:k], w.xs[:k], w.slopes[:k]
    if up:  # what Wall.scaled does, written out: a Wall less on the hot path
        ts, xs = tuple([t << 1 for t in ts]), tuple([x << 1 for x in xs])
    if ss[-1] == 0:
        return Wall(w.e + up, ts, xs, ss)
    return Wall(w.e + up, ts + (T,), xs + (m,), ss + (0,))


def left_stop(g: Form) -> Fraction:
    return stops(g)[0]


def right_stop(g: Form) -> Fraction:
    return stops(g)[1]


def mean(g: Form) -> Fraction:
    return thermograph(g).mean


def temperature(g: Form) -> Fraction:
    return thermograph(g).temperature

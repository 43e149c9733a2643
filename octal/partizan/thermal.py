"""Stops and thermographs of short games (Winning Ways ch. 6; Siegel, Combinatorial Game Theory II.5), in CGSuite's
convention: temperatures from t = −1, so an integer has temperature −1 and m/2^k (k ≥ 1) has −1/2^k.

A wall is a piecewise linear function of the temperature t ≥ −1 with slopes 0 and ±1. The thermograph of an integer
n is the mast x = n; of any other canonical game G, the scaffold L(t) = max over G^L of (the right wall of G^L)(t) − t
and R(t) = min over G^R of (the left wall of G^R)(t) + t, cut where they first meet (L(t) ≤ R(t)), at the game's
temperature, by the mast at its mean above it. The stops are the walls at t = 0.

Every coordinate is dyadic (a crossing of two walls whose slopes differ by 2 halves at most), so a wall holds them as
integers over one power of two, 2^e, raised a bit where a crossing needs it: exact, and integer arithmetic instead of
Fraction's; the walls' points, the mean and the temperature are given as fractions.
"""

from __future__ import annotations

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


def _values(w: Wall, ts: list[int]) -> list[int]:
    """w at each of the increasing ts (over w's 2^e), walking both lists once."""
    out = []
    wt, wx, ws = w.ts, w.xs, w.slopes
    i, last = 0, len(wt) - 1
    for t in ts:
        while i < last and wt[i + 1] <= t:
            i += 1
        out.append(wx[i] + ws[i] * (t - wt[i]))
    return out


def _wall(e: int, ts: list[int], xs: list[int], end_slope: int) -> Wall:
    """The wall through the points (with an integer slope between each two) that keeps only those where the slope
    changes (the first always)."""
    kt, kx, ks = [ts[0]], [xs[0]], []
    for i in range(1, len(ts)):
        s = (xs[i] - xs[i - 1]) // (ts[i] - ts[i - 1])
        if not ks:
            ks.append(s)
        elif s != ks[-1]:
            kt.append(ts[i - 1])
            kx.append(xs[i - 1])
            ks.append(s)
    if not ks:
        ks.append(end_slope)
    elif end_slope != ks[-1]:
        kt.append(ts[-1])
        kx.append(xs[-1])
        ks.append(end_slope)
    return Wall(e, tuple(kt), tuple(kx), tuple(ks))


def _common(walls: list[Wall]) -> tuple[int, list[Wall]]:
    e = max(w.e for w in walls)
    return e, [w.scaled(e) for w in walls]


def _extreme(walls: list[Wall], pick) -> Wall:
    """The pointwise max (pick = max) or min of walls: evaluated at every break and every crossing between them."""
    if len(walls) == 1:
        return walls[0]
    e, walls = _common(walls)
    walls = list({(w.ts, w.xs, w.slopes): w for w in walls}.values())  # equal options' walls once
    if len(walls) == 1:
        return walls[0]
    while True:
        ts = sorted({t for w in walls for t in w.ts})
        vals = [_values(w, ts) for w in walls]
        ends = [w.slopes[-1] for w in walls]
        extra, half = set(), False
        for i in range(len(walls)):
            for j in range(i + 1, len(walls)):
                a, b = vals[i], vals[j]
                for k in range(len(ts)):
                    da = a[k] - b[k]
                    # the slope of the difference past ts[k]: each wall's there, from the next break's values
                    ds = ((a[k + 1] - b[k + 1]) - da) // (ts[k + 1] - ts[k]) if k + 1 < len(ts) else ends[i] - ends[j]
                    if da == 0 or ds == 0 or (da > 0) == (ds > 0):
                        continue
                    q, r = divmod(-da, ds)  # the crossing ts[k] + q, when it comes before the next break
                    if k + 1 < len(ts) and ts[k] + q >= ts[k + 1]:
                        continue
                    if r:
                        half = True
                    extra.add(ts[k] + q)
        if not half:
            break
        e, walls = e + 1, [w.scaled(e + 1) for w in walls]  # a crossing at a half: one more bit, then again
    ts = sorted(set(ts) | extra)
    vals = [_values(w, ts) for w in walls]
    xs = [pick(v[k] for v in vals) for k in range(len(ts))]
    top = xs[-1]
    end = pick(s for v, s in zip(vals, ends) if v[-1] == top)
    return _wall(e, ts, xs, end)


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
    """The thermograph of a canonical game (memoized in the store of forms, on its serial number). Its subgames' first,
    from a stack of its own rather than by recursion: a number m/2^k is k options deep (1/2^400 is 400)."""
    memo = STORE.thermographs
    found = memo.get(g.uid)
    if found is not None:
        return found
    stack = [g]
    while stack:
        x = stack[-1]
        if x.uid in memo:
            stack.pop()
            continue
        if x.number is None or x.number.denominator != 1:
            missing = [y for y in x.left + x.right if y.uid not in memo]
            if missing:
                stack.extend(missing)
                continue
        stack.pop()
        found = _thermograph(x)  # its options' thermographs are memoized (or, past a clear of the store, made again)
        STORE.remember(memo, x.uid, found)
    return found


def _thermograph(g: Form) -> Thermograph:
    if g.number is not None and g.number.denominator == 1:
        n = int(g.number)
        mast = Wall(0, (-1,), (n,), (0,))
        return Thermograph(mast, mast, n, -1)
    L = _extreme([thermograph(x).as_left_option() for x in g.left], max)
    R = _extreme([thermograph(x).as_right_option() for x in g.right], min)
    e, (L, R) = _common([L, R])
    T, half = _meet(L, R)
    if half:  # they meet at a half of 2^−e: one more bit
        L, R = L.scaled(e + 1), R.scaled(e + 1)
    m = _values(L, [T])[0]
    return Thermograph(_cut(L, T, m), _cut(R, T, m), m, T)


def _meet(L: Wall, R: Wall) -> tuple[int, int]:
    """(T, half): the least t ≥ −1 with L(t) ≤ R(t), both walls over one 2^e, found between breaks (the difference
    is piecewise linear); T is over 2^e, or over 2^(e+1) when half is 1 (the walls meet at a half of 2^−e)."""
    ts = sorted(set(L.ts) | set(R.ts))
    d = [a - b for a, b in zip(_values(L, ts), _values(R, ts))]
    if d[0] <= 0:
        return ts[0], 0
    for k in range(len(ts)):
        if k + 1 < len(ts):
            if d[k + 1] > 0:
                continue
            closing = (d[k] - d[k + 1]) // (ts[k + 1] - ts[k])
        else:
            closing = R.slopes[-1] - L.slopes[-1]
            if closing <= 0:
                raise ValueError("walls that never meet: not a short game's")
        q, r = divmod(d[k], closing)  # closing is 1 or 2: r ≠ 0 only at a half
        return (ts[k] + q, 0) if r == 0 else (2 * (ts[k] + q) + 1, 1)
    raise AssertionError("unreachable")


def _cut(w: Wall, T: int, m: int) -> Wall:
    """The wall up to T, then the mast x = m (T a point of its own only where the slope changes there)."""
    k = _last_at_most(w.ts, T - 1) + 1  # the points before T
    if k and w.slopes[k - 1] == 0:
        return Wall(w.e, w.ts[:k], w.xs[:k], w.slopes[:k])
    return Wall(w.e, w.ts[:k] + (T,), w.xs[:k] + (m,), w.slopes[:k] + (0,))


def stops(g: Form) -> tuple[Fraction, Fraction]:
    """(left stop, right stop): where play ends when Left (Right) starts and both play well until a number is
    reached — a number itself, else the largest right stop of a Left option (the least left stop of a Right one)."""
    found = STORE.stops.get(g.uid)
    if found is None:
        found = (g.number, g.number) if g.number is not None else (
            max(stops(x)[1] for x in g.left), min(stops(x)[0] for x in g.right))
        STORE.remember(STORE.stops, g.uid, found)
    return found


def left_stop(g: Form) -> Fraction:
    return stops(g)[0]


def right_stop(g: Form) -> Fraction:
    return stops(g)[1]


def mean(g: Form) -> Fraction:
    return thermograph(g).mean


def temperature(g: Form) -> Fraction:
    return thermograph(g).temperature

"""Stops and thermographs of short games (Winning Ways ch. 6; Siegel, Combinatorial Game Theory II.5), in CGSuite's
convention: temperatures from t = −1, so an integer has temperature −1 and m/2^k (k ≥ 1) has −1/2^k.

A wall is a piecewise linear function of the temperature t ≥ −1 with slopes 0 and ±1. The thermograph of an integer
n is the mast x = n; of any other canonical game G, the scaffold L(t) = max over G^L of (the right wall of G^L)(t) − t
and R(t) = min over G^R of (the left wall of G^R)(t) + t, cut where they first meet (L(t) ≤ R(t)), at the game's
temperature, by the mast at its mean above it. The stops are the walls at t = 0.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from fractions import Fraction

from .form import Form

MINUS_ONE = Fraction(-1)


@dataclass(frozen=True)
class Wall:
    """x(t) for t ≥ −1: through the points (t_i, x_i) (t_0 = −1, increasing), then slope `slope` past the last."""

    points: tuple[tuple[Fraction, Fraction], ...]
    slope: Fraction

    def at(self, t: Fraction) -> Fraction:
        pts = self.points
        for (t0, x0), (t1, x1) in zip(pts, pts[1:]):
            if t <= t1:
                return x0 + (x1 - x0) * (t - t0) / (t1 - t0)
        t0, x0 = pts[-1]
        return x0 + self.slope * (t - t0)

    def tilted(self, c: int) -> Wall:
        """x(t) + c·t."""
        return Wall(tuple((t, x + c * t) for t, x in self.points), self.slope + c)

    def breaks(self) -> list[Fraction]:
        return [t for t, _ in self.points]


def _simplify(points: list[tuple[Fraction, Fraction]], slope: Fraction) -> Wall:
    """Drop points where the slope does not change."""
    out = [points[0]]
    for i in range(1, len(points)):
        t, x = points[i]
        if i + 1 < len(points):
            (t0, x0), (t2, x2) = out[-1], points[i + 1]
            if (x - x0) * (t2 - t) == (x2 - x) * (t - t0):
                continue
        elif (x - out[-1][1]) == slope * (t - out[-1][0]):
            continue
        out.append((t, x))
    return Wall(tuple(out), slope)


def _extreme(walls: list[Wall], pick) -> Wall:
    """The pointwise max (pick = max) or min of walls: evaluated at every break and every crossing between them."""
    walls = list(dict.fromkeys(walls))  # equal options' walls once; one wall is its own extreme
    if len(walls) == 1:
        return walls[0]
    ts = sorted({t for w in walls for t in w.breaks()})
    last = ts[-1]
    # crossings inside each piece, and beyond the last break
    bounds = ts + [last + 1]
    extra = set()
    for a, b in zip(bounds, bounds[1:]):
        for i in range(len(walls)):
            for j in range(i + 1, len(walls)):
                da = walls[i].at(a) - walls[j].at(a)
                db = walls[i].at(b) - walls[j].at(b)
                if da * db < 0:
                    extra.add(a + (b - a) * da / (da - db))
    ts = sorted(set(ts) | extra)
    points = [(t, pick(w.at(t) for w in walls)) for t in ts]
    end = ts[-1]
    top = pick(w.at(end) for w in walls)
    slope = pick((w.slope for w in walls if w.at(end) == top), default=Fraction(0))
    return _simplify(points, slope)


@dataclass(frozen=True)
class Thermograph:
    """The walls (x as t grows from −1), the mast's value (the mean) and the temperature where the walls meet."""

    left: Wall
    right: Wall
    mean: Fraction
    temperature: Fraction

    def __repr__(self) -> str:
        return f"Thermograph(mean {self.mean}, temperature {self.temperature})"


_MEMO: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # as large as the forms alive, no larger


def thermograph(g: Form) -> Thermograph:
    """The thermograph of a canonical game (memoized on the form while it lives)."""
    found = _MEMO.get(g)
    if found is None:
        found = _thermograph(g)
        _MEMO[g] = found
    return found


def _thermograph(g: Form) -> Thermograph:
    if g.number is not None and g.number.denominator == 1:
        mast = Wall(((MINUS_ONE, g.number),), Fraction(0))
        return Thermograph(mast, mast, g.number, MINUS_ONE)
    L = _extreme([thermograph(x).right.tilted(-1) for x in g.left], max)
    R = _extreme([thermograph(x).left.tilted(1) for x in g.right], min)
    T = _meet(L, R)
    m = L.at(T)
    return Thermograph(_cut(L, T, m), _cut(R, T, m), m, T)


def _meet(L: Wall, R: Wall) -> Fraction:
    """The least t ≥ −1 with L(t) ≤ R(t) (the difference is piecewise linear: found between breaks)."""
    ts = sorted(set(L.breaks()) | set(R.breaks()))
    if L.at(ts[0]) <= R.at(ts[0]):
        return ts[0]
    for a, b in zip(ts, ts[1:]):
        da, db = L.at(a) - R.at(a), L.at(b) - R.at(b)
        if db <= 0:
            return a + (b - a) * da / (da - db)
    a = ts[-1]
    da = L.at(a) - R.at(a)
    closing = R.slope - L.slope
    if closing <= 0:
        raise ValueError("walls that never meet: not a short game's")
    return a + da / closing


def _cut(w: Wall, T: Fraction, m: Fraction) -> Wall:
    """The wall up to T, then the mast x = m."""
    pts = [(t, x) for t, x in w.points if t < T] + [(T, m)]
    return _simplify(pts, Fraction(0))


_STOPS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def stops(g: Form) -> tuple[Fraction, Fraction]:
    """(left stop, right stop): where play ends when Left (Right) starts and both play well until a number is
    reached — a number itself, else the largest right stop of a Left option (the least left stop of a Right one)."""
    found = _STOPS.get(g)
    if found is None:
        found = (g.number, g.number) if g.number is not None else (
            max(stops(x)[1] for x in g.left), min(stops(x)[0] for x in g.right))
        _STOPS[g] = found
    return found


def left_stop(g: Form) -> Fraction:
    return stops(g)[0]


def right_stop(g: Form) -> Fraction:
    return stops(g)[1]


def mean(g: Form) -> Fraction:
    return thermograph(g).mean


def temperature(g: Form) -> Fraction:
    return thermograph(g).temperature

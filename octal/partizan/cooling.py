"""Cooling, freezing and heating a short game by a number (Winning Ways ch. 6; Siegel, Combinatorial Game Theory II.5
and II.6), and its incentives.

Cooling by t ≥ 0: a number is left as it is; above its temperature a game is its mean (from then on it is a number);
otherwise, the temperature itself included, G_t = {G^L_t − t | G^R_t + t} — so ±1 cooled by 1 is *, infinitely close
to its mean 0, as in Siegel's definition and CGSuite (pycgt freezes at the temperature itself: 0). Freezing is
cooling by the temperature. Heating by t, the inverse of cooling
on the games it applies to: a number is left as it is, else ∫^t G = {∫^t G^L + t | ∫^t G^R − t}; t may be any game
(CGSuite's `Heat`).
"""

from __future__ import annotations

from fractions import Fraction

from ..errors import InvalidArgumentError
from .canonical import Game, add, game, le, neg, number, undominated
from .thermal import thermograph


def _amount(t) -> Fraction:
    if isinstance(t, Game):
        if t.number is None:
            raise InvalidArgumentError("cooling and heating are by a number")
        return t.number
    return Fraction(t)


def cool(g: Game, t) -> Game:
    """G cooled by the number t ≥ 0."""
    t = _amount(t)
    if t < 0:
        raise InvalidArgumentError(f"cooling is by a number t ≥ 0, not {t}")
    return _cool(g, t, {})


def _cool(g: Game, t: Fraction, memo: dict) -> Game:
    if g.number is not None or (t == 0 and g.nus is not None):
        return g  # x + n·↑ + *k is infinitesimally close to x at t = 0 (its temperature), and so are its subgames
    # (each a number or such a form), so by induction cooling by 0 leaves it as it is: *1024 and ^1024 at once
    found = memo.get(g.uid)
    if found is None:
        th = thermograph(g)
        if t > th.temperature:
            found = number(th.mean)
        else:
            tt = number(t)
            found = game([add(_cool(x, t, memo), neg(tt)) for x in g.left],
                         [add(_cool(x, t, memo), tt) for x in g.right])
        memo[g.uid] = found
    return found


def freeze(g: Game) -> Game:
    """G cooled by its temperature: a number, or infinitely close to one (its mean)."""
    th = thermograph(g)
    return g if g.number is not None else cool(g, max(th.temperature, Fraction(0)))


def heat(g: Game, t) -> Game:
    """G heated by t: a number, or any game (heating by * is the first step of the reduced canonical form)."""
    return _heat(g, t if isinstance(t, Game) else number(_amount(t)), {})


def _heat(g: Game, t: Game, memo: dict) -> Game:
    if g.number is not None:
        return g
    found = memo.get(g.uid)
    if found is None:
        found = game([add(_heat(x, t, memo), t) for x in g.left], [add(_heat(x, t, memo), neg(t)) for x in g.right])
        memo[g.uid] = found
    return found


def incentives(g: Game) -> tuple[Game, ...]:
    """The maximal incentives of G, Left's G^L − G and Right's G − G^R together: what a move gains; only the maximal
    ones bear on play (as CGSuite reports them)."""
    return tuple(undominated(list(dict.fromkeys([add(x, neg(g)) for x in g.left] + [add(g, neg(x)) for x in g.right]))))


def compare(g: Game, h: Game) -> str:
    """'<', '=', '>' or '||' (confused: neither ≤ nor ≥)."""
    a, b = le(g, h), le(h, g)
    return "=" if a and b else "<" if a else ">" if b else "||"

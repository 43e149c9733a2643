"""Atomic weight and reduced canonical form: what an infinitesimal is worth in ups, and a game with its
infinitesimals taken away (Berlekamp, Conway and Guy, Winning Ways ch. 7 and 8; Albert, Nowakowski and Wolfe,
Lessons in Play ch. 9; Siegel, Combinatorial Game Theory II.7–II.8; CGSuite's conventions).

Atomic weight, by the atomic weight calculus: a number-up-star x + n·↑ + *k weighs n; otherwise G'' = {G^L'' − 2 |
G^R'' + 2}, except that where G'' is an integer and G is not confused with a far star *N (N larger than every
nimber in G), the weight is the least integer m with m ⧐ every G^L'' (G below the far star) or the greatest with
m ⧏ every G^R'' (G above it). An all-small game is always atomic; another infinitesimal is atomic when G − G''·↑
lies within ±(↑* + *N : −1), N the power of two at least the far star's (Siegel II.7, "atomic"). A game that is not
infinitesimal (its stops not both 0) has no atomic weight.

The reduced canonical form (Calistrate; Grossman and Siegel): the simplest game infinitely close to G — G heated by
* and then every x* replaced by x (the star projection); a number-up-star x + n·↑ + *k reduces to x.
"""

from __future__ import annotations

from math import ceil, floor

from ..errors import InvalidArgumentError
from .canonical import STAR, UP, Game, add, game, le, neg, nimber, number, number_up_star
from .cooling import heat, incentives
from .notation import number_text, to_text
from .store import STORE
from .thermal import left_stop, right_stop


class NotAtomicError(InvalidArgumentError):
    """A game that has no atomic weight: it is not infinitesimal, or it is but not atomic; `why` says which."""

    def __init__(self, g: Game, why: str):
        self.why = why
        super().__init__(f"{to_text(g)} has no atomic weight: {why}")


def is_infinitesimal(g: Game) -> bool:
    """Both stops 0: G lies between −x and x for every positive number x."""
    return left_stop(g) == 0 and right_stop(g) == 0


def is_all_small(g: Game) -> bool:
    """Every follower of G, G included, is 0 or has options for both players (its number-up-stars are x = 0)."""
    return _memo("small", g, lambda: g.nus[0] == 0 if g.nus is not None
                 else all(is_all_small(x) for x in g.left + g.right))


def far_star(g: Game) -> int:
    """N for the far star *N: one more than the largest nimber among G's followers (at least 1; a number's
    followers are numbers, 0 the only nimber among them, so not walked: 1/2^400 is 400 deep)."""
    def find() -> int:
        if g.nus is not None and g.nus[0] == 0 and g.nus[1] == 0:
            return g.nus[2] + 1
        if g.number is not None:
            return 1
        return max((far_star(x) for x in g.left + g.right), default=1)
    return _memo("far", g, find)


def ordinal_sum(g: Game, h: Game) -> Game:
    """G : H = {G^L, G : H^L | G^R, G : H^R}: H played on top of G, a move in G wiping H out."""
    if g.nus is not None and g.nus[1] == 0 and h.nus is not None and h.nus[0] == 0 and h.nus[1] == 0:
        return number_up_star(g.nus[0], 0, g.nus[2] + h.nus[2])  # x* k : *m = x + *(k + m)
    return _memo(("ord", h), g, lambda: game(list(g.left) + [ordinal_sum(g, x) for x in h.left],
                                              list(g.right) + [ordinal_sum(g, x) for x in h.right]))


def norton_product(g: Game, u: Game) -> Game:
    """G.U (Norton multiplication by a positive U): |n| copies of ±U for an integer n, else {G^L.U + U + I |
    G^R.U − U − I} over U's maximal incentives I."""
    if g.number is not None and g.number.denominator == 1:  # n·U by doubling: log |n| sums, not |n|
        n = int(g.number)
        power, total = (u if n > 0 else neg(u)), number(0)
        for bit in bin(abs(n))[:1:-1]:
            if bit == "1":
                total = add(total, power)
            power = add(power, power)
        return total

    def find() -> Game:
        steps = [add(u, i) for i in incentives(u)]
        return game([add(norton_product(x, u), s) for x in g.left for s in steps],
                    [add(norton_product(x, u), neg(s)) for x in g.right for s in steps])
    return _memo(("norton", u), g, find)


def _naive_weight(g: Game) -> Game:
    """G'' of the atomic weight calculus, with its integer cases."""
    if g.nus is not None:
        return number(g.nus[1])

    def find() -> Game:
        lo = [add(_naive_weight(x), number(-2)) for x in g.left]
        ro = [add(_naive_weight(x), number(2)) for x in g.right]
        g0 = game(lo, ro)
        if g0.number is None or g0.number.denominator != 1:
            return g0
        star = nimber(far_star(g))
        below, above = le(g, star), le(star, g)
        if below and not above:  # G < the far star: the least m ⧐ every G^L''
            return number(max((_least_not_le(x) for x in lo), default=0))
        if above and not below:  # G > the far star: the greatest m ⧏ every G^R''
            return number(min((_greatest_not_ge(x) for x in ro), default=0))
        return g0
    return _memo("aw", g, find)


def _least_not_le(x: Game) -> int:
    """The least integer m with m ≰ X (m ⧐ X)."""
    m = ceil(right_stop(x))
    return m + 1 if le(number(m), x) else m


def _greatest_not_ge(x: Game) -> int:
    """The greatest integer m with X ≰ m (m ⧏ X)."""
    m = floor(left_stop(x))
    return m - 1 if le(x, number(m)) else m


def atomic_weight(g: Game) -> Game:
    """The atomic weight of an atomic infinitesimal G (NotAtomicError, naming why, for any other game)."""
    if not is_infinitesimal(g):
        raise NotAtomicError(g, f"it is not infinitesimal (its stops are {number_text(left_stop(g))} and "
                                f"{number_text(right_stop(g))}, not both 0)")
    weight = _naive_weight(g)
    if not is_all_small(g):
        n = 2
        while n < far_star(g):
            n *= 2
        epsilon = add(number_up_star(0, 1, 1), ordinal_sum(nimber(n), number(-1)))  # ↑* + *N : −1
        rest = add(g, neg(norton_product(weight, UP)))
        if not (le(rest, epsilon) and le(neg(epsilon), rest)):
            raise NotAtomicError(g, f"it is infinitesimal but not atomic (it differs from {to_text(weight)}·↑ by more "
                                    f"than ↑* + *{n} : −1)")
    return weight


def reduced(g: Game) -> Game:
    """The reduced canonical form: the simplest game infinitely close to G."""
    if g.nus is not None:
        return number(g.nus[0])
    return _star_projection(heat(g, STAR))


def _star_projection(g: Game) -> Game:
    """Every follower x* (x a number) replaced by x."""
    if g.number is not None:
        return g
    if g.nus is not None and g.nus[1] == 0 and g.nus[2] == 1:
        return number(g.nus[0])
    return _memo("proj", g, lambda: game([_star_projection(x) for x in g.left],
                                         [_star_projection(x) for x in g.right]))


def _memo(kind: str | tuple, g: Game, find) -> object:
    """One memo per kind (a name, or a name and a second game), in the store of forms on serial numbers: bounded
    and emptied with the other memos."""
    key = (kind if isinstance(kind, str) else (kind[0], kind[1].uid), g.uid)
    found = STORE.derived.get(key)
    if found is None:
        found = find()
        STORE.remember(STORE.derived, key, found)
    return found


__all__ = ["NotAtomicError", "atomic_weight", "far_star", "is_all_small", "is_infinitesimal", "norton_product",
           "ordinal_sum", "reduced"]

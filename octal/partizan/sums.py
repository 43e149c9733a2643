"""The outcome of a sum of canonical values by searching the sum itself: for sums whose canonical form would grow
too large to build. Numbers are added as numbers and never moved in while another summand remains (number
avoidance), pairs G + (−G) cancel, equal positions are cached; the search is bounded by a count of positions."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from fractions import Fraction

from ..errors import ResourceLimitError
from ..outcomes import LEFT_WINS, NEXT, PREVIOUS, RIGHT_WINS
from .canonical import Game, neg

MAX_DEPTH = 200_000  # recursion allowed to a search of a sum; deeper sums are refused by their budget of states


def _split(games: Iterable[Game]) -> tuple[Fraction, tuple[Game, ...]]:
    """(the numbers' sum, the other summands with pairs G, −G dropped, sorted into a cache key)."""
    x = Fraction(0)
    out: list[Game] = []
    for g in games:
        if g.number is not None:
            x += g.number
            continue
        m = neg(g)
        if m in out:
            out.remove(m)
        else:
            out.append(g)
    return x, tuple(sorted(out, key=lambda y: y.uid))


class SumSearch:
    """Who wins a sum moving first, by search, with one cache for every question asked of it."""

    def __init__(self, max_states: int):
        self.max_states = max_states
        self.count = 0  # positions searched
        self.memo: dict[tuple, bool] = {}

    def wins(self, left_moves: bool, games: Iterable[Game]) -> bool:
        """Does the player to move (Left when `left_moves`) win the sum?"""
        x, rest = _split(games)
        # the search goes as deep as the games' birthdays (a number's is its size: capped, a number is never searched)
        depth = min(4 * sum(g.birthday for g in rest) + 1_000, MAX_DEPTH)
        sys.setrecursionlimit(max(sys.getrecursionlimit(), depth))
        return self._wins(left_moves, x, rest)

    def outcome(self, games: Iterable[Game]) -> str:
        games = list(games)
        first_left, first_right = self.wins(True, games), self.wins(False, games)
        return NEXT if first_left and first_right else LEFT_WINS if first_left else \
            RIGHT_WINS if first_right else PREVIOUS

    def _wins(self, left_moves: bool, x: Fraction, rest: tuple[Game, ...]) -> bool:
        if not rest:  # a number: the mover wins only on a number in their favour
            return x > 0 if left_moves else x < 0
        key = (left_moves, x, rest)
        r = self.memo.get(key)
        if r is not None:
            return r
        self.count += 1
        if self.count > self.max_states:
            raise ResourceLimitError(f"the search of the sum needs more than {self.max_states:,} positions")
        r = False
        for i, g in enumerate(rest):
            if i and g is rest[i - 1]:
                continue  # equal summands offer the same moves
            others = rest[:i] + rest[i + 1:]
            for o in (g.left if left_moves else g.right):
                y, after = _split(others + (o,))
                if not self._wins(not left_moves, x + y, after):
                    r = True
                    break
            if r:
                break
        self.memo[key] = r
        return r

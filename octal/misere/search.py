"""Exact misère play by memoized search over canonical positions (sorted heap tuples).

Misère outcomes do not follow from nim-sums, so positions are searched: a position is P when every
option is N, and one with no move at all is N (the opponent made the last move and lost). Heaps with
no move (size 0, or sizes the code cannot touch) are the game 0 and are dropped from the key.
The same search gives misère Grundy values G⁻ (G⁻ = 1 for no move, else mex of the options), with
extra nim heaps of size 1 and 2 riding along for Conway's genus.
"""

from __future__ import annotations

import sys

from ..errors import ResourceLimitError
from ..outcomes import NEXT, PREVIOUS
from ..positions.position import Move, Solution, heap_moves, parse_heaps
from ..rules.code import OctalCode
from ..rules.options import HeapOptions
from ..rules.presets import as_code
from ..validate import whole_number

MAX_TOTAL = 48  # tokens in a position searched exactly (the state count grows like the partitions of it)


class MisereSearch:
    """Memoized misère search for one code; `is_p`, `winning_moves` and `grundy` on heap tuples."""

    def __init__(self, code: OctalCode | str, max_total: int = MAX_TOTAL):
        self.code = as_code(code)
        self.max_total = whole_number(max_total, "max_total", 1)
        self._p: dict[tuple[int, ...], bool] = {}
        self._g: dict[tuple, int] = {}
        self._moves = HeapOptions(code)  # distinct leave-tuples of each heap, dead heaps dropped
        sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))

    def dead(self, h: int) -> bool:
        """True when no move is possible from a heap of h (it is the game 0)."""
        return not self._moves(h)

    def star_one(self, h: int) -> bool:
        """True when a heap of h is the game *1: its only option is the empty position."""
        return self._moves(h) == ((),)

    def key(self, heaps) -> tuple[int, ...]:
        """Canonical form: dead heaps dropped, *1 heaps cancelled in pairs, the rest sorted."""
        return self._canon(h for h in heaps if h and not self.dead(h))

    def _canon(self, live) -> tuple[int, ...]:
        """Sort live heaps; an even number of *1 heaps vanishes, an odd number becomes one smallest *1.

        *1 + *1 = 0 in misère play: by induction on G, G + *1 + *1 has the outcome of G (a P-position G
        has options, all N, and G + *1 can move to G; an N-position G is either empty, where *1 + *1 can
        move to the P-position *1, or has a P-option G' matched by G' + *1 + *1).
        """
        rest, ones = [], []
        for h in live:
            (ones if self.star_one(h) else rest).append(h)
        if len(ones) % 2:
            rest.append(min(ones))
        return tuple(sorted(rest))

    def check_size(self, heaps) -> None:
        total = sum(heaps)
        if total > self.max_total:
            raise ResourceLimitError(
                f"a misère position of {total} tokens is too large for exact search (limit {self.max_total} tokens)"
            )

    def options(self, key: tuple[int, ...]):
        """Canonical option keys of a canonical position."""
        seen = set()
        for i, h in enumerate(key):
            if i and key[i - 1] == h:
                continue
            rest = key[:i] + key[i + 1 :]
            for leaves in self._moves(h):
                opt = self._canon(rest + leaves)
                if opt not in seen:
                    seen.add(opt)
                    yield opt

    def is_p(self, heaps) -> bool:
        """Misère outcome: True when the player to move loses."""
        key = self.key(heaps)
        return self._is_p(key)

    def _is_p(self, key: tuple[int, ...]) -> bool:
        cached = self._p.get(key)
        if cached is not None:
            return cached
        any_move = False
        result = True
        for opt in self.options(key):
            any_move = True
            if self._is_p(opt):
                result = False
                break
        if not any_move:
            result = False  # no move: the opponent moved last, so the player to move wins
        self._p[key] = result
        return result

    def winning_moves(self, heaps) -> list[Move]:
        """Every move (from each distinct heap) that leaves a misère P-position."""
        moves = []
        for h in sorted(set(heaps)):
            if self.dead(h) or h == 0:
                continue
            rest = list(heaps)
            rest.remove(h)
            for mv in heap_moves(self.code, h):
                if self._is_p(self.key(rest + list(mv.leaves))):
                    moves.append(mv)
        return sorted(set(moves))

    def grundy(self, heaps, ones: int = 0, twos: int = 0) -> int:
        """Misère Grundy value G⁻ of heaps + `ones` copies of *1 + `twos` copies of *2."""
        return self._grundy(self.key(heaps), ones, twos)

    def _grundy(self, key: tuple[int, ...], ones: int, twos: int) -> int:
        state = (key, ones, twos)
        cached = self._g.get(state)
        if cached is not None:
            return cached
        vals = set()
        for opt in self.options(key):
            vals.add(self._grundy(opt, ones, twos))
        if ones:
            vals.add(self._grundy(key, ones - 1, twos))
        if twos:
            vals.add(self._grundy(key, ones + 1, twos - 1))  # *2 → *1
            vals.add(self._grundy(key, ones, twos - 1))  # *2 → 0
        if not vals:
            g = 1  # G⁻(0) = 1
        else:
            g = 0
            while g in vals:
                g += 1
        self._g[state] = g
        return g


def misere_solution(code: OctalCode, heaps, search: MisereSearch | None = None) -> Solution:
    """Misère outcome and every winning move by exhaustive search (refused past MAX_TOTAL tokens)."""
    heaps = parse_heaps(heaps)
    search = search or MisereSearch(code)
    code = search.code
    search.check_size(heaps)
    p = search.is_p(heaps)
    moves = [] if p else search.winning_moves(list(heaps))
    return Solution(code, heaps, "misere", PREVIOUS if p else NEXT, moves, False, [], "exhaustive misère search")

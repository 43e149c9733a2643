"""One entry point for 'who wins this position': normal play by nim-sum, misère by the best method known.

Misère positions are read from the game's misère quotient when it can be had (proven periodic, or
computed up to the largest heap) and fall back to the exhaustive search otherwise.
"""

from __future__ import annotations

import os

from .engine.values import Progress
from .errors import InvalidArgumentError, OctalError, ResourceLimitError
from .misere.quotient import MisereQuotient, misere_quotient, quotient_solution
from .misere.search import MisereSearch, misere_solution
from .outcomes import GROWING, NEXT, PREVIOUS
from .positions.position import (
    HeapValues,
    Move,
    Solution,
    heap_moves,
    normal_solution,
    parse_heaps,
)
from .rules.code import OctalCode
from .rules.presets import as_code
from .validate import flag

QUOTIENT_WORK = 150_000_000  # steps of work spent at most on a quotient before falling back to the exhaustive
# search (about 10 s here): counted in work, so the method that answers depends on the position, not on the machine
SMALL_HEAPS = 64  # up to this largest heap, the quotient of heaps ≤ it is enough
_SEARCHES: dict[str, object] = {}  # code → its memoized exhaustive search, kept between positions
_QUOTIENTS: dict[str, tuple] = {}  # code → (best quotient computed in this process, stopped by the budget)


def solve_position(code: OctalCode | str, heaps, misere: bool = False, progress: Progress | None = None,
                   quotient=None) -> Solution:
    """Outcome and winning moves of `heaps` under `code` (a code, preset name or OctalCode); with no
    winning move, `best_try` is set.

    `quotient` (a MisereQuotient, e.g. loaded from a file) answers misère positions without computing.
    """
    code = as_code(code)
    heaps = parse_heaps(heaps)
    misere = flag(misere, "misere")
    if isinstance(quotient, (str, os.PathLike)):  # a saved quotient's file: loaded and verified
        quotient = MisereQuotient.load(quotient)
    elif quotient is not None and not isinstance(quotient, MisereQuotient):
        raise InvalidArgumentError(f"quotient must be a MisereQuotient or the path of a saved one, not {quotient!r}")
    if misere:
        sol = misere_position(code, heaps, quotient)
        sol.normal_outcome = normal_outcome(code, heaps)
    else:
        sol = normal_solution(code, heaps, HeapValues(code, max(heaps, default=0), progress=progress))
    sol.best_try = best_try(code, heaps) if sol.outcome == PREVIOUS else None
    return sol


def misere_quotient_for(code: OctalCode, heaps: tuple[int, ...]):
    """A misère quotient that covers `heaps`, computed within QUOTIENT_WORK and kept for later, or None."""
    known, exhausted = _QUOTIENTS.get(str(code), (None, False))
    if known is not None and known.covers(heaps):
        return known
    if exhausted:  # it already grew as far as the budget allows: asking again gets no further
        return None
    largest = max(heaps, default=0)
    q = misere_quotient(code, max_heap=largest if largest <= SMALL_HEAPS else None, max_work=QUOTIENT_WORK)
    if known is None or q.proven or q.max_heap > known.max_heap:
        _QUOTIENTS[str(code)] = (q, q.status == GROWING)
    return q if q.covers(heaps) else None


def misere_position(code: OctalCode, heaps: tuple[int, ...], quotient=None) -> Solution:
    """Misère outcome and winning moves: from `quotient`, the game's quotient if it covers the heaps, else search."""
    if quotient is not None:
        if str(quotient.code) != str(code):
            raise InvalidArgumentError(f"the quotient given is of {quotient.code}, not of {code}")
        return quotient_solution(quotient, heaps)
    q = misere_quotient_for(code, heaps)
    if q is not None:
        return quotient_solution(q, heaps)
    try:
        search = _SEARCHES.get(str(code)) or _SEARCHES.setdefault(str(code), MisereSearch(code))
        return misere_solution(code, heaps, search)
    except ResourceLimitError as e:
        raise ResourceLimitError(f"{e}, and the misère quotient of {code} is not settled within "
                                 f"{QUOTIENT_WORK:,} steps of work "
                                 f"(octal misere {code} shows how far it grows)") from None


def normal_outcome(code: OctalCode, heaps: tuple[int, ...]) -> str | None:
    """'P' or 'N' in normal play (nim-sum of G), or None when the heap values are out of reach."""
    try:
        values = HeapValues(code, max(heaps, default=0))
        total = 0
        for h in heaps:
            total ^= values(h)
    except OctalError:
        return None
    return NEXT if total else PREVIOUS


def best_try(code: OctalCode, heaps: tuple[int, ...]) -> Move | None:
    """With every move losing: the move that keeps the most tokens on the board (the longest fight)."""
    best = None
    for h in sorted(set(heaps)):
        for mv in heap_moves(code, h, split_limit=1):
            if best is None or (sum(mv.leaves), -mv.remove) > (sum(best.leaves), -best.remove):
                best = mv
    return best

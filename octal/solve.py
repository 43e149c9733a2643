"""One entry point for 'who wins this position': normal play by nim-sum, misère by the best method known."""

from __future__ import annotations

from .code import OctalCode
from .position import HeapValues, Move, Solution, heap_moves, normal_solution, parse_heaps
from .sequence import Progress


def solve_position(code: OctalCode, heaps, misere: bool = False, progress: Progress | None = None) -> Solution:
    """Outcome and winning moves of `heaps` under `code`; with no winning move, `best_try` is set."""
    heaps = parse_heaps(heaps)
    if misere:
        from .misere import misere_solution

        sol = misere_solution(code, heaps)
    else:
        sol = normal_solution(code, heaps, HeapValues(code, max(heaps, default=0), progress=progress))
    sol.best_try = _best_try(code, heaps) if sol.outcome == "P" else None
    return sol


def _best_try(code: OctalCode, heaps: tuple[int, ...]) -> Move | None:
    """With every move losing: the move that keeps the most tokens on the board (the longest fight)."""
    best = None
    for h in sorted(set(heaps)):
        for mv in heap_moves(code, h, split_limit=1):
            if best is None or (sum(mv.leaves), -mv.remove) > (sum(best.leaves), -best.remove):
                best = mv
    return best

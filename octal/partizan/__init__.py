"""Short partizan games in canonical form: the values of games where Left and Right have different moves.

canonical.py (canonical forms: dominated options removed, reversible ones bypassed; ≤, sum, negative, outcome class)
→ notation.py (CGSuite's way of writing a value: 1/2, *2, ^*, 2+-1, {2||1|0}) → sums.py (the outcome of a sum
of many values by a search of the sum, for sums whose canonical form is too large to build).
"""

from .canonical import (
    ONE,
    STAR,
    UP,
    ZERO,
    FormTooLarge,
    Game,
    add,
    forget,
    game,
    le,
    neg,
    nimber,
    number,
    outcome,
    total,
    work_limit,
)
from .notation import to_text
from .sums import SumSearch

__all__ = [
    "ONE", "STAR", "UP", "ZERO", "FormTooLarge", "Game", "add", "forget", "game", "le", "neg",
    "nimber", "number", "outcome", "total", "work_limit", "to_text", "SumSearch",
]

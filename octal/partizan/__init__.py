"""Short partizan games in canonical form: the values of games where Left and Right have different moves.

notation.py (CGSuite's way of writing a value: 1/2, *2, ^*, 2+-1, {2||1|0}; it reads forms and builds none)
→ canonical.py (canonical forms: dominated options removed, reversible ones bypassed; ≤, sum, negative, outcome
class; x + n·↑ + *k recognised when built; every memo in one bounded store) → sums.py (the outcome of a sum of many
values by a search of the sum, for sums whose canonical form is too large to build).
"""

from .canonical import (
    ONE,
    STAR,
    UP,
    ZERO,
    Game,
    add,
    game,
    le,
    neg,
    nimber,
    number,
    number_up_star,
    outcome,
    total,
)
from .notation import to_text
from .store import STORE, FormStore, FormTooLarge, forget, work_limit
from .sums import SumSearch

__all__ = [
    "ONE", "STAR", "STORE", "UP", "ZERO", "FormStore", "FormTooLarge", "Game", "SumSearch", "add", "forget", "game",
    "le", "neg", "nimber", "number", "number_up_star", "outcome", "to_text", "total", "work_limit",
]

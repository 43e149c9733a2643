"""Short partizan games in canonical form: the values of games where Left and Right have different moves.

notation.py (CGSuite's way of writing a value: 1/2, *2, ^*, 2+-1, {2||1|0}; it reads forms and builds none)
→ canonical.py (canonical forms: dominated options removed, reversible ones bypassed; ≤, sum, negative, outcome
class; x + n·↑ + *k recognised when built; every memo in one bounded store) → sums.py (the outcome of a sum of many
values by a search of the sum, for sums whose canonical form is too large to build); parse.py reads CGSuite's notation,
invariants.py gathers a game's invariants (thermal.py, cooling.py, atomic.py), heap_games.py plays a heap game with a
code per player.
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
from .invariants import GameFacts, game_facts
from .notation import to_text
from .parse import parse_game
from .store import STORE, FormStore, FormTooLarge, forget, work_limit
from .sums import SumSearch

__all__ = [
    "ONE", "STAR", "STORE", "UP", "ZERO", "FormStore", "FormTooLarge", "Game", "GameFacts", "SumSearch", "add",
    "forget", "game", "game_facts", "le", "neg", "nimber", "number", "number_up_star", "outcome", "parse_game",
    "to_text", "total", "work_limit",
]

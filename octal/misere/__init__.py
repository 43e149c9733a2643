"""Misère play (the player who makes the last move loses): exhaustive search, genus, misère quotients.

search.py (exhaustive search) and genus.py (Conway's genus); quotients: monoid.py (tables) → pretension.py
(candidates and their exact verification) → quotient.py (growing one heap by heap) → value.py (the quotient as a
value, and positions read from it) with quotient_file.py (its document) and presentation.py; kernel.py (the compiled
searches these use).
"""

from .genus import Genus, genus_sequence
from .quotient import misere_quotient
from .search import MisereSearch, misere_solution
from .value import MisereQuotient

__all__ = ["MisereSearch", "misere_solution", "Genus", "genus_sequence", "MisereQuotient", "misere_quotient"]

"""Misère play (the player who makes the last move loses): exhaustive search, genus, misère quotients."""

from .genus import Genus, genus_sequence
from .quotient import MisereQuotient, misere_quotient
from .search import MisereSearch, misere_solution

__all__ = ["MisereSearch", "misere_solution", "Genus", "genus_sequence", "MisereQuotient", "misere_quotient"]

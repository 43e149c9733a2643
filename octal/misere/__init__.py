"""Misère play (the player who makes the last move loses): exhaustive search, genus, Kayles."""

from .genus import Genus, genus_sequence
from .search import MisereSearch, misere_solution

__all__ = ["MisereSearch", "misere_solution", "Genus", "genus_sequence"]

"""Outcome classes as named constants, the letters the literature and every `--json` shape use."""

NEXT = "N"  # an N-position: the player to move (the Next player) wins
PREVIOUS = "P"  # a P-position: the Previous player, who just moved, wins

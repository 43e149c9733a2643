"""Outcome classes and statuses as named constants: the words every text form and `--json` shape uses."""

NEXT = "N"  # an N-position: the player to move (the Next player) wins
PREVIOUS = "P"  # a P-position: the Previous player, who just moved, wins
LEFT_WINS = "L"  # partizan play: Left wins whoever starts (G > 0)
RIGHT_WINS = "R"  # Right wins whoever starts (G < 0)

FINITE, GROWING = "finite", "growing"  # a misère quotient settled, or stopped by a budget while still growing
BOUNDED = "bounded"  # a misère census row: the quotient of heaps ≤ H only, no period proven
PROVEN, APPARENT, NONE = "proven", "apparent", "none"  # a period's verdict: proven by a theorem, observed, not seen
OPEN = "open"  # a census row whose period is not proven within its budget (proven rows say periodicity.PROVEN)
STOPPED = "stopped"  # stopped by an outer wall-clock cap: reported as such, never stored or taken as settled

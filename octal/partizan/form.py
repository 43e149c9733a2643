"""What the modules that read a canonical form (writing it, its thermograph) need of it, so that they sit below
canonical.py, which builds forms."""

from __future__ import annotations

from fractions import Fraction
from typing import Protocol


class Form(Protocol):
    """A canonical form as read (canonical.Game, defined above the modules that read it)."""

    left: tuple[Form, ...]
    right: tuple[Form, ...]
    uid: int
    number: Fraction | None  # the value when the form is a number
    nus: tuple[Fraction, int, int] | None  # (x, n, k) when the form is x + n·↑ + *k

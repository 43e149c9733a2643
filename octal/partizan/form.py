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
    birthday: int
    number: Fraction | None  # the value when the form is a number
    nus: tuple[Fraction, int, int] | None  # (x, n, k) when the form is x + n·↑ + *k


class LazyOptions:
    """Options made when first read: `left` and `right` from the class's `_options()` (a number's canonical form, the
    writer's translated view)."""

    __slots__ = ()

    @property
    def left(self) -> tuple:
        return self._options()[0]

    @property
    def right(self) -> tuple:
        return self._options()[1]

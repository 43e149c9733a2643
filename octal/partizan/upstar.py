"""Numbers and x + n·↑ + *k as values, without their forms' options: the simplest number between two (the
simplicity theorem), a number's options, (x, n, k) read off a canonical form's options, and ≤ between two such
values (Conway, On Numbers and Games; Siegel, Combinatorial Game Theory II.4)."""

from __future__ import annotations

from fractions import Fraction

from ..errors import InvalidArgumentError
from .form import Form
from .store import Nus


def recognise(left: tuple[Form, ...], right: tuple[Form, ...]) -> Nus | None:
    """(x, n, k) when the canonical form {left | right} is x + n·↑ + *k, read off its options, else None. The forms
    of ups and stars, as CGSuite builds them: x + *k = {x + *j, j < k | the same}; x + ↑* = {x, x + * | x}; else
    for n ≥ 1 x + n·↑ + *k = {x | x + (n−1)·↑ + *(k⊕1)}, and the negatives mirrored.
    Numbers are marked by canonical.py's `_intern`."""
    if not left or not right:
        return None
    if left == right:  # x + *k, k ≥ 1 (the mex rule, translated by x)
        us = [g.nus for g in left]
        if any(u is None or u[0] != us[0][0] or u[1] != 0 for u in us):
            return None
        return (us[0][0], 0, len(us)) if sorted(u[2] for u in us) == list(range(len(us))) else None
    if len(left) == 1 and len(right) == 1:
        a, b = left[0].nus, right[0].nus
        if a is None or b is None or a[0] != b[0]:
            return None
        if a[1:] == (0, 0) and b[1] >= 0:  # {x | x + m·↑ + *j}, (m, j) ≠ (0, 0) since left ≠ right
            return a[0], b[1] + 1, b[2] ^ 1
        if b[1:] == (0, 0) and a[1] <= 0:
            return a[0], a[1] - 1, a[2] ^ 1
        return None
    one, two = (right, left) if len(left) == 2 else (left, right)
    if len(one) != 1 or len(two) != 2 or one[0].number is None:
        return None
    x = one[0].number
    if {g.nus for g in two} != {(x, 0, 0), (x, 0, 1)}:
        return None
    return (x, 1, 1) if two is left else (x, -1, 1)  # x + ↑* = {x, x* | x}, x + ↓* = {x | x, x*}


def dyadic(x: int | Fraction | str) -> Fraction:
    """x as a dyadic rational m/2^k (an int, a Fraction, a finite float or text such as '3/8'; not a bool)."""
    if isinstance(x, bool):
        raise InvalidArgumentError(f"{x!r} is not a number")
    try:
        x = Fraction(x)
    except (TypeError, ValueError, ZeroDivisionError, OverflowError):
        raise InvalidArgumentError(f"{x!r} is not a number") from None
    d = x.denominator
    if d & (d - 1):
        raise InvalidArgumentError(f"{x} is not a dyadic rational: short games' numbers are m/2^k")
    return x


def number_options(x: Fraction) -> tuple[list[Fraction], list[Fraction]]:
    """The options of x's canonical form: n = {n−1 |}, −n = {| −n+1}, m/2^k = {(m−1)/2^k | (m+1)/2^k}."""
    d = x.denominator
    if d == 1:
        n = x.numerator
        return ([x - 1] if n > 0 else []), ([x + 1] if n < 0 else [])
    return [x - Fraction(1, d)], [x + Fraction(1, d)]


def simplest_between(lo: Fraction | None, hi: Fraction | None) -> Fraction:
    """The simplest number strictly between lo and hi (None: unbounded): an integer nearest 0 if one fits, else
    the dyadic of least denominator (the simplicity theorem)."""
    if (lo is None or lo < 0) and (hi is None or hi > 0):
        return Fraction(0)
    if hi is None:
        return Fraction(int(lo) + 1 if lo >= 0 else 0)
    if lo is None:
        return Fraction(-int(-hi) - 1 if hi <= 0 else 0)
    d = 1
    while True:
        m = (lo * d).__floor__() + 1
        if lo >= 0 and Fraction(m, d) < hi:
            return Fraction(m, d)
        m = (hi * d).__ceil__() - 1
        if hi <= 0 and Fraction(m, d) > lo:
            return Fraction(m, d)
        d *= 2


def nus_le(a: Nus, b: Nus) -> bool:
    """x + n·↑ + *k ≤ y + m·↑ + *j: unequal numbers decide (the rest is infinitesimal); else the difference
    d·↑ + *e (d = m − n, e = k ⊕ j) is ≥ 0 exactly when it is 0, or d ≥ 2, or d = 1 and e ≠ 1 (↑* ‖ 0)."""
    if a[0] != b[0]:
        return a[0] < b[0]
    d, e = b[1] - a[1], a[2] ^ b[2]
    return d >= 2 or (d == 1 and e != 1) or (d == 0 and e == 0)

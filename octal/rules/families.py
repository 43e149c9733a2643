"""Game families users name by their parameters, written as take-and-break codes so every command plays them.

Subtraction games: S(1,2,5) (also `subtraction:1,2,5`) removes exactly s tokens for some s in the set, from one
heap, leaving one heap or none: digit d_s = 3 for each s. The all-but form, `allbut(1,3)`, removes any number
of tokens except those listed: digit 3 everywhere else, a repeating tail [3] (so no theorem proves its period).
These are the games CGSuite builds with its subtraction-set constructors. Flammenkamp's family 0.0n7,
written `0.0n7(3)` or `0.0n7:3`, removes exactly n tokens and leaves 0, 1 or 2 heaps: digit d_n = 7.
"""

from __future__ import annotations

import re

from ..errors import OctalCodeError
from .code import MAX_DIGITS, ONE, TWO, WHOLE, OctalCode
from .numbers import ascii_whole

TAKE = WHOLE | ONE  # remove k, leaving one heap or nothing: the digit of a subtraction game
_FORM = re.compile(r"^\s*(?P<name>s|subtraction|allbut|all-but|0\.0n7)\s*"
                   r"(?:\((?P<paren>[^()]*)\)|:(?P<colon>[^()]*))\s*$",
                   re.IGNORECASE)


def subtraction_code(removals) -> OctalCode:
    """S(removals): remove exactly s tokens for some s in `removals`."""
    ks = _removals(removals)
    digits = [0] * (max(ks) + 1)
    for k in ks:
        digits[k] = TAKE
    return OctalCode(tuple(digits))


def allbut_code(excluded) -> OctalCode:
    """All-but(excluded): remove any number of tokens k ≥ 1 except those in `excluded`."""
    ks = _removals(excluded, allow_empty=True)
    top = max(ks, default=0)
    digits = [0] + [0 if k in ks else TAKE for k in range(1, top + 1)]
    return OctalCode(tuple(digits), (TAKE,))


def exactly_code(n: int) -> OctalCode:
    """0.0n7: remove exactly n tokens, leaving nothing, one heap or two (d_n = 7)."""
    (k,) = _removals([n])
    return OctalCode((0,) * k + (WHOLE | ONE | TWO,))


def _removals(values, allow_empty: bool = False) -> set[int]:
    ks = set()
    for v in values:
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise OctalCodeError(f"a removal is a whole number of tokens, at least 1, not {v!r}")
        if v >= MAX_DIGITS:
            raise OctalCodeError(f"removals go up to {MAX_DIGITS - 1} tokens, not {v:,}")
        ks.add(v)
    if not ks and not allow_empty:
        raise OctalCodeError("a subtraction set needs at least one removal, e.g. S(1,2,5)")
    return ks


def parse_family(text: str) -> OctalCode | None:
    """The code of 'S(1,2,5)', 'subtraction:1,2,5', 'allbut(1,3)' or 'all-but:1,3'; None for other text."""
    m = _FORM.match(text)
    if m is None:
        return None
    body = m.group("paren") if m.group("paren") is not None else m.group("colon")
    words = [w for w in re.split(r"[\s,]+", body.strip()) if w]
    values = []
    for w in words:
        value = ascii_whole(w)
        if value is None:
            raise OctalCodeError(f"{w[:20]!r} is not a number of tokens in the set", text)
        values.append(value)
    name = m.group("name").lower()
    if name in ("allbut", "all-but"):
        return allbut_code(values)
    if name == "0.0n7":
        if len(values) != 1:
            raise OctalCodeError("0.0n7 takes one number of tokens, e.g. 0.0n7(3) for 0.007", text)
        return exactly_code(values[0])
    return subtraction_code(values)

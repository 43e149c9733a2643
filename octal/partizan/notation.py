"""Writing a canonical value as CGSuite reads and writes it (its plain-text syntax, so a value can be pasted back):
numbers 2, -3/4; x + n·↑ + *k as 1/2^*, vv*3, ^3 (↑ is ^, ↓ is v); switches {a|b} of numbers a > b as m+-d
(±1 is +-1); anything else in braces, nested ones by bars, {2||1|0} for {2 | {1 | 0}}.

It reads a form and builds none, so it sits below canonical.py, whose `Game.__repr__` writes with `to_text`; the
shape x + n·↑ + *k is the one canonical.py recognised when it built the form (`nus`), never looked for again here.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Protocol


class Form(Protocol):
    """What writing reads of a canonical form (canonical.Game, defined above this module)."""

    left: tuple[Form, ...]
    right: tuple[Form, ...]
    uid: int
    number: Fraction | None  # the value when the form is a number
    nus: tuple[Fraction, int, int] | None  # (x, n, k) when the form is x + n·↑ + *k


def number_text(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def _ups_text(n: int) -> str:
    mark = "^" if n > 0 else "v"
    return "" if n == 0 else mark * abs(n) if abs(n) <= 2 else f"{mark}{abs(n)}"


def _atomic(g: Form, top: bool = True) -> str | None:
    """The text of a value with a name of its own (number, x + n·↑ + *k; a switch at the top level), or None."""
    if g.nus is not None:
        x, n, k = g.nus
        star = "" if k == 0 else "*" if k == 1 else f"*{k}"
        head = "" if x == 0 and (n or k) else number_text(x)
        return head + _ups_text(n) + star
    a = g.left[0].number if len(g.left) == 1 else None
    b = g.right[0].number if len(g.right) == 1 else None
    if top and a is not None and b is not None:
        mid, half = (a + b) / 2, (a - b) / 2
        return ("" if mid == 0 else number_text(mid)) + "+-" + number_text(half)
    return None


def _inner(g: Form) -> tuple[str, int]:
    """A compound value written without its outer braces, and the number of bars of its separator."""
    sides = []
    deepest = 0
    for opts in (g.left, g.right):
        parts = []
        for x in opts:
            t = _atomic(x, top=False)
            if t is None:
                text, bars = _inner(x)
                if len(opts) == 1:
                    t, deepest = text, max(deepest, bars)
                else:
                    t = "{" + text + "}"
            parts.append(t)
        sides.append(",".join(parts))
    bars = deepest + 1
    return sides[0] + "|" * bars + sides[1], bars


def text_length(g: Form) -> int:
    """About the characters `to_text` would write (counted over the form's subgames, not written: a form shares
    its subgames, its text repeats them, so the text can be exponentially longer than the form)."""
    t = _atomic(g)
    return len(t) if t is not None else _length(g, {})


def _length(g: Form, memo: dict[int, int]) -> int:
    if g.uid not in memo:
        t = _atomic(g, top=False)
        memo[g.uid] = len(t) if t is not None else 3 + len(g.left) + len(g.right) + sum(
            _length(x, memo) for x in g.left + g.right)
    return memo[g.uid]


def to_text(g: Form) -> str:
    """CGSuite's plain-text form of a canonical value."""
    t = _atomic(g)
    return t if t is not None else "{" + _inner(g)[0] + "}"


def subgames(g: Form) -> int:
    """Distinct subgames of the form, itself included: the size of its canonical form as a shared graph."""
    seen = {g.uid}
    stack = [g]
    while stack:
        x = stack.pop()
        for y in x.left + x.right:
            if y.uid not in seen:
                seen.add(y.uid)
                stack.append(y)
    return len(seen)


def definitions(g: Form) -> list[str]:
    """The value as shared definitions, one per compound subgame: ["G = {G1,2|G2}", "G1 = {…}", …] — its size is
    the form's, however long the written-out text would be."""
    names: dict[int, str] = {}
    order: list[Form] = []

    def name(x: Form) -> str:
        t = _atomic(x, top=False)
        if t is not None:
            return t
        if x.uid not in names:
            names[x.uid] = "G" if not order else f"G{len(order)}"
            order.append(x)
        return names[x.uid]

    name(g) if _atomic(g) is None else None
    out = []
    i = 0
    while i < len(order):
        x = order[i]
        out.append(f"{names[x.uid]} = {{{','.join(name(y) for y in x.left)}|{','.join(name(y) for y in x.right)}}}")
        i += 1
    return out if out else [f"G = {to_text(g)}"]

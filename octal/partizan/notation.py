"""Writing a canonical value as CGSuite reads and writes it (its plain-text syntax, so a value can be pasted back):
numbers 2, -3/4; x + n·↑ + *k as 1/2^*, vv*3, ^3 (↑ is ^, ↓ is v); switches {a|b} of numbers a > b as m+-d
(±1 is +-1); anything else in braces, nested ones by bars, {2||1|0} for {2 | {1 | 0}}.
"""

from __future__ import annotations

from fractions import Fraction

from .canonical import UP, ZERO, Game, add, neg, nimber, number

MAX_UPTIMAL_BIRTHDAY = 32  # x + n·↑ + *k is looked for in infinitesimals born by this day
_STOPS: dict[int, tuple[Fraction, Fraction]] = {}
_UPS: dict[int, Game] = {0: ZERO, 1: UP}
_ATOMIC: dict[tuple[int, bool], str | None] = {}
_UPTIMAL: dict[int, tuple | None] = {}


def number_text(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def stops(g: Game) -> tuple[Fraction, Fraction]:
    """Left and right stops: where play ends on a number when Left (Right) starts and both play well."""
    s = _STOPS.get(g.uid)
    if s is None:
        if g.number is not None:
            s = (g.number, g.number)
        else:
            s = (max(stops(x)[1] for x in g.left), min(stops(x)[0] for x in g.right))
        _STOPS[g.uid] = s
    return s


def up_multiple(n: int) -> Game:
    """n·↑ (↓ for negative n)."""
    if n < 0:
        return neg(up_multiple(-n))
    g = _UPS.get(n)
    if g is None:
        g = _UPS[n] = add(up_multiple(n - 1), UP)
    return g


def nimber_index(g: Game) -> int | None:
    """k when g is *k, else None."""
    k = len(g.left)
    if g.left != g.right or any(x is not nimber(j) for j, x in enumerate(sorted(g.left, key=lambda y: len(y.left)))):
        return None
    return k


def uptimal(g: Game) -> tuple[Fraction, int, int] | None:
    """(x, n, k) with g = x + n·↑ + *k, or None."""
    if g.uid not in _UPTIMAL:
        _UPTIMAL[g.uid] = _uptimal(g)
    return _UPTIMAL[g.uid]


def _uptimal(g: Game) -> tuple[Fraction, int, int] | None:
    if g.number is not None:
        return g.number, 0, 0
    lo, hi = stops(g)
    if lo != hi or g.birthday > MAX_UPTIMAL_BIRTHDAY or any(uptimal(x) is None for x in g.left + g.right):
        return None  # the options of x + n·↑ + *k are all of that kind too
    h = add(g, number(-lo))
    for n in sorted(range(-h.birthday - 1, h.birthday + 2), key=abs):
        k = nimber_index(add(h, up_multiple(-n)))
        if k is not None:
            return lo, n, k
    return None


def _ups_text(n: int) -> str:
    mark = "^" if n > 0 else "v"
    return "" if n == 0 else mark * abs(n) if abs(n) <= 2 else f"{mark}{abs(n)}"


def _atomic(g: Game, top: bool = True) -> str | None:
    """The text of a value with a name of its own (number, x + n·↑ + *k; a switch at the top level), or None."""
    key = (g.uid, top)
    if key not in _ATOMIC:
        _ATOMIC[key] = _name(g, top)
    return _ATOMIC[key]


def _name(g: Game, top: bool) -> str | None:
    u = uptimal(g)
    if u is not None:
        x, n, k = u
        star = "" if k == 0 else "*" if k == 1 else f"*{k}"
        head = "" if x == 0 and (n or k) else number_text(x)
        return head + _ups_text(n) + star
    a = g.left[0].number if len(g.left) == 1 else None
    b = g.right[0].number if len(g.right) == 1 else None
    if top and a is not None and b is not None:
        mid, half = (a + b) / 2, (a - b) / 2
        return ("" if mid == 0 else number_text(mid)) + "+-" + number_text(half)
    return None


def _inner(g: Game) -> tuple[str, int]:
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


def text_length(g: Game) -> int:
    """About the characters `to_text` would write (counted over the form's subgames, not written: a form shares
    its subgames, its text repeats them, so the text can be exponentially longer than the form)."""
    t = _atomic(g)
    return len(t) if t is not None else _length(g, {})


def _length(g: Game, memo: dict[int, int]) -> int:
    if g.uid not in memo:
        t = _atomic(g, top=False)
        memo[g.uid] = len(t) if t is not None else 3 + len(g.left) + len(g.right) + sum(
            _length(x, memo) for x in g.left + g.right)
    return memo[g.uid]


def to_text(g: Game) -> str:
    """CGSuite's plain-text form of a canonical value."""
    t = _atomic(g)
    return t if t is not None else "{" + _inner(g)[0] + "}"


def subgames(g: Game) -> int:
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


def definitions(g: Game) -> list[str]:
    """The value as shared definitions, one per compound subgame: ["G = {G1,2|G2}", "G1 = {…}", …] — its size is
    the form's, however long the written-out text would be."""
    names: dict[int, str] = {}
    order: list[Game] = []

    def name(x: Game) -> str:
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


Game.__repr__ = lambda self: f"Game({to_text(self)})"  # the class lives below this module; its repr is written here

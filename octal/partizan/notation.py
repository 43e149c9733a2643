"""Writing a canonical value as CGSuite reads and writes it (its plain-text syntax, so a value can be pasted back):
numbers 2, -3/4; x + n·↑ + *k as 1/2^*, vv*3, ^3 (↑ is ^, ↓ is v); a game equal to its own negative {G | −G}
as +-G (±1 is +-1, while {4 | 2} stays {4|2}); x + Tiny(G) = {x || x | x − G} and x + Miny(G) for a number x and
a game G of positive mean (1Tiny(1/2), Tiny({3|1})); anything else in braces, a single option nested by bars,
{2||1|0} for {2 | {1 | 0}}, a run of four bars closed in braces instead, options in CGSuite's order (numbers,
nimbers, other ups and stars, then compound forms compared option by option).

It reads a form and builds none, so it sits below canonical.py, whose `Game.__repr__` writes with `to_text` (and
above thermal.py, which also only reads forms: Tiny's test asks a mean); the shape x + n·↑ + *k is the one
canonical.py recognised when it built the form (`nus`), never looked for again here.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cmp_to_key

from .form import Form, LazyOptions
from .thermal import mean, stops


def number_text(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def _ups_text(n: int) -> str:
    mark = "^" if n > 0 else "v"
    return "" if n == 0 else mark * abs(n) if abs(n) <= 2 else f"{mark}{abs(n)}"


MAX_TEXT = 20_000  # characters of a game written out (--json, reports); a longer one is given as definitions
EXACT_LENGTH = 100_000  # text_length writes the text out to count it when braces everywhere would take this, at most
MAX_BARS = 4  # a run of bars this long is written as braces instead, as CGSuite does


def _nus_text(g: Form) -> str:
    x, n, k = g.nus
    star = "" if k == 0 else "*" if k == 1 else f"*{k}"
    head = "" if x == 0 and (n or k) else number_text(x)
    return head + _ups_text(n) + star


def _mirrors(a: Form, b: Form, memo: dict) -> bool:
    """A = −B, read off the forms (canonical forms are unique, so −B's is B's with the sides swapped and negated)."""
    if a.nus is not None or b.nus is not None:
        return a.nus is not None and b.nus is not None and (a.nus[0], a.nus[1], a.nus[2]) == (
            -b.nus[0], -b.nus[1], b.nus[2])
    key = (a.uid, b.uid)
    if key not in memo:
        memo[key] = (len(a.left) == len(b.right) and len(a.right) == len(b.left)
                     and all(any(_mirrors(x, y, memo) for y in b.right) for x in a.left)
                     and all(any(_mirrors(x, y, memo) for y in b.left) for x in a.right))
    return memo[key]


Expansion = tuple  # (x, m, (a₁, …, a_k)): x + *m + a₁·↑ + a₂·↑² + … + a_k·↑ᵏ, a_k ≠ 0 (an uptimal)


def _trim(x: Fraction, m: int, a: tuple) -> Expansion:
    while a and a[-1] == 0:
        a = a[:-1]
    return x, m, a


def _raise(e: Expansion, star: bool, length: int) -> Expansion:
    """Add ↑ + ↑² + … + ↑^length (and * when `star`)."""
    x, m, a = e
    a = tuple(c + (i < length) for i, c in enumerate(a)) + (1,) * max(0, length - len(a))
    return _trim(x, m ^ star, a)


def _cut(e: Expansion, n: int, sharp: bool = False) -> Expansion:
    """The terms up to ↑ⁿ; `sharp`: and no nimber when none is left."""
    x, m, a = _trim(*e[:2], e[2][:n])
    return (x, 0, ()) if sharp and not a else (x, m, a)


def _last_at_most(a: tuple, v: int) -> int:
    return max((i + 1 for i, c in enumerate(a) if c <= v), default=0)


def _confused(e: Expansion) -> bool:
    """Whether x + *m + Σ aᵢ↑ⁱ is confused with x (the uptimal test of the first Left option 0)."""
    _, m, a = e
    if m == 0:
        return False
    if not a or a[0] == 0:
        return True
    if m >= 2:
        return False
    sign = 1 if a[0] > 0 else -1
    for c in a:
        if sign * c > 1:
            return False
        if sign * c < 1:
            return True
    return True


def _fits(e: Expansion, lefts: list[Expansion], right: Expansion) -> bool:
    """Whether Left's options are those of the uptimal e, whose one Right option is `right` (Siegel II.4: the
    canonical forms of uptimals, a_k > 0)."""
    base = [i for i, o in enumerate(lefts) if o[1] == right[1]]
    if len(base) > 1:
        return False
    a = e[2]
    nimbers = 0
    while nimbers < len(lefts) and not lefts[nimbers][2] and lefts[nimbers][1] == nimbers:
        nimbers += 1
    upto = len(a) - 1 if a[-1] == 1 else _last_at_most(a, 0)
    rest = _cut(e, upto)
    negative = _last_at_most(a, -1)
    if negative:
        if len(lefts) != 2 or not base:
            return False
        i = base[0]
        return lefts[i] == _raise(_cut(e, negative), True, negative) and lefts[1 - i] == rest
    if a[0] == 0:
        return len(lefts) == e[1] + 1 and nimbers >= e[1] and lefts[-1] == rest
    if a[0] == 1 and _confused(e):
        return len(lefts) == 2 and lefts[0][1:] == (0, ()) and lefts[1] == rest
    return len(lefts) == 1 and lefts[0] == _cut(e, upto, sharp=True)


def _flip(e: Expansion | None) -> Expansion | None:
    return None if e is None else (-e[0], e[1], tuple(-c for c in e[2]))


def expansion(g: Form, memo: dict | None = None) -> Expansion | None:
    """The uptimal expansion of g, or None when g is not an uptimal (a sum of a number, a nimber and ↑ⁱ's)."""
    memo = {} if memo is None else memo
    if g.nus is not None:
        x, n, k = g.nus
        return x, k, ((n,) if n else ())
    if g.uid not in memo:
        memo[g.uid] = _positive_expansion(g.left, g.right, memo, 1) or _flip(
            _positive_expansion(g.right, g.left, memo, -1))
    return memo[g.uid]


def _positive_expansion(left: tuple, right: tuple, memo: dict, sign: int) -> Expansion | None:
    """The expansion of {left | right} (negated when sign is −1: then left holds the negatives' sources) whose last
    coefficient is positive, or None."""
    if len(right) != 1:
        return None
    r = expansion(right[0], memo)
    lefts = [expansion(x, memo) for x in left]
    if r is None or any(o is None for o in lefts):
        return None
    if sign < 0:
        r, lefts = _flip(r), [_flip(o) for o in lefts]
    if any(o[0] != r[0] for o in lefts):
        return None
    lefts.sort(key=lambda o: (bool(o[2]), o[1], o[2]))
    if r[2] and r[2][-1] > 0:
        e = _raise(r, True, len(r[2]))
        if _fits(e, lefts, r):
            return e
    e = _raise(r, True, max([len(r[2])] + [len(o[2]) for o in lefts]) + 1)
    return e if _fits(e, lefts, r) else None


def _uptimal_text(e: Expansion) -> str | None:
    """x^<n>*m, xv[n]*m and the like: an uptimal of one ↑ⁿ (a unit) or of ↑ + … + ↑ⁿ (a unit sum), else None."""
    x, m, a = e
    ones = [c for c in a if c]
    unit = len(ones) == 1 and abs(ones[0]) == 1
    unit_sum = bool(a) and abs(a[0]) == 1 and all(c == a[0] for c in a)
    if len(a) < 2 or not (unit or unit_sum):
        return None
    mark = "^" if a[-1] > 0 else "v"
    head = "" if x == 0 else number_text(x)
    star = "" if m == 0 else "*" if m == 1 else f"*{m}"
    return f"{head}{mark}{'<' if unit else '['}{len(a)}{'>' if unit else ']'}{star}"


def _rank(g: Form, memo: dict) -> tuple:
    """Numbers first (by value), then nimbers, then other uptimals (by their expansions), then compound forms
    (CGSuite's order)."""
    e = expansion(g, memo)
    if e is None:
        return (3,)
    x, m, a = e
    if not a and m == 0:
        return (0, x)
    if not a and x == 0:
        return (1, m)
    return (2, x, a, m)


def _compare(g: Form, h: Form, memo: dict) -> int:
    """CGSuite's order of two forms (memoized on the pair: the forms share subgames)."""
    rg, rh = _rank(g, memo), _rank(h, memo)
    if rg != rh or rg[0] != 3:
        return (rg > rh) - (rg < rh)
    key = ("cmp", g.uid, h.uid)
    if key not in memo:
        memo[key] = 0
        for side in ("left", "right"):
            a, b = _sorted_side(g, side, memo), _sorted_side(h, side, memo)
            c = next((c for c in (_compare(x, y, memo) for x, y in zip(a, b)) if c), 0)
            if c or len(a) != len(b):
                memo[key] = c or (len(a) > len(b)) - (len(a) < len(b))
                break
    return memo[key]


def _sorted_side(g: Form, side: str, memo: dict) -> list:
    key = (side, g.uid)
    if key not in memo:
        memo[key] = _sorted(getattr(g, side), memo)
    return memo[key]


def _sorted(opts: tuple, memo: dict) -> list:
    return sorted(opts, key=cmp_to_key(lambda x, y: _compare(x, y, memo)))


def in_order(forms) -> list:
    """The forms in the order CGSuite lists options and sets of games."""
    return _sorted(tuple(forms), {})


class _Translated(LazyOptions):
    """s·B + x (s = ±1, x a number) for a canonical form B, read as a form without building it: −B's canonical form
    is B's with the sides swapped and negated, and when B is not a number the canonical form of B + x is
    {B^L + x | B^R + x} (the number translation theorem; Siegel, Combinatorial Game Theory ch. II; the tests hold it
    to the forms sums build). CGSuite writes x + Tiny(x − Z) with the subscript so; numbers and x + n·↑ + *k are
    written from `nus`, so their options are never read."""

    __slots__ = ("_sides", "base", "number", "nus", "shift", "sign", "uid")

    def __init__(self, base: Form, sign: int, shift: Fraction):
        if isinstance(base, _Translated):  # s·(s'·B + x') + x = s·s'·B + (s·x' + x)
            base, sign, shift = base.base, sign * base.sign, sign * base.shift + shift
        self.base, self.sign, self.shift = base, sign, shift
        self.uid = ("translated", base.uid, sign, shift)
        self.number = None if base.number is None else sign * base.number + shift
        self.nus = None if base.nus is None else (sign * base.nus[0] + shift, sign * base.nus[1], base.nus[2])
        self._sides: tuple | None = None

    def _options(self) -> tuple:
        if self._sides is None:
            near, far = (self.base.left, self.base.right) if self.sign > 0 else (self.base.right, self.base.left)
            self._sides = tuple(tuple(_Translated(x, self.sign, self.shift) for x in opts) for opts in (near, far))
        return self._sides


def _above(g: Form, x: Fraction) -> int:
    """The sign of mean(G) − x: from the stops where they tell (the mean lies between them, and they cost no
    arithmetic), else from the thermograph."""
    sign, shift = 1, Fraction(0)
    if isinstance(g, _Translated):
        g, sign, shift = g.base, g.sign, g.shift
    lo, hi = sorted(sign * v + shift for v in stops(g))
    if lo > x or hi < x:
        return 1 if lo > x else -1
    m = sign * mean(g) + shift
    return (m > x) - (m < x)


def _tiny(g: Form) -> tuple | None:
    """x + Tiny(x − Z) = {x || x | Z} or x + Miny(Z − x) = {Z | x || x}, x a number and Z of mean below x (above x),
    as CGSuite writes them: (x, the word, the subscript as a form), or None."""
    if len(g.left) != 1 or len(g.right) != 1:
        return None
    (a,), (b,) = g.left, g.right
    for num, other, word, toward, away, sign in ((a, b, "Tiny", "left", "right", -1),
                                                 (b, a, "Miny", "right", "left", 1)):
        if num.number is None or other.number is not None:
            continue
        near, far = getattr(other, toward), getattr(other, away)
        if (len(near) == 1 and near[0].number == num.number and len(far) == 1
                and _above(far[0], num.number) == sign):
            # the subscript is x − Z for Tiny, Z − x for Miny: never 0 (that would be x + ↑ or x + ↓, a number-up-star
            # written before this is asked)
            return num.number, word, _Translated(far[0], sign, -sign * num.number)
    return None


def _write(g: Form, braces: bool, parens: bool, memo: dict) -> tuple[str, int]:
    """The text of g and the bars of its outermost separator (0 when it is closed: a name or braces)."""
    if g.nus is not None:
        t = _nus_text(g)
        compact = g.nus[2] == 0 or (g.nus[0] == 0 and g.nus[1] == 0)
        return (f"({t})" if parens and not compact else t), 0
    if len(g.left) == 1 and _mirrors(g, g, memo):  # ±G: a game equal to its own negative
        t, _ = _write(g.left[0], True, True, memo)
        return "+-" + t, 0
    e = expansion(g, memo)
    t = _uptimal_text(e) if e is not None else None
    if t is not None:
        compact = e[0] == 0 and e[1] == 0
        return (f"({t})" if parens and not compact else t), 0
    tiny = _tiny(g)
    if tiny is not None:
        x, word, subscript = tiny
        t = ("" if x == 0 else number_text(x)) + f"{word}({_write(subscript, True, False, memo)[0]})"
        return (f"({t})" if parens else t), 0
    bars = 0
    sides = []
    for opts in (_sorted_side(g, "left", memo), _sorted_side(g, "right", memo)):
        many = len(opts) > 1
        parts = []
        for x in opts:
            text, inner = _write(x, many, False, memo)
            parts.append(text)
            bars = max(bars, inner + 1)
        sides.append(",".join(parts))
    text = sides[0] + "|" * bars + sides[1]
    if braces or bars == MAX_BARS:
        return "{" + text + "}", 0
    return text, bars


def _named(g: Form) -> str | None:
    """The text of x + n·↑ + *k, the values with a name of their own; None for a compound form."""
    return _nus_text(g) if g.nus is not None else None


def text_length(g: Form) -> int:
    """About the characters `to_text` would write (counted over the form's subgames, not written: a form shares
    its subgames, its text repeats them, so the text can be exponentially longer than the form); exact, by
    writing it, when braces everywhere would take at most EXACT_LENGTH characters."""
    rough = _length(g, {})
    return len(to_text(g)) if rough <= EXACT_LENGTH else rough


def text_within(g: Form, limit: int = MAX_TEXT) -> str | None:
    """The text of g, or None when it would take more than `limit` characters (then `definitions` writes it)."""
    return to_text(g) if text_length(g) <= limit else None


def _length(g: Form, memo: dict[int, int]) -> int:
    if g.uid not in memo:
        t = _named(g)
        memo[g.uid] = len(t) if t is not None else 3 + len(g.left) + len(g.right) + sum(
            _length(x, memo) for x in g.left + g.right)
    return memo[g.uid]


def to_text(g: Form) -> str:
    """CGSuite's plain-text form of a canonical value."""
    return _write(g, True, False, {})[0]


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
        t = _named(x)
        if t is not None:
            return t
        if x.uid not in names:
            names[x.uid] = "G" if not order else f"G{len(order)}"
            order.append(x)
        return names[x.uid]

    name(g) if _named(g) is None else None
    out = []
    i = 0
    while i < len(order):
        x = order[i]
        out.append(f"{names[x.uid]} = {{{','.join(name(y) for y in x.left)}|{','.join(name(y) for y in x.right)}}}")
        i += 1
    return out if out else [f"G = {to_text(g)}"]

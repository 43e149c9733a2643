"""Reading a short game typed in CGSuite's notation, into its canonical form.

Numbers (3, -3/8), nimbers (*, *4), ups and downs (^, v, ^^, vv, ^3, v3), sums written together (9/8*, 6^*,
73/16v9*8), switches (+-1, 3+-1: {3 + 1 | 3 − 1}), {L|R} with option lists and nested bars ({3||2*|1*} is
{3 | {2* | 1*}}: the longest run of bars splits the braces, and it must be the only one of its length — {3|2|1} is
ambiguous), Tiny(x) = {0 || 0 | −x}, Miny(x) = {x | 0 || 0}, ^<n> = ↑ⁿ and ^[n] = ↑ + … + ↑ⁿ (v<n>, v[n] their
negatives), +, − and parentheses. An error names the column where it is found. What can be typed is bounded
(MAX_CHARS, MAX_DEPTH, MAX_MULTIPLE, MAX_UPTIMAL; the work of bringing it to canonical form by `work_limit`), so no
input hangs.
"""

from __future__ import annotations

from fractions import Fraction

from ..errors import GameSyntaxError
from .canonical import ZERO, Game, add, game, neg, nimber, number, number_up_star, up_nth, up_sum
from .store import FormTooLarge, work_limit

MAX_CHARS = 10_000  # characters a game typed may have
MAX_DEPTH = 64  # braces and parentheses nested at most
MAX_MULTIPLE = 1024  # the largest n in *n, ^n, vn
MAX_UPTIMAL = 64  # the largest n in ^<n>, ^[n]
MAX_WORK = 2_000_000  # comparisons and sums spent bringing it to canonical form, at most
MAX_DIGITS = 4_000  # digits of a whole number written out (Python reads 4,300 at most)
_DIGITS = frozenset("0123456789")  # ASCII only: str.isdigit() also takes ² and ١, which int() refuses or misreads

STARTS = {"*", "^", "v", "{", "(", "Tiny", "Miny"}  # what may begin a term written after another (not a number)


class _Tokens:
    """The text cut into tokens: (kind, value, column), a run of bars one token ('|', its length)."""

    def __init__(self, text: str):
        self.text = text
        out: list[tuple[str, object, int]] = []
        i = 0
        while i < len(text):
            c = text[i]
            if c.isspace():
                i += 1
            elif c in _DIGITS:
                j = i
                while j < len(text) and text[j] in _DIGITS:
                    j += 1
                if j - i > MAX_DIGITS:
                    raise _error(text, i, f"a whole number of more than {MAX_DIGITS:,} digits")
                out.append(("int", int(text[i:j]), i))
                i = j
            elif c == "|":
                j = i
                while j < len(text) and text[j] == "|":
                    j += 1
                out.append(("|", j - i, i))
                i = j
            elif text.startswith("+-", i) or text.startswith("±", i):
                out.append(("+-", None, i))
                i += 1 if c == "±" else 2
            elif text.startswith("Tiny", i) or text.startswith("Miny", i):
                out.append((text[i:i + 4], None, i))
                i += 4
            elif c in "*^v{}(),+-/<>[]":
                out.append((c, None, i))
                i += 1
            else:
                raise _error(text, i, f"unexpected {c!r}")
        self.items = out
        self.i = 0

    def peek(self) -> str | None:
        return self.items[self.i][0] if self.i < len(self.items) else None

    def column(self) -> int:
        return self.items[self.i][2] if self.i < len(self.items) else len(self.text)

    def take(self, kind: str | None = None) -> tuple[str, object, int]:
        if self.i >= len(self.items):
            raise _error(self.text, len(self.text), f"expected {kind!r}, found the end" if kind else "unexpected end")
        tok = self.items[self.i]
        if kind is not None and tok[0] != kind:
            raise _error(self.text, tok[2], f"expected {kind!r}, found {tok[0]!r}")
        self.i += 1
        return tok


def _error(text: str, column: int, why: str) -> GameSyntaxError:
    return GameSyntaxError(f"{why} at column {column + 1} of {text[:60]!r}" + ("…" if len(text) > 60 else ""))


def parse_game(text: str) -> Game:
    """The canonical form of a game typed in CGSuite's notation (GameSyntaxError naming the column when it is not
    one; FormTooLarge when its canonical form would take more than MAX_WORK steps)."""
    if not isinstance(text, str):
        raise GameSyntaxError(f"a game is typed as text, not {type(text).__name__}")
    if len(text) > MAX_CHARS:
        raise GameSyntaxError(f"a game typed is at most {MAX_CHARS:,} characters, not {len(text):,}")
    if not text.strip():
        raise GameSyntaxError("no game typed")
    toks = _Tokens(text)
    try:
        with work_limit(MAX_WORK):
            g = _Parser(toks).whole()
    except FormTooLarge:
        raise FormTooLarge(f"{text[:60]!r} is too large to bring to canonical form within {MAX_WORK:,} steps "
                           "(comparisons and sums)") from None
    except RecursionError:  # sums and comparisons recurse through their games' options
        raise FormTooLarge(f"{text[:60]!r} reaches subgames nested deeper than Python's recursion allows") from None
    return g


def parse_number(text: str | None, what: str) -> Fraction | None:
    """A number typed in the notation (3, -1/2, 1+1/4), for an option named `what`; None when none was typed."""
    if text is None:
        return None
    g = parse_game(text)
    if g.number is None:
        raise GameSyntaxError(f"{what} takes a number (such as 1/2), not {text!r}")
    return g.number


class _Parser:
    def __init__(self, toks: _Tokens):
        self.t = toks
        self.depth = 0

    def whole(self) -> Game:
        g = self.expr()
        if self.t.peek() is not None:
            raise _error(self.t.text, self.t.column(), f"unexpected {self.t.peek()!r}")
        return g

    def expr(self) -> Game:
        """Terms joined by + and −."""
        g = self.signed()
        while self.t.peek() in ("+", "-"):
            op = self.t.take()[0]
            h = self.signed()
            g = add(g, h if op == "+" else neg(h))
        return g

    def signed(self) -> Game:
        """A term, with its sign (a run of minus signs counted, not recursed through), and a switch x+-y when one
        follows."""
        minus = 0
        while self.t.peek() == "-":
            self.t.take()
            minus += 1
        if minus:
            if self.t.peek() == "int":  # -1^ is −1 + ↑, as CGSuite writes it: the sign is the number's
                g = self._switch(self.together(negative=True))
                return g if minus % 2 else neg(g)
            g = self.signed()
            return neg(g) if minus % 2 else g
        if self.t.peek() == "+-":
            self.t.take()
            y = self.together()
            return game([y], [neg(y)])
        return self._switch(self.together())

    def _switch(self, x: Game) -> Game:
        """x, or x+-y = {x + y | x − y} when +- follows."""
        if self.t.peek() == "+-":
            self.t.take()
            y = self.together()
            return game([add(x, y)], [add(x, neg(y))])
        return x

    def together(self, negative: bool = False) -> Game:
        """Terms written together are added: 73/16v9*8 = 73/16 + v9 + *8."""
        if self.t.peek() not in STARTS and self.t.peek() != "int":
            found = self.t.peek()
            raise _error(self.t.text, self.t.column(), "expected a game" + (f", found {found!r}" if found else
                                                                           ", found the end"))
        g = self.atom(first=True)
        if negative:
            g = neg(g)  # the first term is a number (signed checked it)
        while self.t.peek() in STARTS:
            g = add(g, self.atom(first=False))
        if self.t.peek() == "int":
            raise _error(self.t.text, self.t.column(), "a number written after another term")
        return g

    def atom(self, first: bool) -> Game:
        kind, value, col = self.t.take()
        if kind == "int":
            if self.t.peek() == "/":
                self.t.take()
                den = self.t.take("int")
                d = den[1]
                if d == 0 or d & (d - 1):
                    raise _error(self.t.text, den[2], f"{value}/{d} is not a dyadic rational (m/2^k)")
                return number(Fraction(value, d))
            return number(value)
        if kind == "*":
            return nimber(self._multiple(1))
        if kind in ("^", "v"):
            n = 1
            while self.t.peek() == kind:
                self.t.take()
                n += 1
            if n == 1 and self.t.peek() in ("<", "["):
                return self._uptimal(kind)
            if n == 1:
                n = self._multiple(1)
            return number_up_star(0, n if kind == "^" else -n, 0)
        if kind == "(":
            g = self._nested(self.expr)
            self.t.take(")")
            return g
        if kind == "{":
            g = self._nested(self.braces)
            self.t.take("}")
            return g
        if kind in ("Tiny", "Miny"):
            self.t.take("(")
            x = self._nested(self.expr)
            self.t.take(")")
            inner = game([ZERO], [neg(x)]) if kind == "Tiny" else game([x], [ZERO])
            return game([ZERO], [inner]) if kind == "Tiny" else game([inner], [ZERO])
        raise _error(self.t.text, col, f"unexpected {kind!r}")

    def _uptimal(self, kind: str) -> Game:
        """^<n> = ↑ⁿ (↑¹ = ↑, ↑ⁿ⁺¹ = {0 | ↓ⁿ*}) or ^[n] = ↑ + ↑² + … + ↑ⁿ (↑^[n+1] = {↑^[n] | *}); v for the
        negatives."""
        bracket, _, _ = self.t.take()
        closing = ">" if bracket == "<" else "]"
        _, n, col = self.t.take("int")
        if not 1 <= n <= MAX_UPTIMAL:
            raise _error(self.t.text, col, f"the n of ^{bracket}n{closing} runs from 1 to {MAX_UPTIMAL}, not {n:,}")
        self.t.take(closing)
        g = up_nth(n) if bracket == "<" else up_sum(n)
        return g if kind == "^" else neg(g)

    def _multiple(self, default: int) -> int:
        """The n after *, ^ or v (default when none), within MAX_MULTIPLE."""
        if self.t.peek() != "int":
            return default
        _, n, col = self.t.take()
        if n > MAX_MULTIPLE:
            raise _error(self.t.text, col, f"{n:,} is above the largest multiple typed, {MAX_MULTIPLE:,}")
        return n

    def _nested(self, inside):
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise _error(self.t.text, self.t.column(), f"more than {MAX_DEPTH} braces or parentheses nested")
        try:
            return inside()
        finally:
            self.depth -= 1

    def braces(self, stop: int | None = None) -> Game:
        """What stands between { and } (or, nested by bars, between two bars): its longest run of bars splits it."""
        start = self.t.i
        end = self._closing(start) if stop is None else stop
        runs = []
        depth = 0
        for j in range(start, end):
            kind, value, col = self.t.items[j]
            if kind in ("{", "("):
                depth += 1
            elif kind in ("}", ")"):
                depth -= 1
            elif kind == "|" and depth == 0:
                runs.append((value, j))
        if not runs:
            raise _error(self.t.text, self.t.items[start][2] if start < end else self.t.column(),
                         "braces without a bar between Left's and Right's options")
        top = max(v for v, _ in runs)
        at = [j for v, j in runs if v == top]
        if len(at) > 1:
            raise _error(self.t.text, self.t.items[at[1]][2],
                         f"ambiguous: two separators of {top} bar{'s' * (top > 1)} at the same level")
        split = at[0]
        left = self._side(start, split)
        self.t.i = split + 1
        right = self._side(split + 1, end)
        self.t.i = end
        return game(left, right)

    def _side(self, start: int, end: int) -> list[Game]:
        """One side's options: a nested game when it holds bars, else a list of games separated by commas."""
        self.t.i = start
        if self._bars_outside(start, end):
            return [self._nested(lambda: self.braces(end))]
        out = []
        while self.t.i < end:
            saved = self.t.items
            self.t.items = saved[:end]  # an option ends at the side's end
            try:
                out.append(self.expr())
            finally:
                self.t.items = saved
            if self.t.i < end:
                self.t.take(",")
                if self.t.i >= end:
                    raise _error(self.t.text, self.t.column(), "an option expected after ','")
        return out

    def _bars_outside(self, start: int, end: int) -> bool:
        """Whether tokens start..end−1 hold a bar outside any braces or parentheses."""
        depth = 0
        for kind, _, _ in self.t.items[start:end]:
            if kind in ("{", "("):
                depth += 1
            elif kind in ("}", ")"):
                depth -= 1
            elif kind == "|" and depth == 0:
                return True
        return False

    def _closing(self, start: int) -> int:
        """The index of the } that closes the braces opened just before `start`."""
        depth = 0
        for j in range(start, len(self.t.items)):
            kind = self.t.items[j][0]
            if kind in ("{", "("):
                depth += 1
            elif kind in ("}", ")"):
                if depth == 0:
                    if kind != "}":
                        raise _error(self.t.text, self.t.items[j][2], "')' closes a brace")
                    return j
                depth -= 1
        raise _error(self.t.text, len(self.t.text), "a brace is never closed")

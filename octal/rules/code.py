"""Take-and-break codes: parse `d0.d1d2…` (CGSuite's whole grammar) into rules, and say them back.

Digit d_k says what a move removing k tokens from one heap may leave (see `digits`): octal and
hexadecimal digits are masks (bit 1 nothing, 2 one heap, 4 two heaps, 8 three); base-32 digits reach four
heaps; `&N;`, `*`, `{2,3}`, `{2+}` and the constraints `!` `?` `=` name any counts. d_0 removes nothing, so it
may only split. A repeating tail `[…]` ends the code. Digits before d_0 (CGSuite's additive digits, which add
tokens) are refused: nothing here proves such a game ends, so no value is computed for one.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Iterator

from ..errors import OctalCodeError
from .digits import (
    BASE32,
    EQUAL,
    FREE,
    MARK_WORDS,
    MARKS,
    MAX_COUNT,
    NOT_ALL_EQUAL,
    UNEQUAL,
    ZERO,
    Digit,
    partitions,
)
from .numbers import ascii_whole

MAX_DIGITS = 256
_POINTS = ".\u00b7\u2219\u22c5"  # full stop, middle dot, bullet operator, dot operator

WHOLE, ONE, TWO, THREE = 1, 2, 4, 8  # the octal/hexadecimal digit bits: leave 0, 1, 2, 3 heaps

OCTAL, HEXADECIMAL, GENERAL = "octal", "hexadecimal", "general"  # kernel tiers, see OctalCode.tier


@dataclass(frozen=True)
class Criteria:
    """What the periodicity theorem needs: a move leaves at most `heaps` heaps and removes at most `take` tokens."""

    heaps: int
    take: int


@dataclass(frozen=True)
class OctalCode:
    """A parsed code: `digits[k]` for k = 0..len-1, then `tail` repeating forever (empty when finite).

    Digits may be given as masks (ints) or `Digit`s; they are stored as `Digit`s in canonical form.
    """

    digits: tuple
    tail: tuple = ()

    def __post_init__(self) -> None:
        digits = tuple(_as_digit(d) for d in self.digits)
        tail = tuple(_as_digit(d) for d in self.tail)
        digits, tail = _canonical(digits, tail)
        object.__setattr__(self, "digits", digits)
        object.__setattr__(self, "tail", tail)

    # ---- the rules -------------------------------------------------------------------------
    def digit(self, k: int) -> Digit:
        """The digit d_k (zero beyond a finite code)."""
        if k < len(self.digits):
            return self.digits[k]
        if not self.tail:
            return ZERO
        return self.tail[(k - len(self.digits)) % len(self.tail)]

    @property
    def is_finite(self) -> bool:
        """True when only finitely many digits are non-zero."""
        return not self.tail

    @property
    def max_take(self) -> int | float:
        """t: the largest k with d_k ≠ 0 (math.inf for a repeating tail)."""
        if self.tail:
            return math.inf
        return len(self.digits) - 1

    @property
    def max_heaps(self) -> int | float:
        """Most heaps a move can leave from one heap (math.inf when a digit allows any number); 0 at least."""
        return max([0] + [d.max_heaps for d in self.digits + self.tail])

    @property
    def is_plain(self) -> bool:
        """True when no digit has a constraint that bites or an open count (`*`, `{2+}`)."""
        return all(d.is_plain for d in self.digits + self.tail)

    @property
    def tier(self) -> str:
        """Which kernels can compute it: OCTAL (≤ 2 heaps, any constraint: naive and sparse), HEXADECIMAL
        (plain, 3 heaps: the bitset kernel) or GENERAL (anything else: the partition-table kernel)."""
        heaps = self.max_heaps
        if heaps <= 2:
            return OCTAL
        if heaps == 3 and self.is_plain:
            return HEXADECIMAL
        return GENERAL

    @property
    def is_hexadecimal(self) -> bool:
        """True when the kernels need more than the two-heap (octal) machinery."""
        return self.tier != OCTAL

    @property
    def no_theorem(self) -> str | None:
        """Why the periodicity theorem does not apply, in words (None where it does)."""
        if not self.is_finite:
            return "a code with a repeating tail"
        if any(d.more for d in self.digits):
            return "a code with an open count (*, {n+})"
        if not self.is_plain:
            return "a code with a constraint (!, ?, =) on how heaps split"
        return None

    @property
    def proof_criteria(self) -> Criteria | None:
        """The periodicity theorem's inputs, or None where it does not apply: a repeating tail, an open count,
        or a constraint (shifting one part of an unequal split can make it equal, so the argument breaks)."""
        if not self.is_finite or not self.is_plain:
            return None
        return Criteria(max(int(self.max_heaps), 1), int(self.max_take))

    # ---- the options of a heap: the rules' own word, used by positions, play and misère ------
    def counts(self, k: int, m: int) -> Iterator[tuple[int, str]]:
        """(j, mark) for each number j of heaps a move removing k tokens may leave from m remaining tokens."""
        d = self.digit(k)
        for j in range(0 if k else 2, int(min(m, d.max_heaps)) + 1):
            tie = d.tie(j)
            if tie is not None:
                yield j, tie

    def options(self, h: int, split_limit: int | None = None) -> Iterator[tuple[int, tuple[int, ...]]]:
        """Every move from a heap of h as (k removed, heaps left ascending), by k, then count, then partition;
        at most `split_limit` partitions per (k, count) when given."""
        top = h if not self.is_finite else min(h, int(self.max_take))
        for k in range(0, top + 1):
            m = h - k
            for j, tie in self.counts(k, m):
                for i, parts in enumerate(partitions(m, j, tie)):
                    if split_limit is not None and i >= split_limit:
                        break
                    yield k, parts

    def allows(self, heap: int, k: int, leaves: tuple[int, ...]) -> bool:
        """True when removing k from `heap` may leave `leaves` — O(number of leaves), any heap size."""
        if k < 0 or any(x < 1 for x in leaves) or sum(leaves) != heap - k:
            return False
        j = len(leaves)
        if k == 0 and j < 2:
            return False
        tie = self.digit(k).tie(j)
        if tie is None:
            return False
        distinct = len(set(leaves))
        if j < 2 or tie == FREE:
            return True
        return {UNEQUAL: distinct == j, NOT_ALL_EQUAL: distinct > 1, EQUAL: distinct == 1}[tie]

    # ---- text forms ------------------------------------------------------------------------
    def __str__(self) -> str:
        body = "".join(map(str, self.digits[1:]))
        if self.tail:
            body += "[" + "".join(map(str, self.tail)) + "]"
        return f"{self.digits[0]}.{body or '0'}"

    def __repr__(self) -> str:
        return f"OctalCode('{self}')"

    def describe(self) -> str:
        """The rules in words, e.g. 0.77: 'remove 1 or 2 tokens from a heap, optionally splitting …'."""
        clauses: list[str] = []
        if self.digits[0]:
            clauses.append("without removing any token, split a heap into "
                           + _leaves_words(self.digits[0], splits_only=True))
        groups: list[tuple[Digit, list[int]]] = []
        for k in range(1, len(self.digits)):
            d = self.digits[k]
            if not d:
                continue
            if groups and groups[-1][0] == d and groups[-1][1][-1] == k - 1:
                groups[-1][1].append(k)
            else:
                groups.append((d, [k]))
        for d, ks in groups:
            clauses.append(_digit_clause(d, _numbers(ks)))
        if self.tail:
            start, period = len(self.digits), len(self.tail)
            for i, d in enumerate(self.tail):
                if not d:
                    continue
                k0 = start + i
                what = f"any number k ≥ {k0} of" if period == 1 else f"k ≥ {k0}, k ≡ {k0 % period} (mod {period}),"
                clauses.append(_digit_clause(d, what))
        if not clauses:
            return "no moves at all: every position is a loss for the player to move"
        return "; or ".join(clauses)


def _as_digit(d) -> Digit:
    if isinstance(d, Digit):
        return d
    if isinstance(d, bool) or not isinstance(d, numbers.Integral) or d < 0:
        raise OctalCodeError(f"a digit is a non-negative mask or a Digit, not {d!r}")
    return Digit.of_mask(int(d))


def _numbers(ks: list[int]) -> str:
    if len(ks) == 1:
        return str(ks[0])
    if len(ks) > 3:
        return f"{ks[0]} to {ks[-1]}"
    return ", ".join(map(str, ks[:-1])) + f" or {ks[-1]}"


_COUNT_WORDS = {0: "nothing", 1: "one heap", 2: "two", 3: "three", 4: "four"}


def _count_words(j: int, mark: str | None) -> str:
    if j < 2:
        return _COUNT_WORDS[j]
    number = _COUNT_WORDS.get(j, str(j))
    if mark == UNEQUAL:
        return f"{number} {'unequal' if j == 2 else 'pairwise unequal'} heaps"
    if mark == EQUAL:
        return f"{number} equal heaps"
    if mark and j == 2:
        return "two unequal heaps"
    if mark:
        return f"{number} heaps, not all equal"
    return f"{number} heaps"


def _leaves_words(d: Digit, splits_only: bool = False) -> str:
    """'nothing, one heap or two unequal heaps'; an open count reads 'any number ≥ j of heaps'."""
    counts = [j for j, t in enumerate(d.ties) if t is not None and (j >= 2 or not splits_only)]
    if d.more:
        top = counts.pop()
        mark = d.ties[-1]
        tail = f"any number of heaps from {top} up" + (f" ({MARK_WORDS[mark]})" if mark else "")
        parts = [_count_words(j, d.ties[j]) for j in counts] + [tail]
    else:
        parts = [_count_words(j, d.ties[j]) for j in counts]
    return ", ".join(parts[:-1]) + (" or " if len(parts) > 1 else "") + parts[-1]


def _digit_clause(d: Digit, what: str) -> str:
    noun = "token" if what == "1" else "tokens"
    take = f"remove {what} {noun}"
    if d.is_plain and d.mask < 16:
        m = d.mask
        if m == WHOLE:
            return f"take away a whole heap of {what} {noun}"
        if m == WHOLE | ONE:
            return f"{take} from a heap"
        if m == WHOLE | ONE | TWO:
            return f"{take} from a heap, optionally splitting what remains into two heaps"
        if m == ONE:
            return f"{take} from a heap, not the whole heap"
        if m == ONE | TWO:
            return f"{take} from a heap, not the whole heap, optionally splitting what remains into two heaps"
        if m == TWO:
            return f"{take} from the inside of a heap, leaving two non-empty heaps"
    return f"{take} from a heap, leaving {_leaves_words(d)}"


def _canonical(digits: tuple[Digit, ...], tail: tuple[Digit, ...]) -> tuple[tuple[Digit, ...], tuple[Digit, ...]]:
    """Shortest tail, finite part as short as the tail allows, no trailing zeros, at least d0."""
    if not digits:
        digits = (ZERO,)
    if tail:
        L = len(tail)
        for p in range(1, L + 1):  # minimal period of the repeating block
            if L % p == 0 and tail == tail[:p] * (L // p):
                tail = tail[:p]
                break
        if all(not d for d in tail):
            tail = ()
        else:
            # absorb finite digits that continue the tail backwards (0.3[3] == 0.[3]), keeping d0
            while len(digits) > 1 and digits[-1] == tail[-1]:
                tail = (tail[-1],) + tail[:-1]
                digits = digits[:-1]
    if not tail:
        while len(digits) > 1 and not digits[-1]:
            digits = digits[:-1]
    return digits, tail


# ---- parsing ---------------------------------------------------------------------------------
class _Reader:
    """A cursor over the code text that reports errors at positions of the text as given."""

    def __init__(self, raw: str, s: str, lead: int):
        self.raw, self.s, self.lead, self.i = raw, s, lead, 0

    def fail(self, message: str, at: int | None = None) -> OctalCodeError:
        return OctalCodeError(message, self.raw, self.lead + (self.i if at is None else at))

    def peek(self) -> str:
        return self.s[self.i] if self.i < len(self.s) else ""

    def mark(self) -> str:
        c = self.peek()
        if c in MARKS:
            self.i += 1
            return c
        return FREE

    def digit(self) -> Digit:
        """One digit token: a base-32 character, &N;, * or {…}, each with an optional constraint mark."""
        c, start = self.s[self.i], self.i
        if c in BASE32:
            self.i += 1
            return Digit.of_mask(BASE32.index(c), self.mark())
        if c == "&":
            end = self.s.find(";", self.i)
            if end < 0:
                raise self.fail("'&' without its closing ';' (write a mask as &N;)")
            body = self.s[self.i + 1 : end]
            mask = ascii_whole(body, 40)
            if mask is None:
                raise self.fail(f"{body[:20]!r} is not a whole number of at most 40 digits (write a mask as &N;)",
                                start + 1)
            if mask.bit_length() > MAX_COUNT + 1:
                raise self.fail(f"&{body}; names more than {MAX_COUNT} heaps", start)
            self.i = end + 1
            return Digit.of_mask(mask, self.mark())
        if c == "*":
            self.i += 1
            return Digit((self.mark(),), more=True)
        if c == "{":
            return self.count_list()
        raise self.fail(f"{c!r} is not a digit (0-9, A-V, &N;, *, or {{…}})")

    def count_list(self) -> Digit:
        """{2,3}, {2,3!}, {2+}, {0,2+}! : the heap counts a move may leave, with per-count or global marks."""
        start = self.i
        end = self.s.find("}", self.i)
        if end < 0:
            raise self.fail("'{' is never closed")
        body = self.s[self.i + 1 : end]
        self.i = end + 1
        default = self.mark()
        more = body.endswith("+")
        if more:
            body = body[:-1]
        ties: dict[int, str] = {}
        pos = start + 1
        for token in body.split(","):
            word = token.strip()
            own = word[-1] if word and word[-1] in MARKS else None
            number = word[:-1] if own else word
            j = ascii_whole(number)
            if j is None:
                raise self.fail(f"{token[:20]!r} is not a heap count", pos)
            if own and default:
                raise self.fail("a mark inside {…} and another after it", pos)
            if j > MAX_COUNT:
                raise self.fail(f"a move may leave at most {MAX_COUNT} heaps, not {j}", pos)
            ties[j] = own or default
            pos += len(token) + 1
        top = max(ties)
        return Digit(tuple(ties.get(j) for j in range(top + 1)), more=more)


def parse_code(text: str) -> OctalCode:
    """Parse '0.77', '.77', '4.07', '0.F', '0.[3]', '4!.0', '0.{2+}', '0.&96;' … (case-insensitive) into an
    OctalCode."""
    if not isinstance(text, str):
        raise OctalCodeError(f"a code must be a string, not {type(text).__name__}")
    raw = text
    s = text.strip().upper()
    lead = len(text) - len(text.lstrip())  # positions are reported in the text as given
    if not s:
        raise OctalCodeError("empty code: expected something like 0.77")
    r = _Reader(raw, s, lead)
    head: list[tuple[int, Digit]] = []
    finite: list[Digit] = []
    tail: list[Digit] = []
    point = in_tail = closed = False
    open_at = -1
    while r.i < len(s):
        c, at = s[r.i], r.i
        if c in _POINTS:
            if point:
                raise r.fail("a second point")
            point = True
            r.i += 1
        elif c == "[":
            if not point:
                raise r.fail("a repeating tail '[…]' before the point")
            if closed or in_tail:
                raise r.fail("more than one bracket group (only one repeating tail is allowed)")
            in_tail, open_at = True, at
            r.i += 1
        elif c == "]":
            if not in_tail:
                raise r.fail("']' without a matching '['")
            if not tail:
                raise r.fail("empty brackets: the repeating tail needs at least one digit")
            in_tail, closed = False, True
            r.i += 1
        elif closed:
            raise r.fail("digits after the repeating tail (the bracket group must end the code)")
        else:
            d = r.digit()
            if not point:
                head.append((at, d))
            else:
                (tail if in_tail else finite).append(d)
        if len(head) + len(finite) + len(tail) > MAX_DIGITS:
            raise r.fail(f"code longer than {MAX_DIGITS} digits", at)
    if not point:
        raise OctalCodeError("no point: a code looks like 0.77 or .77", raw)
    if not (head or finite or tail):
        raise OctalCodeError("no digits: a code looks like 0.77 or .77", raw)
    if in_tail:
        raise r.fail("'[' is never closed", open_at)
    for at, d in head[:-1]:
        if d:
            raise r.fail("a digit before d0 adds tokens (CGSuite's additive digits): such games are not "
                         "supported, since nothing proves they end", at)
    d0 = ZERO
    if head:
        at, d0 = head[-1]
        if d0.tie(0) is not None or d0.tie(1) is not None:
            raise r.fail(f"d0 = {d0} allows leaving one heap or none, but a move that removes nothing must split "
                         "the heap (d0 may only allow two or more heaps: 4, 8, C, 4!, {2+} …)", at)
    return OctalCode((d0, *finite), tuple(tail))

"""Take-and-break codes: parse `d0.d1d2…` (octal or hexadecimal, optional repeating tail) into rules.

Digit d_k says what a move removing k tokens from one heap may leave: bit 1 nothing (the whole heap
was k), bit 2 one non-empty heap, bit 4 two non-empty heaps, bit 8 three (hexadecimal games).
d_0 removes nothing, so only its splitting bits 4 and 8 are meaningful.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .errors import OctalCodeError

MAX_DIGITS = 256
_HEX = "0123456789ABCDEF"
_POINTS = ".\u00b7\u2219\u22c5"  # full stop, middle dot, bullet operator, dot operator

WHOLE, ONE, TWO, THREE = 1, 2, 4, 8


@dataclass(frozen=True)
class OctalCode:
    """A parsed code: `digits[k]` for k = 0..len-1, then `tail` repeating forever (empty when finite)."""

    digits: tuple[int, ...]
    tail: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        digits, tail = _canonical(tuple(self.digits), tuple(self.tail))
        object.__setattr__(self, "digits", digits)
        object.__setattr__(self, "tail", tail)

    # ---- the rules -------------------------------------------------------------------------
    def digit(self, k: int) -> int:
        """The digit d_k (0 beyond a finite code)."""
        if k < len(self.digits):
            return self.digits[k]
        if not self.tail:
            return 0
        return self.tail[(k - len(self.digits)) % len(self.tail)]

    @property
    def is_finite(self) -> bool:
        """True when only finitely many digits are non-zero (the periodicity theorem applies)."""
        return not self.tail

    @property
    def max_take(self) -> int | float:
        """t: the largest k with d_k ≠ 0 (math.inf for a repeating tail)."""
        if self.tail:
            return math.inf
        return len(self.digits) - 1

    @property
    def max_heaps(self) -> int:
        """Most heaps a move can leave from one heap: 3 (bit 8), 2 (bit 4), 1 (bit 2) or 0 (no move leaves any)."""
        bits = 0
        for d in self.digits + self.tail:
            bits |= d
        return next((r for bit, r in ((THREE, 3), (TWO, 2), (ONE, 1)) if bits & bit), 0)

    @property
    def is_hexadecimal(self) -> bool:
        """True when some digit exceeds 7 (a move may leave three heaps)."""
        return self.max_heaps == 3

    def moves_by_kind(self, limit: int) -> dict[int, list[int]]:
        """For each bit (1, 2, 4, 8), the k < limit whose digit has it: the kernels' input."""
        out: dict[int, list[int]] = {WHOLE: [], ONE: [], TWO: [], THREE: []}
        top = limit if self.tail else min(limit, len(self.digits))
        for k in range(top):
            d = self.digit(k)
            for bit in out:
                if d & bit:
                    out[bit].append(k)
        return out

    # ---- text forms ------------------------------------------------------------------------
    def __str__(self) -> str:
        body = "".join(_HEX[d] for d in self.digits[1:])
        if self.tail:
            body += "[" + "".join(_HEX[d] for d in self.tail) + "]"
        return f"{_HEX[self.digits[0]]}.{body or '0'}"

    def __repr__(self) -> str:
        return f"OctalCode('{self}')"

    def describe(self) -> str:
        """The rules in words, e.g. 0.77: 'remove 1 or 2 tokens from a heap, optionally splitting …'."""
        clauses: list[str] = []
        if self.digits[0]:
            clauses.append(_split_only_clause(self.digits[0]))
        groups: list[tuple[int, list[int]]] = []
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


def _numbers(ks: list[int]) -> str:
    if len(ks) == 1:
        return str(ks[0])
    if len(ks) > 3:
        return f"{ks[0]} to {ks[-1]}"
    return ", ".join(map(str, ks[:-1])) + f" or {ks[-1]}"


def _digit_clause(d: int, what: str) -> str:
    noun = "token" if what == "1" else "tokens"
    take = f"remove {what} {noun}"
    if d == WHOLE:
        return f"take away a whole heap of {what} {noun}"
    leaves = [w for bit, w in ((ONE, "one heap"), (TWO, "two heaps"), (THREE, "three heaps")) if d & bit]
    whole = bool(d & WHOLE)
    if d == WHOLE | ONE:
        return f"{take} from a heap"
    if d == WHOLE | ONE | TWO:
        return f"{take} from a heap, optionally splitting what remains into two heaps"
    if d == ONE:
        return f"{take} from a heap, not the whole heap"
    if d == ONE | TWO:
        return f"{take} from a heap, not the whole heap, optionally splitting what remains into two heaps"
    if d == TWO:
        return f"{take} from the inside of a heap, leaving two non-empty heaps"
    options = (["nothing"] if whole else []) + leaves
    return f"{take} from a heap, leaving " + ", ".join(options[:-1]) + (" or " if len(options) > 1 else "") + options[-1]


def _split_only_clause(d0: int) -> str:
    parts = [w for bit, w in ((TWO, "two"), (THREE, "three")) if d0 & bit]
    return f"split a heap into {' or '.join(parts)} non-empty heaps without removing any token"


def _canonical(digits: tuple[int, ...], tail: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Shortest tail, finite part as short as the tail allows, no trailing zeros, at least d0."""
    if not digits:
        digits = (0,)
    if tail:
        L = len(tail)
        for p in range(1, L + 1):  # minimal period of the repeating block
            if L % p == 0 and tail == tail[:p] * (L // p):
                tail = tail[:p]
                break
        if all(d == 0 for d in tail):
            tail = ()
        else:
            # absorb finite digits that continue the tail backwards (0.3[3] == 0.[3]), keeping d0
            while len(digits) > 1 and digits[-1] == tail[-1]:
                tail = (tail[-1],) + tail[:-1]
                digits = digits[:-1]
    if not tail:
        while len(digits) > 1 and digits[-1] == 0:
            digits = digits[:-1]
    return digits, tail


def parse_code(text: str) -> OctalCode:
    """Parse '0.77', '.77', '0·77', '4.07', '0.F', '0.[3]', '0.3[03]' (case-insensitive) into an OctalCode."""
    if not isinstance(text, str):
        raise OctalCodeError(f"a code must be a string, not {type(text).__name__}")
    raw = text
    s = text.strip().upper()
    lead = len(text) - len(text.lstrip())  # positions are reported in the text as given
    if not s:
        raise OctalCodeError("empty code: expected something like 0.77")
    points = [i for i, c in enumerate(s) if c in _POINTS]
    if not points:
        raise OctalCodeError("no point: a code looks like 0.77 or .77", raw)
    if len(points) > 1:
        raise OctalCodeError("a second point", raw, lead + points[1])
    p = points[0]
    head, body = s[:p], s[p + 1 :]
    if len(head) > 1:
        raise OctalCodeError("more than one digit before the point (d0 is a single digit)", raw, lead)
    d0 = 0
    if head:
        if head not in _HEX:
            raise OctalCodeError(f"{head!r} is not a digit 0-9 or A-F", raw, lead)
        d0 = _HEX.index(head)
        if d0 & (WHOLE | ONE):
            raise OctalCodeError(
                f"d0 = {head} has bit 1 or 2, but a move that removes nothing must split the heap "
                "(only 0, 4, 8 or C may stand before the point)",
                raw,
                lead,
            )
    finite: list[int] = []
    tail: list[int] = []
    in_tail = closed = False
    open_at = -1
    for i, c in enumerate(body):
        pos = lead + p + 1 + i
        if c == "[":
            if closed or in_tail:
                raise OctalCodeError("more than one bracket group (only one repeating tail is allowed)", raw, pos)
            in_tail, open_at = True, pos
        elif c == "]":
            if not in_tail:
                raise OctalCodeError("']' without a matching '['", raw, pos)
            if not tail:
                raise OctalCodeError("empty brackets: the repeating tail needs at least one digit", raw, pos)
            in_tail, closed = False, True
        elif c in _HEX:
            if closed:
                raise OctalCodeError("digits after the repeating tail (the bracket group must end the code)", raw, pos)
            (tail if in_tail else finite).append(_HEX.index(c))
        else:
            raise OctalCodeError(f"{c!r} is not a digit 0-9 or A-F", raw, pos)
        if len(finite) + len(tail) > MAX_DIGITS:
            raise OctalCodeError(f"code longer than {MAX_DIGITS} digits", raw, pos)
    if in_tail:
        raise OctalCodeError("'[' is never closed", raw, open_at)
    return OctalCode((d0, *finite), tuple(tail))

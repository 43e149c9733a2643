"""One code digit of a take-and-break game: how many heaps a move removing k tokens may leave, and how.

A digit allows leaving j heaps (j = 0, 1, 2, …) under a constraint on the heaps left: free, `!` pairwise
unequal, `?` not all equal, `=` all equal; `more` extends the top count's rule to every larger count.
Plain digits are bit masks (bit j: j heaps), written in base 32 (`0-9A-V`) or as `&N;`; `*` is any number
of heaps and `{2,3!}` / `{2+}` list the counts. The canonical text is CGSuite's (its `TakeAndBreak`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterator

BASE32 = "0123456789ABCDEFGHIJKLMNOPQRSTUV"
MAX_COUNT = 63  # heap counts a digit may name (CGSuite's limit)

FREE, NOT_ALL_EQUAL, UNEQUAL, EQUAL = "", "?", "!", "="  # constraint marks on the heaps left
MARKS = (NOT_ALL_EQUAL, UNEQUAL, EQUAL)
TIE_CODES = {None: 0, FREE: 1, NOT_ALL_EQUAL: 2, UNEQUAL: 3, EQUAL: 4}  # what the kernels read
MARK_WORDS = {UNEQUAL: "pairwise unequal", NOT_ALL_EQUAL: "not all equal", EQUAL: "equal"}


@dataclass(frozen=True)
class Digit:
    """ties[j] is the constraint on leaving j heaps (None: not allowed); `more`: ties[-1] for every count above."""

    ties: tuple[str | None, ...] = ()
    more: bool = False

    def __post_init__(self) -> None:
        ties, more = _normalise(tuple(self.ties), bool(self.more))
        object.__setattr__(self, "ties", ties)
        object.__setattr__(self, "more", more)

    @classmethod
    def of_mask(cls, mask: int, mark: str = FREE) -> Digit:
        """The digit allowing j heaps for each bit j of `mask`, all under `mark`."""
        return cls(tuple(mark if mask >> j & 1 else None for j in range(mask.bit_length())))

    def tie(self, j: int) -> str | None:
        """The constraint on leaving j heaps, None when not allowed."""
        if j < len(self.ties):
            return self.ties[j]
        return self.ties[-1] if self.more and self.ties else None

    def __bool__(self) -> bool:
        return bool(self.ties)

    @property
    def mask(self) -> int:
        """Bit j for every explicitly allowed count j (a `more` digit allows more than this says)."""
        return sum(1 << j for j, t in enumerate(self.ties) if t is not None)

    @property
    def max_heaps(self) -> int | float:
        """Most heaps a move may leave (math.inf with `more`); −1 for the zero digit."""
        return math.inf if self.more else len(self.ties) - 1

    @property
    def is_plain(self) -> bool:
        """True for an octal/hexadecimal-style digit: a finite mask with no constraint that bites."""
        return not self.more and all(t in (None, FREE) for t in self.ties[2:])

    def __str__(self) -> str:
        if not self.ties:
            return "0"
        last = self.ties[-1]
        allowed = [(j, t) for j, t in enumerate(self.ties) if t is not None]
        if all(t == last for _, t in allowed):
            if not self.more:
                m = self.mask
                return (BASE32[m] if m < 32 else f"&{m};") + last
            if len(self.ties) == 1:
                return "*" + last
            return "{" + ",".join(str(j) for j, _ in allowed) + "+}" + last
        return "{" + ",".join(f"{j}{t}" for j, t in allowed) + ("+" if self.more else "") + "}"

    def __repr__(self) -> str:
        return f"Digit({str(self)!r})"



def _normalise(ties: tuple[str | None, ...], more: bool) -> tuple[tuple[str | None, ...], bool]:
    """CGSuite's normal form: no trailing disallowed counts; counts 0 and 1 take the one constraint used at
    counts ≥ 2 (else none); a `more` tail is padded to four counts, then cut to the first of its run."""
    while ties and ties[-1] is None:
        ties = ties[:-1]
    if not ties:
        return (), False
    if more and len(ties) < 4:
        ties = ties + (ties[-1],) * (4 - len(ties))
    used = {t for t in ties[2:] if t is not None}
    if len(used) == 1:
        only = next(iter(used))
        ties = tuple(None if t is None else only for t in ties)
    else:
        ties = tuple(FREE if (j < 2 and t is not None) else t for j, t in enumerate(ties))
    if more:
        last = ties[-1]
        cut = max((j for j, t in enumerate(ties) if t != last), default=-1)
        ties = ties[: cut + 2]
    return ties, more


ZERO = Digit()


def partitions(m: int, j: int, tie: str | None, lowest: int = 1) -> Iterator[tuple[int, ...]]:
    """Partitions of m into j parts ≥ `lowest`, ascending, under a constraint mark (free, '!', '?', '=')."""
    if j == 0:
        if m == 0:
            yield ()
        return
    if j == 1:  # a mark constrains two or more heaps: one heap is never refused by it
        if m >= lowest:
            yield (m,)
        return
    if tie == EQUAL:
        if m % j == 0 and m // j >= lowest:
            yield (m // j,) * j
        return
    strict = tie == UNEQUAL
    for parts in _ascending(m, j, lowest, strict):
        if tie == NOT_ALL_EQUAL and parts[0] == parts[-1]:
            continue
        yield parts


def _ascending(m: int, j: int, lowest: int, strict: bool) -> Iterator[tuple[int, ...]]:
    if j == 1:
        if m >= lowest:
            yield (m,)
        return
    step = 1 if strict else 0
    a = lowest
    # the other j−1 parts are at least a+step, a+2·step, …
    while a + (j - 1) * (a + step) + step * (j - 1) * (j - 2) // 2 <= m:
        for rest in _ascending(m - a, j - 1, a + step, strict):
            yield (a, *rest)
        a += 1

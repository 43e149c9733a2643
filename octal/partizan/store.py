"""The one store of partizan forms: every memo of canonical.py (≤, +, − and the x + n·↑ + *k forms built), of
thermal.py (stops, thermographs) and of atomic.py, and the table that interns forms, bounded by a count of entries
and emptied by `forget()`; and the count of work that `work_limit` bounds."""

from __future__ import annotations

import contextlib
import weakref
from collections.abc import Iterator
from fractions import Fraction

from ..errors import InvalidArgumentError, ResourceLimitError

Nus = tuple[Fraction, int, int]  # (x, n, k) for the value x + n·↑ + *k
MAX_ENTRIES = 2_000_000  # memo entries kept before the store is cleared (~115 bytes each; path:40 uses ~430,000)


class FormTooLarge(ResourceLimitError):
    """A computation on canonical forms spent its budget of work (the forms grew too large)."""


class FormStore:
    """Every table of the canonical forms, owned in one place: `forms` interns each form by its options
    (hash-consing); `le`, `sums`, `negatives` memoize ≤, + and − on forms' serial numbers, `stops` and
    `thermographs` the stops and thermographs, `derived` atomic.py's (keyed by kind and serial numbers); `built`
    holds the forms x + n·↑ + *k made from their (x, n, k); `spent` and `limit` count work for `work_limit`.

    Bounded by `max_entries` memo entries in all (counted, never timed): when one more would pass the bound, every
    memo is cleared at once rather than evicted one by one — a memo is only a shortcut, so dropping it changes no
    answer, and clearing keeps the lookups free of the bookkeeping (LRU order) that eviction would add to every hit.
    `forms` holds its forms weakly and is never cleared: it is as large as the forms alive (held by the caller or
    by the memos) and no larger, and a live form stays the one form of its value, so identity stays equality.
    Serial numbers are never reused, so a memo keyed on them never mistakes a new form for a dead one."""

    __slots__ = ("built", "entries", "forms", "held_numbers", "le", "limit", "max_entries", "negatives", "numbers",
                 "serial", "spent", "stops", "sums", "thermographs", "derived")

    def __init__(self, max_entries: int = MAX_ENTRIES):
        self.max_entries = max_entries
        self.entries = 0  # memo entries written since the last clear (≥ those held: a key may be written twice)
        self.forms: weakref.WeakValueDictionary[tuple, object] = weakref.WeakValueDictionary()
        # numbers by (numerator, denominator): held weakly, never cleared (one form per value while it lives), and
        # the ones in use held in a plain dict too, a memo like the others, for a lookup at C speed
        self.numbers: weakref.WeakValueDictionary[tuple[int, int], object] = weakref.WeakValueDictionary()
        self.held_numbers: dict[tuple[int, int], object] = {}
        self.le: dict[tuple[int, int], bool] = {}
        self.sums: dict[tuple[int, int], object] = {}
        self.negatives: dict[int, object] = {}
        self.built: dict[Nus, object] = {}
        self.stops: dict[int, tuple[Fraction, Fraction]] = {}
        self.thermographs: dict[int, object] = {}
        self.derived: dict[tuple, object] = {}
        self.serial = 0  # the next form's uid
        self.spent = 0  # steps of work spent, ever
        self.limit: int | None = None  # the step count at which FormTooLarge is raised (None: no limit)

    def __len__(self) -> int:
        return sum(len(table) for table in self._memos())

    def _memos(self) -> tuple[dict, ...]:
        return (self.le, self.sums, self.negatives, self.built, self.held_numbers, self.stops, self.thermographs,
                self.derived)

    def remember(self, table: dict, key: object, value: object) -> None:
        """table[key] = value, clearing every memo first when the store is full."""
        if self.entries >= self.max_entries:
            self.clear()
        table[key] = value
        self.entries += 1

    def clear(self) -> None:
        """Drop every memo (live forms stay interned; the work count runs on)."""
        for table in self._memos():
            table.clear()
        self.entries = 0

    def resize(self, max_entries: int) -> None:
        """Bound the memos by `max_entries` entries from now on (clearing them)."""
        if max_entries < 1:
            raise InvalidArgumentError("a store of forms keeps at least 1 entry")
        self.max_entries = max_entries
        self.clear()

    def charge(self) -> None:
        """Count one step of work, raising FormTooLarge past the limit."""
        self.spent += 1
        if self.limit is not None and self.spent > self.limit:
            raise FormTooLarge("the canonical forms grew beyond the budget of work")


STORE = FormStore()


@contextlib.contextmanager
def work_limit(steps: int | None) -> Iterator[list]:
    """Bound the comparisons and sums computed inside the block by `steps` (None: no bound); yields [spent]."""
    saved = STORE.limit
    start = STORE.spent
    spent = [0]
    STORE.limit = None if steps is None else start + steps
    try:
        yield spent
    finally:
        spent[0] = STORE.spent - start
        STORE.limit = saved


def forget() -> None:
    """Empty the store's memos: a computation bounded by `work_limit` then spends the same work whatever was
    computed before it, so its answer never depends on the history."""
    STORE.clear()

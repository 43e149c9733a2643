"""Every multiset of heaps with at most a given number of tokens (for the benchmarks that decide positions)."""

from __future__ import annotations


def partitions(n: int, largest: int | None = None):
    """The multisets of positive heaps summing to n, largest part first."""
    largest = n if largest is None else largest
    if n == 0:
        yield ()
        return
    for first in range(min(n, largest), 0, -1):
        for rest in partitions(n - first, first):
            yield (first,) + rest


def positions_up_to(tokens: int):
    for total in range(tokens + 1):
        yield from partitions(total)

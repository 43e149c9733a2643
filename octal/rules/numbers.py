"""Whole numbers as people type them in codes and moves: ASCII digits only, and not too many of them."""

from __future__ import annotations


def ascii_whole(word: str, max_digits: int = 18) -> int | None:
    """`word` as a whole number when it is 1..max_digits ASCII digits, else None (so '²', '٣' or a 5,000-digit
    number never reach int(): str.isdigit accepts what int refuses, and Python limits long digit strings)."""
    if isinstance(word, str) and 0 < len(word) <= max_digits and word.isascii() and word.isdigit():
        return int(word)
    return None

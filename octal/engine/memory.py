"""Memory in words: what the OS says is free, and byte counts for messages (no numpy: the front uses it too)."""

from __future__ import annotations

import os

from ..errors import ResourceLimitError

SHARE = 0.8  # a run may plan to take at most this share of the memory available


def available_memory() -> int:
    """Bytes the OS says a new allocation can take (MemAvailable), or total RAM if unknown."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 1 << 34


def human_bytes(b: float) -> str:
    """1536 → '1.5 KB' (powers of 1024)."""
    for unit in ("bytes", "KB", "MB", "GB", "TB", "PB"):
        if b < 1024 or unit == "PB":
            return f"{b:.0f} {unit}" if unit == "bytes" else f"{b:.1f} {unit}"
        b /= 1024
    return f"{b:.1f} PB"


def check_fits(need: int, what: str) -> None:
    """Refuse before allocating what cannot fit (more than SHARE of the memory available): ResourceLimitError names
    `what`, the need and what is free."""
    have = available_memory()
    if need > SHARE * have:
        raise ResourceLimitError(f"{what} needs about {human_bytes(need)} of memory; only {human_bytes(have)} is "
                                 "available")

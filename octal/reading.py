"""Bounded reads: every file octal reads is read at most so many bytes, so no input (/dev/zero, a pipe that never
ends) makes a command run forever or fill memory. No numpy here: the CLI's short commands use it."""

from __future__ import annotations

from pathlib import Path

MAX_TEXT = 256 << 20  # bytes of a text file octal reads (codes, edges, JSON): more is not such a file


def read_bounded(path: str | Path, limit: int = MAX_TEXT) -> bytes:
    """A file's bytes, refused (OSError, EFBIG) past `limit`."""
    with open(path, "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise OSError(27, f"larger than {limit:,} bytes, not a file octal reads")
    return data


def read_text(path: str | Path, limit: int = MAX_TEXT) -> str:
    """A text file's contents (UTF-8), bounded as `read_bounded`."""
    return read_bounded(path, limit).decode("utf-8")

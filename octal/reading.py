"""Bounded reads of regular files: every file octal reads is a regular file (a pipe, a device or a socket is refused
before anything waits on it) read at most so many bytes, so no input (/dev/zero, a pipe that never ends, a huge file)
makes a command wait or run forever or fill memory. No numpy here: the CLI's short commands use it."""

from __future__ import annotations

import errno
import os
import stat
import zlib
from pathlib import Path
from typing import BinaryIO

MAX_TEXT = 256 << 20  # bytes of a text file octal reads (codes, edges, JSON): more is not such a file
MAX_DOCUMENT = 64 << 20  # bytes a stored document (a misère quotient) inflates to at most
MAX_STORED = 1 << 30  # bytes a census row's stored values inflate to at most, whatever heap count it claims
NOT_REGULAR = "not a regular file (a pipe, a device or a socket), which octal does not read"


def open_regular(path: str | Path) -> BinaryIO:
    """The file at `path` opened for reading, refused (OSError, EINVAL) when it is not a regular file: opening a pipe
    waits for a writer, and reading one, or a device, may never end. Opened without waiting, then checked (fstat), so
    a file swapped in between is checked too."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if not stat.S_ISREG(mode):
            raise OSError(errno.EINVAL, NOT_REGULAR, str(path))
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def is_special(path: str | Path) -> bool:
    """Whether `path` names something that exists and is neither a regular file nor a folder (a pipe, a device)."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def read_bounded(path: str | Path, limit: int = MAX_TEXT) -> bytes:
    """A regular file's bytes (open_regular), refused (OSError, EFBIG) past `limit`."""
    with open_regular(path) as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise OSError(27, f"larger than {limit:,} bytes, not a file octal reads")
    return data


def read_text(path: str | Path, limit: int = MAX_TEXT) -> str:
    """A text file's contents (UTF-8), bounded as `read_bounded`."""
    return read_bounded(path, limit).decode("utf-8")


def inflate(blob: bytes, limit: int) -> bytes:
    """zlib's data of `blob`, at most `limit` bytes of it: a blob that would inflate past that (a few MB that expand
    to GBs) is refused with a ValueError before it is held, as is one cut short."""
    if limit < 1:  # zlib reads a max_length of 0 as no limit at all
        raise ValueError(f"its data may not inflate to {limit:,} bytes")
    d = zlib.decompressobj()
    out = d.decompress(blob, limit)
    if d.unconsumed_tail:
        raise ValueError(f"its data would inflate past {limit:,} bytes")
    if not d.eof:
        raise ValueError("its compressed data are cut short")
    return out

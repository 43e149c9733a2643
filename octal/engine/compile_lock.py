"""One compile of each kernel among the processes that share numba's cache (a census's workers, a test run's, two
commands started at once): a file lock beside the function's cache index is held while it compiles, so a process
that needed the same function waits, then loads what the first one saved instead of compiling it again."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from contextlib import contextmanager
from typing import Iterator

from numba.core.compiler_lock import global_compiler_lock
from numba.core.dispatcher import Dispatcher

try:
    import fcntl
except ImportError:  # not POSIX: each process compiles for itself, as numba alone does
    fcntl = None

SHARED = "_octal_shared_compile"  # set on a dispatcher whose compiles take the lock
WAIT = 120.0  # seconds at most waiting for another process's compile (the longest function takes about 10 s): past
# it (a stopped process holds the lock) this process compiles alone from then on — only who compiles, never a value
POLL = 0.02  # seconds between tries of a held lock
_alone = [False]  # a wait ran past WAIT: no more waiting in this process


def share_compiles(module_globals: dict) -> None:
    """A kernel module calls this as it loads: each of its cached functions compiles under its file lock."""
    for value in module_globals.values():
        if (isinstance(value, Dispatcher) and value.__module__ == module_globals["__name__"]
                and not getattr(value, SHARED, False)):
            path = _lock_path(value)
            if path is not None:
                value.compile = _locked(value.compile, path)
                setattr(value, SHARED, True)


def _lock_path(dispatcher: Dispatcher) -> str | None:
    """The lock file beside the function's cache index; None without a cache or on another numba layout."""
    index = getattr(getattr(getattr(dispatcher, "_cache", None), "_cache_file", None), "_index_path", None)
    return None if fcntl is None or not isinstance(index, str) else index + ".lock"


def _locked(compile_sig: Callable, path: str) -> Callable:
    """The dispatcher's compile, under numba's lock first (so threads of one process never wait on each other's file
    locks: they hold numba's in turn), then the function's file lock."""
    def locked_compile(sig):
        with global_compiler_lock, _file_lock(path):
            return compile_sig(sig)
    return locked_compile


@contextmanager
def _file_lock(path: str) -> Iterator[None]:
    """An exclusive flock on `path`, released when the block ends, or by the kernel if the process dies. (numba types
    a recursive call without compiling the function again, so a process never asks for a lock it holds: the tests
    check that it would not wait.)"""
    fd = None if _alone[0] else _open_locked(path)
    try:
        yield
    finally:
        if fd is not None:
            os.close(fd)  # closing the descriptor releases the flock


def _open_locked(path: str) -> int | None:
    """A descriptor of `path` holding its flock; None where there is no lock to take (a read-only cache folder, a file
    system without flock: compiling alone is what numba does anyway) or another process held it past WAIT."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    except OSError:
        return None
    end = time.monotonic() + WAIT
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fd
        except BlockingIOError:
            if time.monotonic() < end:
                time.sleep(POLL)
                continue
            _alone[0] = True
        except OSError:
            pass
        os.close(fd)
        return None

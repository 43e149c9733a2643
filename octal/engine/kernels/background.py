"""Compiling a parallel entry beside the run that will want it. A first run starts on the one-thread entry (it holds no
Python lock: nogil) while another thread compiles the parallel one for the same argument types, by a call that
computes nothing; the run's ThreadChoice tries the parallel entry once `ready` says so. The compiled code lands in
numba's cache as any other: later runs find it there at once. A run that never goes parallel (one core, a census
worker, a short run) never compiles it."""

from __future__ import annotations

import threading
from typing import Callable

import numpy as np

_ready: set[tuple] = set()
_started: set[tuple] = set()
_lock = threading.Lock()


def _types(args: tuple) -> tuple:
    """What numba types a call by: each array's dtype and rank, each scalar's Python type."""
    return tuple((a.dtype.str, a.ndim) if isinstance(a, np.ndarray) else type(a).__name__ for a in args)


def _idle(args: tuple) -> tuple:
    """Arguments of the same types that compute nothing: a one-element array for each array, 0 for each number, and
    2 for the last (the thread count)."""
    out = [np.zeros((1,) * a.ndim, a.dtype) if isinstance(a, np.ndarray) else type(a)(0) for a in args]
    out[-1] = type(args[-1])(2)
    return tuple(out)


def ready(kernel: Callable, args: tuple) -> bool:
    """Whether `kernel` (a parallel entry whose arguments start W, base, Hd, start, stop, …, threads) is compiled for
    the types of `args`; the first time it is not, a background thread starts compiling it."""
    key = (kernel.__name__, _types(args))
    if key in _ready:
        return True
    with _lock:
        if key in _started:
            return False
        _started.add(key)

    def compile_it() -> None:
        try:
            kernel(*_idle(args))
        except Exception:  # a compile that fails leaves the run on one thread: values never depend on it
            return
        _ready.add(key)

    threading.Thread(target=compile_it, name=f"octal compiles {kernel.__name__}", daemon=True).start()
    return False

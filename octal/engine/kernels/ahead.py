"""Parallel entries compiled ahead, in a thread of their own, while the run goes on on one thread: a first run on
several cores then does not stop for the parallel pass to compile (2 to 3 s for a sparse kernel). numba compiles under
one lock, but the one-thread turns release the GIL while they run, so the run and the compiler share the cores. Which
way a piece runs never changes a value: until the entry is ready, the run stays on one thread."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Hashable

_jobs: dict[Hashable, threading.Thread | None] = {}  # None: compiled in the caller's thread
_lock = threading.Lock()
_UNASKED = object()
IN_THE_CALLERS_THREAD = False  # the tests' random schedules: an entry is compiled when first asked for, then ready


def parallel_ready(key: Hashable, compile_entry: Callable[..., None], args: tuple, more: tuple = ()) -> bool:
    """Whether the parallel entry named by `key` (the kernel and its argument types) is compiled: the first call for
    a key starts compile_entry(*args, *more) in a daemon thread and answers False until it ends (an error there is
    the entry's own, met again when the run calls it). Asked before every piece: it builds nothing then."""
    job = _jobs.get(key, _UNASKED)
    if job is _UNASKED:
        with _lock:
            if key not in _jobs:
                if IN_THE_CALLERS_THREAD:
                    _jobs[key] = None
                    compile_entry(*args, *more)
                else:
                    _jobs[key] = threading.Thread(target=_quietly, args=(compile_entry, *args, *more), daemon=True,
                                                  name="octal-compile")
                    _jobs[key].start()
            job = _jobs[key]
    return job is None or not job.is_alive()


SWITCH = 0.0005  # seconds: Python's GIL switch interval while compiling ahead (5 ms by default, which the run's
# thread would wait at the end of each piece of about 20 ms for the compiler's thread to let go of the GIL)
_compiling = [0, sys.getswitchinterval()]  # jobs running, and the interval to restore when none is


def _quietly(compile_entry: Callable[..., None], *args) -> None:
    """compile_entry(*args), any error left for the run's own call of the entry to raise where it is handled."""
    with _lock:
        if _compiling[0] == 0:
            _compiling[1] = sys.getswitchinterval()
            sys.setswitchinterval(min(_compiling[1], SWITCH))
        _compiling[0] += 1
    try:
        compile_entry(*args)
    except Exception:  # noqa: BLE001 — the run's own call compiles again and raises it in its thread
        pass
    finally:
        with _lock:
            _compiling[0] -= 1
            if _compiling[0] == 0:
                sys.setswitchinterval(_compiling[1])

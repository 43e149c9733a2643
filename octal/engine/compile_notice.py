"""Whether a compiled kernel module is about to compile (numba's cache holds nothing valid for some of its functions):
the front listens, and says so in one line, since a first run waits seconds for the compiler and should know why."""

from __future__ import annotations

from typing import Callable

_listener: Callable[[str], None] | None = None
_told = False
NOTICE = "compiling kernels, first run only: about 2 to 15 s…"  # what one command compiles: 2–8 s by
# benchmarks/first_run.py on the 2-core development machine (a graph, the misère solve, Officers, a census shard),
# with room for a slower one; each command compiles only the kernels it runs


def listen(fn: Callable[[str], None] | None) -> None:
    """Call `fn(NOTICE)` once, the first time a kernel module loads with functions that are not yet compiled."""
    global _listener
    _listener = fn


def never_compiled(module_globals: dict) -> bool:
    """True when numba's cache holds no valid entry for any of the module's compiled functions: the module has not
    run since it was installed (or changed), so its first calls compile. A function some run never needed (another
    dtype, a rare helper) does not count: that would say "first run" on every run."""
    from numba.core.dispatcher import Dispatcher  # only kernel modules call this, and they import numba anyway

    try:
        return not any(value._cache._cache_file._load_index()  # numba's index: empty when missing or stale
                       for value in module_globals.values()
                       if isinstance(value, Dispatcher) and value.__module__ == module_globals["__name__"])
    except (AttributeError, OSError, EOFError, ValueError):  # another numba layout: say nothing
        return False


def loaded(module_globals: dict) -> None:
    """A kernel module calls this as it loads: the listener hears NOTICE once per process if it will compile."""
    global _told
    if _listener is not None and not _told and never_compiled(module_globals):
        _told = True
        _listener(NOTICE)

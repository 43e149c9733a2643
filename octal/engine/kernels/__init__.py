"""Kernels that fill a Grundy-value array or scan one; they know nothing of codes as text, files or the CLI.

The compiled (numba) modules load on first use (PEP 562): `kernels.fill_octal` imports `naive`, so a
short run served by the numpy kernels in `small` never imports numba.
"""

from __future__ import annotations

import os
import sys

from ...errors import InvalidArgumentError
from ...lazy import lazy_names


def _check_numba_settings() -> None:
    """numba refuses some environment settings with a traceback when it is first imported: say so in one line."""
    threads = os.environ.get("NUMBA_NUM_THREADS")
    if threads is not None and not (threads.strip().isascii() and threads.strip().isdigit() and int(threads) > 0):
        raise InvalidArgumentError(f"NUMBA_NUM_THREADS must be a positive whole number, not {threads!r} (the most "
                                   "threads a run may use: set it or unset it)")


_check_numba_settings()

_WHERE = {
    ".naive": ("fill_octal", "fill_octal_parallel", "fill_hex", "split_sets"),
    ".sparse": ("PARALLEL_RARE",),
    ".sparse_stamp": ("fill_sparse",),
    ".sparse_stamp_parallel": ("fill_sparse_parallel", "fill_sparse_parallel_ready"),
    ".sparse_small": ("fill_sparse_small", "SMALL"),
    ".sparse_small_parallel": ("fill_sparse_small_parallel", "fill_sparse_small_parallel_ready"),
    ".general": ("fill_general", "fill_general_from", "general_tables", "largest_count"),
    ".period": ("scan_periods", "periodic_from", "arithmetic_from"),
    ".threads": ("set_threads",),
}
__getattr__, __all__ = lazy_names(__name__, _WHERE)


def load_compiled() -> None:
    """Load the compiled naive kernel and period search now: a process that computes many sequences (a census
    worker) then runs short ones compiled too, not in numpy heap by heap (the same values, ~14× faster for 4-digit
    codes to 4,096 heaps, measured)."""
    for name in ("fill_octal", "scan_periods"):
        __getattr__(name)


def compiled_loaded(module: str) -> bool:
    """Whether the compiled kernel module `module` (naive, period, …) is loaded in this process."""
    return f"{__name__}.{module}" in sys.modules

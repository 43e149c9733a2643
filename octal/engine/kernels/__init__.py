"""Kernels that fill a Grundy-value array or scan one; they know nothing of codes as text, files or the CLI.

The compiled (numba) modules load on first use (PEP 562): `kernels.fill_octal` imports `naive`, so a
short run served by the numpy kernels in `small` never imports numba.
"""

from __future__ import annotations

from ...lazy import lazy_names

_WHERE = {
    ".naive": ("fill_octal", "fill_hex", "split_sets"),
    ".sparse": ("fill_sparse", "fill_sparse_small", "rare_positions", "walsh_hadamard", "GAP", "SMALL"),
    ".general": ("fill_general",),
    ".period": ("scan_periods", "arithmetic_from"),
}
__getattr__, __all__ = lazy_names(__name__, _WHERE)

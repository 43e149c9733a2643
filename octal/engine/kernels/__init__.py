"""Kernels that fill a Grundy-value array or scan one; they know nothing of codes as text, files or the CLI.

The compiled (numba) modules load on first use (PEP 562): `kernels.fill_octal` imports `naive`, so a
short run served by the numpy kernels in `small` never imports numba.
"""

from __future__ import annotations

import importlib

_WHERE = {
    ".naive": ("fill_octal", "fill_hex", "split_sets"),
    ".sparse": ("fill_sparse", "fill_sparse_small", "rare_positions", "walsh_hadamard", "GAP", "SMALL"),
    ".general": ("fill_general",),
    ".period": ("scan_periods", "arithmetic_from"),
}
_MODULE = {name: module for module, names in _WHERE.items() for name in names}


def __getattr__(name: str):
    module = _MODULE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


__all__ = list(_MODULE)

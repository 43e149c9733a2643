"""Value storage: a nim sequence lives in the narrowest unsigned dtype that holds its largest value (uint8, then
uint16, then uint32), and moves to the next one when a value does not fit. One exception, while it computes: the
stamp kernel reads uint16 and wider only (sparse_run.sparse_dtype), and the result is narrowed again."""

from __future__ import annotations

from typing import Callable

import numpy as np

from ..errors import ResourceLimitError

DTYPES = (np.uint8, np.uint16, np.uint32)

Progress = Callable[[int, int, int, str], None]
"""progress(heaps done, heaps wanted, largest value so far, kernel state in words)."""

RESUMED = "resumed"  # the state a progress report names when a run starts from values computed before


def narrowest(values: np.ndarray, largest: int) -> np.ndarray:
    """`values` in the narrowest dtype of DTYPES that holds `largest` (the array itself when it is in it already)."""
    dtype = next((t for t in DTYPES if largest <= np.iinfo(t).max), DTYPES[-1])
    return values if values.dtype == dtype else values.astype(dtype)


def wider(values: np.ndarray, at: int) -> np.ndarray:
    """`values` in the next dtype of DTYPES (a copy): the value at heap `at` does not fit the present one."""
    idx = DTYPES.index(values.dtype.type)
    if idx + 1 == len(DTYPES):
        raise ResourceLimitError(f"a nim value at heap {at} needs more than 32 bits")
    return values.astype(DTYPES[idx + 1])

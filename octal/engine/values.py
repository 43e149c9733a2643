"""Value storage: a nim sequence lives in the narrowest unsigned dtype that holds its largest value (uint8, then
uint16, then uint32), and moves to the next one when a value does not fit."""

from __future__ import annotations

from typing import Callable

import numpy as np

from ..errors import ResourceLimitError

DTYPES = (np.uint8, np.uint16, np.uint32)

Progress = Callable[[int, int, int, str], None]
"""progress(heaps done, heaps wanted, largest value so far, kernel state in words)."""

RESUMED = "resumed"  # the state a progress report names when a run starts from values computed before


def wider(values: np.ndarray, at: int) -> np.ndarray:
    """`values` in the next dtype of DTYPES (a copy): the value at heap `at` does not fit the present one."""
    idx = DTYPES.index(values.dtype.type)
    if idx + 1 == len(DTYPES):
        raise ResourceLimitError(f"a nim value at heap {at} needs more than 32 bits")
    return values.astype(DTYPES[idx + 1])

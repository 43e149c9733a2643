"""Checks of plain arguments shared by every public function: whole numbers, positive numbers, value arrays.

Each raises InvalidArgumentError with a one-line message naming the argument, so the API and the CLI
refuse bad input the same way.
"""

from __future__ import annotations

import math
import operator

import numpy as np

from .errors import InvalidArgumentError


def is_whole(x, minimum: int = 0) -> bool:
    """Whether x is an int (not a bool) of at least `minimum`: the test a field read back from a file passes."""
    return isinstance(x, int) and not isinstance(x, bool) and x >= minimum


def whole_number(value, what: str, minimum: int | None = 0) -> int:
    """`value` as an int (numpy integers accepted; floats, strings and booleans refused), at least `minimum`."""
    if isinstance(value, bool):
        raise InvalidArgumentError(f"{what} must be a whole number, not {value!r}")
    try:
        n = operator.index(value)
    except TypeError:
        raise InvalidArgumentError(f"{what} must be a whole number, not {value!r}") from None
    if minimum is not None and n < minimum:
        floor = {0: "a non-negative whole number", 1: "a positive whole number"}.get(minimum, f"at least {minimum:,}")
        raise InvalidArgumentError(f"{what} must be {floor}, not {n:,}")
    return n


def positive(value, what: str) -> float:
    """`value` as a finite float greater than 0."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise InvalidArgumentError(f"{what} must be a positive number, not {value!r}")
    x = float(value)
    if not (math.isfinite(x) and x > 0):
        raise InvalidArgumentError(f"{what} must be a positive number, not {value!r}")
    return x


def value_array(values, what: str = "values") -> np.ndarray:
    """A 1-d array of non-negative whole numbers (nim values), in an unsigned dtype."""
    try:
        arr = np.asarray(values)
    except (TypeError, ValueError, OverflowError):
        arr = np.zeros((0, 0))
    if arr.ndim == 1 and arr.dtype == object and arr.size and all(type(x) is int for x in arr.tolist()):
        if min(arr.tolist()) >= 0:  # Python ints (from JSON, say): exact, or refused past 64 bits
            if max(arr.tolist()) >= 1 << 64:
                raise InvalidArgumentError(f"{what}: value {max(arr.tolist())} does not fit in 64 bits")
            arr = np.array(arr.tolist(), dtype=np.uint64)
    # whole numbers only: booleans, floats, strings, times and objects are refused, never rounded or compared
    if arr.ndim != 1 or (arr.size and (arr.dtype.kind not in "iu" or arr.min() < 0)):
        raise InvalidArgumentError(f"{what} must be a 1-d array of non-negative whole numbers")
    if arr.size == 0:
        return np.zeros(0, np.uint8)
    top = int(arr.max())
    for dtype in (np.uint8, np.uint16, np.uint32, np.uint64):
        if top <= np.iinfo(dtype).max:
            return arr.astype(dtype, copy=False)
    raise InvalidArgumentError(f"{what}: value {top} does not fit in 64 bits")



def flag(value, what: str) -> bool:
    """`value` as a flag: True or False only (1, 'yes' or None are not taken for either)."""
    if not isinstance(value, (bool, np.bool_)):
        raise InvalidArgumentError(f"{what} must be True or False, not {value!r}")
    return bool(value)

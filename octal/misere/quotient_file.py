"""A misère quotient's file: a small JSON document (the table, P, Φ, the changes, the period and the status), written
atomically, and read back field by field — every field checked for its type and range before the quotient built from
it is verified against the rules (MisereQuotient.from_document)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from ..errors import DataFileError
from ..io import atomic_write
from ..reading import read_text
from ..validate import is_whole

FORMAT = "octal-misere-quotient"
VERSION = 1


def int_array(value, ndim: int) -> np.ndarray:
    """A JSON list of whole numbers (no booleans, no fractions) as an int64 array of `ndim` dimensions."""
    arr = np.array(value, dtype=object)
    if arr.ndim != ndim or any(not is_whole(x, -(1 << 62)) for x in arr.flat):
        raise ValueError(f"expected a {'table' if ndim == 2 else 'list'} of whole numbers")
    return arr.astype(np.int64)


def write_document(doc: dict, path: str | Path) -> Path:
    """Write the document to a .json file, atomically."""
    path = Path(path)
    if path.suffix.lower() != ".json":
        raise DataFileError(f"cannot save a quotient to {path}: use a .json file")
    atomic_write(path, (json.dumps(doc, separators=(",", ":")) + "\n").encode())
    return path


def read_document(path: str | Path) -> dict:
    """The JSON document in a file (its fields are checked by whoever builds from it)."""
    path = Path(path)
    try:
        return json.loads(read_text(path))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as e:
        reason = e.strerror if isinstance(e, OSError) and e.strerror else e
        raise DataFileError(f"cannot read a quotient from {path}: {reason}") from None

"""Saving and loading nim values: .npy, .csv (heap,value) or .json, written atomically (temp file + rename)."""

from __future__ import annotations

import io
import json
import os
import tempfile
import warnings
import zipfile
from pathlib import Path

import numpy as np

from .errors import DataFileError, InvalidArgumentError
from .reading import is_special, open_regular, read_text
from .validate import value_array

SUFFIXES = (".npy", ".csv", ".json")


def check_writable(path: str | Path, suffixes: tuple[str, ...] = SUFFIXES) -> Path:
    """Fail early, before any computing, when `path` has an unknown suffix or cannot be written."""
    p = Path(path)
    if p.suffix.lower() not in suffixes:
        raise DataFileError(f"cannot save to {p}: the suffix must be one of {', '.join(suffixes)}")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise DataFileError(f"cannot save to {p}: folder {parent} does not exist")
    _refuse_special(p)
    if p.exists() and not os.access(p, os.W_OK):
        raise DataFileError(f"cannot save to {p}: not a writable file")
    try:  # the only sure test: create (and remove) a file where the result will go
        fd, probe = tempfile.mkstemp(prefix=f".{p.name}.", dir=parent)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise DataFileError(f"cannot save to {p}: {exc.strerror or exc}") from None
    return p


def atomic_write(path: Path, data: bytes) -> None:
    """Write to a temporary file beside `path`, flush and fsync, then rename over it.

    Any failure is a DataFileError that names `path` (never the temporary file)."""
    path = Path(path)
    _refuse_special(path)
    try:
        _atomic_write(path, data)
    except OSError as exc:
        raise DataFileError(f"cannot save to {path}: {exc.strerror or exc}") from None


def _refuse_special(path: Path) -> None:
    """A DataFileError when `path` is there and is no regular file: the rename would put a file in place of a pipe, a
    device or a socket (/dev/null included), or fail on a folder."""
    if is_special(path) or os.path.isdir(path):
        raise DataFileError(f"cannot save to {path}: not a regular file (a folder, a pipe, a device or a socket)")


def _atomic_write(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent if str(path.parent) else ".")
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)  # the permissions a plain open() would give, not mkstemp's 0600
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def save_values(path: str | Path, values: np.ndarray, meta: dict | None = None) -> Path:
    """Save G(0..n−1) by suffix: .npy (compact), .csv (heap,value), .json (`meta` plus "values")."""
    if not isinstance(path, (str, os.PathLike)):
        raise InvalidArgumentError(f"the path to save to must be a file name, not {path!r}")
    if meta is not None and not isinstance(meta, dict):
        raise InvalidArgumentError(f"meta must be a dict of JSON values, not {type(meta).__name__}")
    p = check_writable(path)
    values = value_array(values)
    suffix = p.suffix.lower()
    if suffix == ".npy":
        buf = io.BytesIO()
        np.save(buf, np.asarray(values))
        data = buf.getvalue()
    elif suffix == ".csv":
        lines = ["heap,value"] + [f"{i},{int(v)}" for i, v in enumerate(values)]
        data = ("\n".join(lines) + "\n").encode()
    else:
        doc = dict(meta or {})
        doc["values"] = np.asarray(values).tolist()
        try:
            data = json.dumps(doc, allow_nan=False).encode()
        except (TypeError, ValueError, RecursionError) as exc:
            raise InvalidArgumentError(f"meta must hold JSON values only ({exc})") from None
    atomic_write(p, data)
    return p


BFILE_OFFSET = 0  # the OEIS entries of octal games (A002186 Kayles, A002187 Dawson's Kayles, …) start at n = 0


def save_bfile(path: str | Path, values: np.ndarray, offset: int = BFILE_OFFSET) -> Path:
    """Write an OEIS b-file: one line "n a(n)" per value, n from `offset` (a .txt file, written atomically)."""
    p = check_writable(path, (".txt",))
    values = value_array(values)
    data = "".join(f"{n} {int(v)}\n" for n, v in enumerate(values.tolist(), offset))
    atomic_write(p, data.encode())
    return p


def load_values(path: str | Path) -> np.ndarray:
    """Read values saved by save_values back into the narrowest unsigned dtype."""
    if not isinstance(path, (str, os.PathLike)):
        raise InvalidArgumentError(f"the path to load must be a file name, not {path!r}")
    p = Path(path)
    try:
        suffix = p.suffix.lower()
        if suffix == ".npy":
            with open_regular(p) as f:
                arr = np.load(f, allow_pickle=False)
        elif suffix == ".csv":
            with warnings.catch_warnings(), open_regular(p) as f:
                warnings.simplefilter("ignore")  # an empty file is an empty sequence, said once below if wrong
                rows = np.loadtxt(f, delimiter=",", skiprows=1, dtype=np.int64, ndmin=2)
            if rows.size and rows.shape[1] != 2:
                raise DataFileError(f"{p}: expected two columns, heap,value, not {rows.shape[1]}")
            if rows.size and not np.array_equal(rows[:, 0], np.arange(len(rows))):
                raise DataFileError(f"{p}: heaps are not 0, 1, 2, … in order")
            arr = rows[:, 1] if rows.size else np.zeros(0, np.int64)
        elif suffix == ".json":
            listed = json.loads(read_text(p))["values"]
            if not isinstance(listed, list) or any(type(x) is not int for x in listed):  # 1.7, true, "3", 1e2: no
                raise DataFileError(f"{p}: \"values\" must be a list of whole numbers")
            arr = np.array(listed, dtype=object)
        else:
            raise DataFileError(f"cannot load {p}: the suffix must be one of {', '.join(SUFFIXES)}")
    except (OSError, EOFError, ValueError, KeyError, TypeError, IndexError, RecursionError, OverflowError) as exc:
        raise DataFileError(f"cannot load {p}: {exc}") from None
    try:
        return value_array(arr)  # the narrowest unsigned dtype
    except InvalidArgumentError as exc:
        raise DataFileError(f"{p} does not hold a 1-d array of non-negative whole values ({exc})") from None


def write_npz(path: Path, header: dict, arrays: dict[str, np.ndarray]) -> None:
    """Plain arrays and a JSON header in one .npz, written atomically (no pickles, read back by read_npz)."""
    buf = io.BytesIO()
    np.savez(buf, **arrays, header=np.frombuffer(json.dumps(header).encode(), np.uint8))
    atomic_write(path, buf.getvalue())


def read_npz(path: Path, names: tuple[str, ...], error: type[DataFileError], what: str) -> tuple[dict, dict]:
    """(header, arrays) from a write_npz file; `error` names `what` and the path when it cannot be read."""
    try:
        with open_regular(path) as f, np.load(f, allow_pickle=False) as z:
            header = json.loads(bytes(z["header"]).decode())
            arrays = {name: z[name] for name in names}
    except (OSError, EOFError, ValueError, KeyError, TypeError, zipfile.BadZipFile, json.JSONDecodeError,
            UnicodeDecodeError, RecursionError) as exc:
        raise error(f"{what} {path} is damaged and cannot be read ({exc}); move it away to start over") from None
    if not isinstance(header, dict):
        raise error(f"{what} {path} is damaged: its header is not a JSON object; move it away to start over")
    return header, arrays

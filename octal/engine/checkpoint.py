"""Checkpoints of long runs: the values and rare/common state, saved atomically with a checksum.

One file, DIR/checkpoint.npz, holding plain arrays only (loaded with allow_pickle=False) and a JSON
header with the code, the count and a SHA-256 over the header's fields and the arrays. A checkpoint of another
code, or one whose checksum fails, is refused with CheckpointError; it is never silently used. A checksum can be
recomputed, so the header also carries this user's keyed signature (`trust.sign`): a checkpoint without it (another
user's, or edited and re-hashed) has every value recomputed from the rules before the run resumes from it. This
module knows the file, not the engine: it reads a `SavedState`, and the sequence driver
(`sequence.load_checkpoint`) resumes from it.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import DataFileError
from ..io import read_npz, write_npz
from ..rules.code import OctalCode
from ..trust import sign, signed
from ..validate import is_whole

FILE = "checkpoint.npz"
FORMAT = 1


class CheckpointError(DataFileError):
    """A checkpoint that belongs to another code, or is damaged."""


SIGNED = ("format", "code", "n", "dtype", "mask", "e", "k0")  # every header field that is read back


def digest(values: np.ndarray, rare: np.ndarray, header: dict) -> str:
    """SHA-256 over every byte that is read back: the header's fields (code included) and both arrays."""
    h = hashlib.sha256()
    h.update(json.dumps([header.get(k) for k in SIGNED]).encode())
    h.update(str(values.dtype).encode())
    h.update(np.ascontiguousarray(values).tobytes())
    h.update(np.ascontiguousarray(rare, dtype=np.int64).tobytes())
    return h.hexdigest()


def _folder(directory: str | Path) -> Path:
    d = Path(directory)
    try:
        d.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise DataFileError(f"cannot use {d} as the checkpoint folder: it is there and is not a folder") from None
    except OSError as exc:
        raise DataFileError(f"cannot create checkpoint folder {d}: {exc.strerror}") from exc
    return d


@dataclass(frozen=True)
class SavedState:
    """What a checkpoint holds, verified: the values G(0..n−1) and the rare/common state (mask, e, k0, rare)."""

    values: np.ndarray
    rare: np.ndarray
    mask: int
    e: int
    k0: int
    signed: bool = False  # carries this user's signature: octal wrote it and nobody changed it (else: checked in full)


def save_checkpoint(directory: str | Path, seq) -> Path:
    """Write the state of `seq` (a GrundySequence: code, n, values, rare, mask, e, k0) to DIR/checkpoint.npz
    (temporary file, fsync, rename)."""
    d = _folder(directory)
    values = np.ascontiguousarray(seq.values)
    rare = np.ascontiguousarray(seq.rare, dtype=np.int64)
    header = {
        "format": FORMAT,
        "code": str(seq.code),
        "n": int(seq.n),
        "dtype": str(values.dtype),
        "mask": int(seq.mask),
        "e": int(seq.e),
        "k0": int(seq.k0),
        "saved": time.strftime("%Y-%m-%dT%H:%M:%S"),
    }
    header["sha256"] = digest(values, rare, header)
    header["hmac"] = sign(header["sha256"].encode())  # this user's key: read back as octal's own, unchanged
    path = d / FILE
    write_npz(path, header, {"values": values, "rare": rare})
    return path


def read_checkpoint(directory: str | Path, code: OctalCode) -> SavedState | None:
    """The verified state saved in DIR for `code`, or None when DIR holds no checkpoint."""
    path = Path(directory) / FILE
    if not path.exists():
        return None
    header, arrays = read_npz(path, ("values", "rare"), CheckpointError, "checkpoint")
    values, rare = arrays["values"], arrays["rare"]
    if header.get("format") != FORMAT:
        raise CheckpointError(f"checkpoint {path} has format {header.get('format')}, expected {FORMAT}")
    if header.get("code") != str(code):
        raise CheckpointError(f"checkpoint {path} belongs to code {header.get('code')}, not {code}")
    if header.get("n") != len(values) or digest(values, rare, header) != header.get("sha256"):
        raise CheckpointError(f"checkpoint {path} fails its checksum; move it away to start over")
    mask, e, k0 = (header.get(k) for k in ("mask", "e", "k0"))
    if not (all(is_whole(x) for x in (mask, e, k0))
            and 0 <= mask < 1 << 32 and e in (0, 1) and 0 <= k0 < 1 << 32):
        raise CheckpointError(f"checkpoint {path} is damaged: its rare/common state (mask, e, k0) is not one a run "
                              "writes; move it away to start over")
    return SavedState(values, rare, mask, e, k0, signed(header.get("hmac"), header["sha256"].encode()))


class Checkpointer:
    """Saves `seq` to DIR at most every `every` seconds (call it as often as you like), and on demand."""

    def __init__(self, directory: str | Path, every: float = 5.0):
        self.directory = _folder(directory)  # fail before computing, not after
        self.every = every
        self.last = time.monotonic()
        self.saved_n = -1

    def maybe(self, seq) -> None:
        if time.monotonic() - self.last >= self.every:
            self.now(seq)

    def now(self, seq) -> None:
        if seq.n != self.saved_n:
            save_checkpoint(self.directory, seq)
            self.saved_n = seq.n
        self.last = time.monotonic()

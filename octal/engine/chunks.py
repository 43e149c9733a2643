"""Values on disk for stream runs: consecutive chunks of G, one .npy file each, every one checksummed.

A chunk holds heaps start..start+count−1 in DIR/values/<start>.npy (plain arrays, loaded with
allow_pickle=False). The list of chunks with their SHA-256 lives in the stream checkpoint, so a chunk
is trusted only when the checkpoint that names it says so; reading verifies each chunk it touches.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import DataFileError
from ..io import atomic_write
from ..reading import open_regular
from .values import narrowest

FOLDER = "values"


def digest(values: np.ndarray) -> str:
    """SHA-256 of an array's dtype name and bytes."""
    h = hashlib.sha256(str(values.dtype).encode())
    h.update(np.ascontiguousarray(values))  # the array's own buffer, not a copy
    return h.hexdigest()


@dataclass(frozen=True)
class Chunk:
    """Heaps start..start+count−1, stored in FOLDER/<file> with this checksum."""

    start: int
    count: int
    sha256: str

    @property
    def stop(self) -> int:
        return self.start + self.count

    @property
    def file(self) -> str:
        return f"{self.start:015d}.npy"

    def to_list(self) -> list:
        return [self.start, self.count, self.sha256]

    @classmethod
    def from_list(cls, item) -> "Chunk":
        start, count, sha = item
        return cls(int(start), int(count), str(sha))


class ChunkStore:
    """The chunks of one stream run: append values as they leave memory, read any range back verified."""

    def __init__(self, directory: str | Path, chunks: list[Chunk] | None = None):
        self.folder = Path(directory) / FOLDER
        self.chunks: list[Chunk] = list(chunks or [])

    @property
    def stop(self) -> int:
        """One past the last heap stored."""
        return self.chunks[-1].stop if self.chunks else 0

    def append(self, start: int, values: np.ndarray) -> None:
        """Store heaps start..start+len(values)−1, in the narrowest dtype that holds them; `start` must continue the
        stored range."""
        if start != self.stop:
            raise DataFileError(f"chunk at heap {start:,} does not continue the stored values "
                                f"(they end at {self.stop:,})")
        if not len(values):
            return
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise DataFileError(f"cannot create {self.folder}: {exc.strerror}") from None
        values = np.ascontiguousarray(narrowest(values, int(values.max())))
        chunk = Chunk(start, len(values), digest(values))
        buf = io.BytesIO()
        np.save(buf, values, allow_pickle=False)
        atomic_write(self.folder / chunk.file, buf.getvalue())
        self.chunks.append(chunk)

    def _load(self, chunk: Chunk) -> np.ndarray:
        path = self.folder / chunk.file
        try:
            with open_regular(path) as f:
                values = np.load(f, allow_pickle=False)
        except (OSError, ValueError, EOFError) as exc:
            raise DataFileError(f"stored values {path} cannot be read ({exc})") from None
        if values.ndim != 1 or len(values) != chunk.count or digest(values) != chunk.sha256:
            raise DataFileError(f"stored values {path} fail their checksum")
        return values

    def read(self, start: int, stop: int) -> np.ndarray:
        """G(start..stop−1) from the chunks (each one verified), in the widest dtype among them."""
        self._check_range(start, stop)
        parts = [self._load(c)[max(start, c.start) - c.start : min(stop, c.stop) - c.start]
                 for c in self._touched(start, stop)]
        if not parts:
            return np.zeros(0, np.uint8)
        dtype = np.result_type(*parts)
        return np.concatenate([p.astype(dtype, copy=False) for p in parts])

    def read_into(self, start: int, stop: int, out: np.ndarray) -> np.ndarray:
        """Fill out[:stop − start] with G(start..stop−1), one verified chunk at a time: a long range is never held
        twice (a record run's window of 10⁸ heaps is read back this way). Returns out."""
        self._check_range(start, stop)
        for c in self._touched(start, stop):
            lo, hi = max(start, c.start), min(stop, c.stop)
            values = self._load(c)
            if values.dtype.itemsize > out.dtype.itemsize:
                raise DataFileError(f"stored values {self.folder / c.file} are wider than {out.dtype}")
            out[lo - start : hi - start] = values[lo - c.start : hi - c.start]
        return out

    def each(self) -> Iterator[tuple[int, np.ndarray]]:
        """(first heap, values) of every chunk in order, each verified as it is read: one chunk in memory at a time."""
        for c in self.chunks:
            yield c.start, self._load(c)

    def _check_range(self, start: int, stop: int) -> None:
        if not 0 <= start <= stop <= self.stop:
            raise DataFileError(f"heaps {start:,}..{stop - 1:,} are not all stored (stored: 0..{self.stop - 1:,})")

    def _touched(self, start: int, stop: int) -> list[Chunk]:
        return [c for c in self.chunks if c.stop > start and c.start < stop]

"""Summary statistics of a nim sequence: the rare/common split, value histogram, largest value."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from ..displays import HtmlRepr
from ..rules.code import OctalCode
from ..rules.presets import as_code
from ..validate import value_array
from .rare import rare_split
from .sequence import nim_sequence
from .values import Progress


@dataclass(frozen=True)
class SequenceStats(HtmlRepr):
    """What `octal stats` reports; rare positions are counted from heap 0 (G(0) = 0 is always rare)."""

    code: str
    n: int
    mask: int
    parity_bit: bool
    rare_count: int
    last_rare: int | None
    rare_values: list[int]
    histogram: dict[int, int]
    max: int
    max_first_at: int
    name: str | None = None  # the preset's name, when the game was named by one
    threads: int | None = None  # the kernel threads that computed the values (None: handed in)

    def __repr__(self) -> str:
        return (f"SequenceStats({self.code}: n {self.n:,}, mask {self.mask:#x}, {self.rare_count:,} rare, "
                f"max {self.max} first at {self.max_first_at:,})")

    def to_dict(self) -> dict:
        return {
            "code": self.code,
            "n": self.n,
            "mask": self.mask,
            "parity_bit": self.parity_bit,
            "rare_count": self.rare_count,
            "last_rare": self.last_rare,
            "rare_values": self.rare_values,
            "histogram": {str(k): v for k, v in self.histogram.items()},
            "max": self.max,
            "max_first_at": self.max_first_at,
            "threads": self.threads,
        }


def sequence_stats(values: np.ndarray, code: OctalCode | str) -> SequenceStats:
    """Rare/common split under the best mask (Walsh–Hadamard), histogram and largest value of `values`."""
    values, code = value_array(values), as_code(code)
    split = rare_split(values, code)
    counts = np.bincount(values.astype(np.int64)) if len(values) else np.zeros(0, np.int64)
    hist = {int(v): int(c) for v, c in enumerate(counts) if c}
    rare_vals = sorted({int(v) for v in values[split.positions]}) if split.count else []
    return SequenceStats(
        code=str(code),
        n=len(values),
        mask=split.mask,
        parity_bit=bool(split.e),
        rare_count=split.count,
        last_rare=int(split.positions[-1]) if split.count else None,
        rare_values=rare_vals,
        histogram=hist,
        max=int(values.max()) if len(values) else 0,
        max_first_at=int(np.argmax(values)) if len(values) else 0,
    )


def game_stats(game: str | OctalCode, n: int, kernel: str = "auto", progress: Progress | None = None,
               threads: int | None = None) -> SequenceStats:
    """`octal stats`: G(0..n−1) of a code or preset computed, then summarised as `sequence_stats` does."""
    result = nim_sequence(game, n, kernel=kernel, progress=progress, threads=threads)
    return dataclasses.replace(sequence_stats(result.values, result.code), name=result.name, threads=result.threads)

"""What a stream run reports (`StreamResult`): the verdict, the value counts and frequency records, the rare/common
summary and where its files are, and its `--json` shape."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..rules.code import OctalCode
from .periodicity import PROVEN, Periodicity


@dataclass
class StreamResult:
    """What a stream run reports: the verdict, counts and rare/common summary, and where its files are."""

    code: OctalCode
    name: str | None
    n: int
    max: int
    periodicity: Periodicity
    counts: np.ndarray
    records: list[dict]
    directory: str
    window: int
    stored: bool
    rare: int
    last_rare: int | None
    mask: int
    e: int
    memory_bytes: int
    counts_from: str = ""  # what the frequency table rests on: COUNTED or FROM_FILE
    notes: tuple[str, ...] = ()  # what a resume kept of the run it found, where the arguments asked otherwise
    threads: int = 1  # the kernel threads that computed it (the values are the same for any count)

    def __repr__(self) -> str:
        name = f" ({self.name})" if self.name else ""
        return (f"StreamResult({self.code}{name}: {self.n:,} heaps streamed, max {self.max}; "
                f"{self.periodicity.describe()})")

    def to_dict(self) -> dict:
        """The `--json` shape of `octal run` (code, name, n, max, period, preperiod, saltus, status,
        proof_bound, threads, theorem) plus "stream": the run's folder, window, memory held and rare/common summary."""
        p = self.periodicity
        return {
            "code": str(self.code), "name": self.name, "n": self.n, "max": self.max, "period": p.period,
            "preperiod": p.preperiod, "saltus": p.saltus, "status": p.status, "proof_bound": p.proof_bound,
            "threads": self.threads, "theorem": p.theorem if p.status == PROVEN else None,
            "stream": {
                "directory": self.directory, "window": self.window, "stored": self.stored,
                "memory_bytes": self.memory_bytes, "rare": self.rare, "last_rare": self.last_rare,
                "mask": self.mask, "e": self.e, "frequencies": str(Path(self.directory) / "frequencies.json"),
                "records": len(self.records), "counts_from": self.counts_from,
            },
        }

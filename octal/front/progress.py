"""A one-line progress display on a terminal: heap n of N, values/s, largest value, ETA."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class ProgressLine:
    """Callable as progress(done, total, largest); total 0 means open-ended, largest None says none. Silent unless on
    a terminal after 1 s."""

    def __init__(self, label: str = "heap", stream: TextIO | None = None, enabled: bool | None = None,
                 delay: float = 1.0, note: str = ""):
        self.stream = stream or sys.stderr
        self.note = note  # said at the end of every line (the threads a run uses)
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.label = label
        self.delay = delay
        self.t0 = time.perf_counter()
        self.first_done: int | None = None
        self.last_draw = 0.0
        self.shown = False

    @classmethod
    def unless(cls, quiet: bool, **kw) -> ProgressLine:
        """A command's line: off with --quiet, else shown when stderr is a terminal."""
        return cls(enabled=False if quiet else None, **kw)

    def __call__(self, done: int, total: int, largest: int | None = 0, extra: str = "") -> None:
        if not self.enabled:
            return
        now = time.perf_counter()
        if self.first_done is None:
            self.first_done, self.t0 = done, now
            return
        if now - self.t0 < self.delay or now - self.last_draw < 0.1:
            return
        self.last_draw = now
        rate = (done - self.first_done) / max(now - self.t0, 1e-9)
        if total > 0:
            eta = f"{(total - done) / rate:,.0f} s" if rate > 0 else "?"
            text = f"{self.label} {done:,} of {total:,} · {rate:,.0f}/s" + (
                "" if largest is None else f" · largest {largest}") + f" · ETA {eta}"
        else:  # open-ended work: no total, no ETA
            text = f"{self.label} {done:,} · {rate:,.1f}/s"
        for part in (extra, self.note):
            if part:
                text += f" · {part}"
        self.stream.write("\r" + text[:200] + "\033[K")
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        """Erase the line so the result prints on a clean terminal."""
        if self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self.shown = False

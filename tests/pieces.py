"""A ThreadChoice that picks at random: pieces of any length, each on one thread or on all of them, so the tests run
the kernels' every call boundary and thread switch, not just the ones timing would pick on an idle machine."""

from __future__ import annotations

import contextlib
import random

from octal.engine import threads as thread_module
from octal.engine.kernels import ahead
from octal.engine.thread_choice import ThreadChoice


class RandomChoice(ThreadChoice):
    """Pieces of 1 to 3,000 heaps, on 1 or `most` threads at random (seeded), leaning to the count that has computed
    fewer heaps so far: both run a fair share however the kernel cuts pieces short (a parallel pass that stalls
    under load returns early, and the draws after it differ from an idle machine's)."""

    def __init__(self, most: int, seed: int = 7):
        super().__init__(most)
        self.rng = random.Random(seed)

    def ripe(self, kind: str) -> bool:
        return self.most > 1  # at once: the tests' runs are short

    def piece(self, kind: str, n: int, stop: int, scale: float = 1.0, shareable: bool = True) -> tuple[int, int]:
        fewer = 1 if self.heaps.get(1, 0) <= self.heaps.get(self.most, 0) else self.most
        threads = fewer if self.rng.random() < 0.75 else self.rng.choice((1, self.most))
        return threads if shareable else 1, min(stop, n + self.rng.randint(1, 3000))


@contextlib.contextmanager
def random_pieces():
    """Every run started inside takes a RandomChoice (using_threads makes one per run)."""
    before, at_once = thread_module.ThreadChoice, ahead.IN_THE_CALLERS_THREAD
    thread_module.ThreadChoice = RandomChoice
    ahead.IN_THE_CALLERS_THREAD = True  # a parallel entry compiled when first asked for: parallel pieces from the first
    try:
        yield
    finally:
        thread_module.ThreadChoice, ahead.IN_THE_CALLERS_THREAD = before, at_once

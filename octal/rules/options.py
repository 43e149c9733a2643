"""The distinct options of each heap, dead heaps dropped: what misère play and its exhaustive searches read.

The rules themselves say a heap's moves (`OctalCode.options`); this memo turns them into the options that
matter in misère play, where a heap with no move is the game 0.
"""

from __future__ import annotations

from .code import OctalCode
from .presets import Preset, as_code


class HeapOptions:
    """The distinct options of each heap as sorted tuples of leaf heaps, heaps with no move dropped.

    A heap with no option is the game 0 (dead); leaving one is the same as leaving nothing. Heaps are
    tabulated from 0 up, so a leaf's own options are known when it is asked whether it is dead.
    """

    def __init__(self, code: OctalCode | Preset | str):
        self.code = as_code(code)
        self._opts: list[tuple[tuple[int, ...], ...]] = []

    def __call__(self, h: int) -> tuple[tuple[int, ...], ...]:
        while len(self._opts) <= h:
            n = len(self._opts)
            words = {tuple(x for x in leaves if self._opts[x]) for _, leaves in self.code.options(n)}
            self._opts.append(tuple(sorted(words)))
        return self._opts[h]

    def live(self, h: int) -> bool:
        return bool(self(h))

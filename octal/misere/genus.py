"""Conway's genus of single heaps: g^{γ0 γ1 γ2 …}, normal value g, then G⁻(heap + k·*2) until it alternates.

A heap is tame (Conway) when its genus is that of a position of misère Nim: 0^120 (*0), 1^031 (*1), or
g^{g, g⊕2} (a position with a heap of 2 or more: *2 = 2^20, *2+*2 = 0^02, *2+*3 = 1^13). The genus of the nim heap
*g itself is 0^120, 1^031 or g^{g,g⊕2} for g ≥ 2 (`nim_heap`). The first heap with another genus is where
tameness ends.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.sequence import nim_sequence
from ..errors import ResourceLimitError
from ..rules.code import OctalCode
from ..rules.presets import as_code
from ..validate import whole_number
from .search import MAX_TOTAL, MisereSearch

MAX_TWOS = 12


@dataclass(frozen=True)
class Genus:
    """g^{γ…}: `gamma` holds γ0, γ1, … up to and including the first term of the final alternation."""

    heap: int
    g: int
    gamma: tuple[int, ...]

    def __str__(self) -> str:
        sep = "" if all(x < 10 for x in self.gamma) else ","
        return f"{self.g}^{sep.join(map(str, self.gamma))}"

    @property
    def tame(self) -> bool:
        """The genus of a misère Nim position: 0^120, 1^031 or g^{g,g⊕2} for any g."""
        return self.gamma in (nim_genus(self.g), (self.g, self.g ^ 2))

    @property
    def nim_heap(self) -> bool:
        """The genus of the nim heap *g itself: 0^120, 1^031, g^{g,g⊕2} for g ≥ 2."""
        return self.gamma == nim_genus(self.g)


def nim_genus(g: int) -> tuple[int, ...]:
    """γ of the nim heap *g."""
    if g == 0:
        return (1, 2, 0)
    if g == 1:
        return (0, 3, 1)
    return (g, g ^ 2)


def _abbreviate(gs: list[int]) -> tuple[int, ...] | None:
    """γ0..γ_{i+1} for the least i with γ_j = γ_{j+2} for all later j seen, or None if not settled."""
    for i in range(len(gs) - 3):
        if all(gs[j] == gs[j + 2] for j in range(i, len(gs) - 2)):
            return tuple(gs[: i + 2])
    return None


def genus_of(search: MisereSearch, heap: int, g: int) -> Genus:
    gs: list[int] = []
    for k in range(MAX_TWOS + 1):
        gs.append(search.grundy((heap,), 0, k))
        if k >= 4:
            short = _abbreviate(gs)
            if short is not None and len(short) + 2 <= len(gs):
                return Genus(heap, g, short)
    return Genus(heap, g, tuple(gs))


class GenusSequence(list):
    """The genus of heaps 0, 1, … of one code (a list of Genus), with the `octal genus --json` shape."""

    def __init__(self, code: OctalCode, genera: list[Genus]):
        super().__init__(genera)
        self.code = code

    def to_dict(self) -> dict:
        """code, genus (as Winning Ways writes it), tame_heaps, first_wild_heap."""
        return {"code": str(self.code), "genus": [str(g) for g in self], "tame_heaps": [g.heap for g in self if g.tame],
                "first_wild_heap": next((g.heap for g in self if not g.tame), None)}


def genus_sequence(code: OctalCode | str, n: int, search: MisereSearch | None = None) -> GenusSequence:
    """The genus of heaps 0..n−1 (exhaustive misère search: n up to MAX_TOTAL = 48)."""
    code = as_code(code)
    n = whole_number(n, "the number of heaps", 1)
    if n > MAX_TOTAL:
        raise ResourceLimitError(f"the genus needs an exhaustive misère search: at most {MAX_TOTAL} heaps, not {n:,}")
    search = search or MisereSearch(code, max_total=max(n, 1))
    values = nim_sequence(code, max(n, 1)).values
    return GenusSequence(code, [genus_of(search, h, int(values[h])) for h in range(n)])

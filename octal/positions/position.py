"""Positions of several heaps: moves in words, normal-play outcome by nim-sum, every winning move.

A position is a code and a multiset of heap sizes. In normal play it is a P-position (the player to
move loses) exactly when the nim-sum of the heaps' values G(h) is 0 (Sprague–Grundy), and the winning
moves are those that leave nim-sum 0. Heap values come from the computed sequence, or through a
proven period for heaps of any size.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Callable, Iterator

from ..defaults import HEX_MAX_N
from ..displays import HtmlRepr
from ..engine.grundy import GrundySequence
from ..engine.periodicity import PROVEN
from ..engine.sequence import NimSequence, nim_sequence
from ..engine.values import Progress
from ..errors import InvalidArgumentError, ResourceLimitError
from ..outcomes import NEXT, PREVIOUS
from ..rules.code import GENERAL, HEXADECIMAL, OctalCode
from ..rules.digits import EQUAL, FREE, partitions
from ..rules.presets import as_code
from ..validate import whole_number

COMPUTE_LIMIT = 1 << 22  # heaps beyond this need a proven period
GENERAL_COMPUTE_LIMIT = 1 << 13  # the general kernel costs O(N² log N): heaps beyond need a proven period
PROOF_BUDGET = 1 << 16  # how far to look for a proof when a heap is beyond COMPUTE_LIMIT (HEX_MAX_N for a code
# whose moves may leave three heaps, as far as it computes)
MOVE_LIMIT = 1000  # winning moves listed at most
SCAN_LIMIT = 200_000  # splits examined per heap when listing moves of a huge heap


@dataclass(frozen=True, order=True)
class Move:
    """Remove `remove` tokens from a heap of size `heap`, leaving the heaps `leaves` (sorted)."""

    heap: int
    remove: int
    leaves: tuple[int, ...]

    def describe(self) -> str:
        """'remove 2 from the heap of 9, leaving heaps 3 and 4' (or a split without removal)."""
        if not self.leaves:
            rest = "leaving nothing"
        elif len(self.leaves) == 1:
            rest = f"leaving a heap of {self.leaves[0]:,}"
        else:
            rest = "leaving heaps " + ", ".join(f"{x:,}" for x in self.leaves[:-1]) + f" and {self.leaves[-1]:,}"
        if self.remove == 0:
            return f"split the heap of {self.heap:,}, {rest}"
        return f"remove {self.remove:,} from the heap of {self.heap:,}, {rest}"

    def to_dict(self) -> dict:
        return {"heap": self.heap, "remove": self.remove, "leaves": list(self.leaves)}


def heap_moves(code: OctalCode | str, h: int, split_limit: int | None = None) -> Iterator[Move]:
    """Every move from one heap of h tokens, by k ascending; splits limited to `split_limit` per k and count."""
    code = as_code(code)
    h = whole_number(h, "a heap size")
    return (Move(h, k, leaves) for k, leaves in code.options(h, split_limit))


def move_allowed(code: OctalCode, move: Move) -> bool:
    """True when the rules allow `move` (O(1) in the heap size: checked by its digit, count and constraint)."""
    return code.allows(move.heap, move.remove, move.leaves)


def parse_heaps(heaps: list[int] | tuple[int, ...]) -> tuple[int, ...]:
    """Validate heap sizes (non-negative integers) and keep them in the order given (empty: no heaps)."""
    if isinstance(heaps, (str, bytes)) or not hasattr(heaps, "__iter__"):
        raise InvalidArgumentError(f"heaps are a list of whole numbers, not {heaps!r}")
    out = []
    for h in heaps:
        n = whole_number(h, "a heap size", None)
        if n < 0:
            raise InvalidArgumentError(f"heap sizes cannot be negative: {n}")
        out.append(n)
    return tuple(out)


class HeapValues:
    """G(h) for any heap h of one code: computed values, or the proven period beyond them.

    Heaps up to `limit` are computed on demand; beyond it the period must be proven within
    PROOF_BUDGET heaps, or ResourceLimitError says so.
    """

    def __init__(self, code: OctalCode, largest: int = 0, limit: int = COMPUTE_LIMIT, progress: Progress | None = None):
        self.code = code
        self.limit = min(limit, {GENERAL: GENERAL_COMPUTE_LIMIT, HEXADECIMAL: HEX_MAX_N}.get(code.tier, limit))
        self.progress = progress
        self.seq: NimSequence | None = None
        self._grundy = GrundySequence(code)  # every call below extends this one sequence
        self.ensure(largest)

    def ensure(self, largest: int) -> None:
        """Make G(0..largest) available, computing or proving as needed."""
        if self.seq is not None and (largest < self.seq.n or self.seq.periodicity.status == PROVEN):
            return
        provable = self.code.proof_criteria is not None
        if largest < self.limit:
            if provable:
                self.seq = nim_sequence(self.code, until_proven=True, max_n=max(largest + 1, 4096),
                                        progress=self.progress, resume=self._grundy)
            if not provable or self.seq.n <= largest:  # no proof to look for, or none yet: compute as far as needed
                self.seq = nim_sequence(self.code, largest + 1, progress=self.progress, resume=self._grundy)
            return
        if not provable:
            raise ResourceLimitError(
                f"heap {largest:,} is beyond the {self.limit:,} heaps octal computes for {self.code}, and no "
                "period of it can be proven (a constraint, an open count or a repeating tail)")
        budget = self.limit if self.code.tier == HEXADECIMAL else PROOF_BUDGET  # three heaps: as far as it computes
        self.seq = nim_sequence(self.code, until_proven=True, max_n=budget, progress=self.progress,
                                resume=self._grundy)
        if self.seq.periodicity.status != PROVEN:
            raise ResourceLimitError(
                f"heap {largest:,} is beyond the {self.limit:,} heaps octal computes for {self.code}, and no period "
                f"of it is proven within {budget:,} heaps"
            )

    def __call__(self, h: int) -> int:
        self.ensure(h)
        return self.seq.value(h)


@dataclass
class Solution(HtmlRepr):
    """Who wins a position and how: the `--json` shape of `octal solve`."""

    code: OctalCode
    heaps: tuple[int, ...]
    play: str
    outcome: str
    winning_moves: list[Move]
    truncated: bool = False
    values: list[int] = field(default_factory=list)
    method: str = "nim-sum"
    best_try: Move | None = None
    normal_outcome: str | None = None  # misère play: the outcome of the same heaps in normal play, where known

    def __repr__(self) -> str:
        heaps = " ".join(map(str, self.heaps))
        k = len(self.winning_moves)
        return f"Solution({self.code} [{heaps}], {self.play}: {self.outcome}, {k} winning move{'' if k == 1 else 's'})"

    def to_dict(self) -> dict:
        return {
            "code": str(self.code),
            "heaps": list(self.heaps),
            "play": self.play,
            "outcome": self.outcome,
            "winning_moves": [m.to_dict() for m in self.winning_moves],
            "winning_moves_truncated": self.truncated,
            "method": self.method,
            **({"normal_outcome": self.normal_outcome} if self.play == "misere" else {}),
        }


def collect_moves(code: OctalCode, heaps, wins: Callable[[int, tuple[int, ...]], bool],
                  period: tuple[int, int] | None = None) -> tuple[list[Move], bool]:
    """Every move from each distinct heap h whose leaves make `wins(h, leaves)` true, sorted; at most MOVE_LIMIT
    (the flag says the list was cut short).

    `period` = (n0, p) says that `wins` sees a leaf ℓ ≥ n0 only through ℓ mod p (a proven period of G or Φ):
    the splits of a huge heap are then decided once per residue class and listed in order, however large
    the heap. Without it the splits of a heap above SCAN_LIMIT are scanned only in part.
    """
    moves: list[Move] = []
    truncated = False
    cut: list[bool] = []
    for h in sorted(set(heaps)):
        partial = h > SCAN_LIMIT and (period is None or code.is_hexadecimal or not code.is_finite)
        if h > SCAN_LIMIT and not partial:
            found = _winning_by_residue(code, h, wins, period)
        else:
            listed = heap_moves(code, h, split_limit=SCAN_LIMIT if partial else None)
            if code.tier == GENERAL:  # partitions into many heaps explode: examine at most SCAN_LIMIT moves
                listed = itertools.islice(listed, SCAN_LIMIT + 1)
                listed = _flag_cut(listed, SCAN_LIMIT, cut)
            found = (mv for mv in listed if wins(h, mv.leaves))
        for mv in found:
            moves.append(mv)
            if len(moves) >= MOVE_LIMIT:
                truncated = True
                break
        truncated = truncated or (partial and len(moves) > 0) or bool(cut)
        if len(moves) >= MOVE_LIMIT:
            break
    return sorted(moves), truncated


def _flag_cut(moves: Iterator[Move], limit: int, cut: list[bool]) -> Iterator[Move]:
    """The first `limit` moves; appends True to `cut` when there were more."""
    for i, mv in enumerate(moves):
        if i == limit:
            cut.append(True)
            return
        yield mv


def _winning_by_residue(code: OctalCode, h: int, wins, period: tuple[int, int]) -> Iterator[Move]:
    """The winning moves of one heap in sorted order (by removal, then leaves), splits through residues mod p.

    A split (a, m − a) with n0 ≤ a ≤ m/2 and m − a ≥ n0 depends on a only through a mod p, so one
    representative per class decides the whole class (octal codes: at most two heaps are left).
    """
    n0, p = period
    for k in range(0, min(h, int(code.max_take)) + 1):
        m = h - k
        for j, tie in code.counts(k, m):
            if j < 2 or tie == EQUAL:
                yield from (Move(h, k, leaves) for leaves in partitions(m, j, tie) if wins(h, leaves))
                continue
            half = m // 2 if tie == FREE else (m - 1) // 2
            if m - half < n0 + p:  # a small remainder: every split on its own
                yield from (Move(h, k, (a, m - a)) for a in range(1, half + 1) if wins(h, (a, m - a)))
            else:
                yield from (Move(h, k, (a, m - a)) for a in range(1, min(n0, half + 1)) if wins(h, (a, m - a)))
                first = max(n0, 1)
                classes = [wins(h, (a, m - a)) for a in range(first, min(first + p, half + 1))]
                if any(classes):
                    yield from (Move(h, k, (a, m - a)) for a in range(first, half + 1) if classes[(a - first) % p])


def normal_solution(code: OctalCode, heaps: tuple[int, ...], values: HeapValues | None = None) -> Solution:
    """Normal play: P iff the nim-sum of G(h) is 0; the winning moves leave nim-sum 0."""
    heaps = parse_heaps(heaps)
    values = values or HeapValues(code, max(heaps, default=0))
    g = [values(h) for h in heaps]
    total = 0
    for x in g:
        total ^= x
    moves, truncated = [], False
    if total:
        targets = {h: values(h) ^ total for h in heaps}

        def wins(h: int, leaves: tuple[int, ...]) -> bool:
            v = 0
            for leaf in leaves:
                v ^= values(leaf)
            return v == targets[h]

        pv = values.seq.periodicity
        period = (pv.preperiod, pv.period) if pv.status == "proven" and not pv.saltus else None
        moves, truncated = collect_moves(code, heaps, wins, period)
    return Solution(code, heaps, "normal", NEXT if total else PREVIOUS, moves, truncated, g)


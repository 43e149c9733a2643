"""A misère quotient as a value: the monoid table Q, its P-portion and the pretending function Φ (Plambeck–Siegel),
what it answers (the class of a position, whether it is a P-position, Φ through its proven period), its presentation,
its document and its exact re-check; and the outcome and winning moves of a position read from it."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..displays import HtmlRepr
from ..engine.periodicity import holds_through, periodic_index
from ..errors import DataFileError, OctalError, ResourceLimitError
from ..outcomes import FINITE, GROWING, NEXT, PREVIOUS, STOPPED
from ..positions.position import Solution, collect_moves, parse_heaps
from ..rules.code import OctalCode, parse_code
from ..rules.options import HeapOptions
from ..validate import is_whole
from .presentation import Presentation, is_tame, present
from .pretension import Pretension, QuotientFailure, table_times, transitions, verify
from .quotient_file import FORMAT, VERSION, int_array, read_document, write_document


def new_generators(mul: np.ndarray, phi: np.ndarray) -> list[int]:
    """The heaps n ≥ 1 whose Φ(n) is not a product of Φ(1), …, Φ(n−1): where a quotient's presentation must have
    grown (a heap that pretends to be a known element needs no new generator)."""
    reach, out = {0}, []
    for n in range(1, len(phi)):
        x = int(phi[n])
        if x not in reach:
            out.append(n)
        frontier = set(reach)
        while frontier:  # the submonoid generated so far, closed under · Φ(n)
            frontier = {int(mul[y, x]) for y in frontier} - reach
            reach |= frontier
    return out


@dataclass
class MisereQuotient(HtmlRepr):
    """The misère quotient of heaps 0..max_heap of a code: table, P-portion, pretending function Φ.

    `status` is FINITE when the quotient was settled (Φ proven periodic, or every heap up to the
    requested one computed) and GROWING when a budget stopped it; every answer it gives is exact
    for the heaps it covers.
    """

    code: OctalCode
    mul: np.ndarray
    p: np.ndarray
    phi: np.ndarray
    changes: list[int]
    period: int | None = None
    preperiod: int | None = None
    status: str = FINITE
    reason: str = ""
    seconds: float = 0.0
    work: int = 0  # steps of work spent (see _Builder.charge): the same on every machine
    source: str = ""  # where a loaded quotient was read from (it was verified there, not computed)
    _presentation: Presentation | None = field(default=None, repr=False)
    _tame: bool | str = field(default="?", repr=False)

    def __repr__(self) -> str:
        period = f", Φ period {self.period} from {self.preperiod}" if self.period is not None else ""
        return (f"MisereQuotient({self.code}: |Q| = {self.order}, |P| = {self.p_portion}, heaps 0..{self.max_heap}"
                f"{period}, {self.status})")

    @property
    def order(self) -> int:
        return len(self.mul)

    @property
    def p_portion(self) -> int:
        return int(self.p.sum())

    @property
    def max_heap(self) -> int:
        return len(self.phi) - 1

    @property
    def proven(self) -> bool:
        return self.period is not None

    def pretend(self, h: int) -> int:
        """Φ(h): through the proven period beyond the heaps computed."""
        if h < len(self.phi):
            return int(self.phi[h])
        if self.period is None:
            raise ResourceLimitError(f"heap {h:,} is beyond the quotient of {self.code} computed to heap "
                                     f"{self.max_heap:,} (no period is proven)")
        return int(self.phi[periodic_index(h, self.period, self.preperiod)])

    def element(self, heaps) -> int:
        """The class of a position: the product of Φ(h) over its heaps (O(#heaps))."""
        x = 0
        for h in heaps:
            x = int(self.mul[x, self.pretend(h)])
        return x

    def is_p(self, heaps) -> bool:
        """Misère outcome: True when the player to move loses."""
        return bool(self.p[self.element(heaps)])

    def covers(self, heaps) -> bool:
        return self.period is not None or max(heaps, default=0) <= self.max_heap

    @property
    def presentation(self) -> Presentation:
        if self._presentation is None:
            self._presentation = present(self.mul, self.phi)
        return self._presentation

    @property
    def tame(self) -> bool:
        """True when (Q, P) is isomorphic to the quotient of nim heaps."""
        if self._tame == "?":
            self._tame = is_tame(self.mul, self.p)
        return self._tame

    def to_dict(self) -> dict:
        """The `octal misere --json` shape plus the presentation and Φ."""
        pres = self.presentation
        return {
            "code": str(self.code),
            "order": self.order,
            "p_portion": self.p_portion,
            "tame": self.tame,
            "max_heap": self.max_heap,
            "period": self.period,
            "preperiod": self.preperiod,
            "status": self.status,
            "generators": {letter: heap for letter, heap in zip(pres.letters, pres.heaps)},
            "relations": pres.relation_texts(ascii=True),
            "p_elements": [pres.name(x, ascii=True) for x in np.flatnonzero(self.p)],
            "pretending_function": [pres.name(int(x), ascii=True) for x in self.phi],
            "changes": list(self.changes),
            "seconds": round(self.seconds, 3),
            "work": self.work,
        }

    # ---- saving and loading --------------------------------------------------------------------
    def to_document(self) -> dict:
        return {
            "format": FORMAT,
            "version": VERSION,
            "code": str(self.code),
            "table": self.mul.tolist(),
            "p": [int(x) for x in np.flatnonzero(self.p)],
            "phi": self.phi.tolist(),
            "changes": list(self.changes),
            "period": self.period,
            "preperiod": self.preperiod,
            "status": self.status,
            "reason": self.reason,
        }

    def save(self, path: str | Path) -> Path:
        """A small JSON document (written atomically) from which `load` rebuilds the quotient."""
        return write_document(self.to_document(), path)

    @classmethod
    def load(cls, path: str | Path) -> MisereQuotient:
        """Read a saved quotient and verify every field against the game's rules before trusting it."""
        return cls.from_document(read_document(path), where=str(path))

    @classmethod
    def from_document(cls, doc: dict, where: str = "document") -> MisereQuotient:
        """Rebuild a quotient from `to_document`'s shape: the table and Φ verified exactly, the period re-proven."""
        try:
            if not isinstance(doc, dict) or doc.get("format") != FORMAT:
                raise ValueError(f"not an {FORMAT} document")
            if doc.get("version") != VERSION or isinstance(doc.get("version"), bool):
                raise ValueError(f"version {doc.get('version')!r} is not one this octal reads ({VERSION})")
            code = parse_code(doc["code"])
            mul = int_array(doc["table"], 2)
            m = len(mul)
            if mul.shape != (m, m) or m == 0 or mul.min() < 0 or mul.max() >= m:
                raise ValueError("the table is not a square table of elements")
            if not (np.array_equal(mul[0], np.arange(m)) and np.array_equal(mul[:, 0], np.arange(m))):
                raise ValueError("element 0 is not the identity")
            p_list = int_array(doc["p"], 1)
            if len(p_list) and (p_list.min() < 0 or p_list.max() >= m):
                raise ValueError("the P-portion names elements outside the table")
            p = np.zeros(m, dtype=bool)
            p[p_list] = True
            phi = int_array(doc["phi"], 1)
            if len(phi) == 0 or phi.min() < 0 or phi.max() >= m:
                raise ValueError("the pretending function names elements outside the table")
            changes = [int(x) for x in int_array(doc.get("changes", []), 1)]
            if any(not 0 <= x < len(phi) for x in changes):
                raise ValueError("the heaps where the presentation changed lie outside Φ")
            new = new_generators(mul, phi)
            if changes != new:
                raise ValueError(f"its new generators are not at heaps {changes}: the heaps whose Φ no earlier heap "
                                 f"generates are {new}")
            period, preperiod = doc.get("period"), doc.get("preperiod")
            status = doc.get("status", FINITE)
            if status not in (FINITE, GROWING, STOPPED):
                raise ValueError(f"unknown status {status!r}")
            reason = doc.get("reason", "")
            if not isinstance(reason, str):
                raise ValueError("the reason is not text")
            if (period is None) != (preperiod is None):
                raise ValueError("a period needs its preperiod and the other way round")
            if period is not None:
                if not all(is_whole(x, -(1 << 62)) for x in (period, preperiod)):
                    raise ValueError("the period and preperiod must be whole numbers")
                if status != FINITE:
                    raise ValueError("a proven period belongs to a finite quotient, not a growing one")
        except (KeyError, TypeError, ValueError, IndexError, OverflowError, RecursionError, OctalError) as e:
            raise DataFileError(f"{where} is not a saved misère quotient: {e}") from None
        if period is not None and not holds_through(phi, period, preperiod, code.proof_criteria):
            raise DataFileError(f"{where} claims Φ(n + {period}) = Φ(n) from heap {preperiod} for {code}, "
                                f"but its Φ does not prove that (the Guy–Smith bound is not met or Φ disagrees)")
        q = cls(code, mul.astype(np.int32), p, phi.astype(np.int32), changes, period, preperiod, status, reason,
                source=where)
        if not q.check():
            raise DataFileError(f"{where} does not match the rules of {code}: its quotient predicts a wrong outcome")
        return q

    def check(self) -> bool:
        """Verify the quotient exactly (every position of heaps ≤ max_heap is predicted right)."""
        options = HeapOptions(self.code)
        phi = [int(x) for x in self.phi]
        times = table_times(self.mul)
        trans = [transitions(times, phi, options, h) for h in range(len(phi))]
        if any(not options.live(h) and phi[h] != 0 for h in range(len(phi))):
            return False
        try:
            return verify(Pretension(self.mul, self.p, phi, trans), options) is None
        except QuotientFailure:
            return False


def quotient_solution(q: MisereQuotient, heaps) -> Solution:
    """Misère outcome and winning moves read from the quotient: products of Φ(h), O(#heaps) per position."""
    heaps = parse_heaps(heaps)
    if not q.covers(heaps):
        raise ResourceLimitError(f"heap {max(heaps):,} is beyond the quotient of {q.code}, computed to heap "
                                 f"{q.max_heap:,} with no period proven")
    elems = [q.pretend(h) for h in heaps]
    mul, p = q.mul, q.p
    # the product of all heaps but one, from prefix and suffix products: O(#heaps)
    prefix = [0]
    for x in elems:
        prefix.append(int(mul[prefix[-1], x]))
    suffix = [0]
    for x in reversed(elems):
        suffix.append(int(mul[suffix[-1], x]))
    suffix.reverse()
    rest = {h: int(mul[prefix[i], suffix[i + 1]]) for i, h in enumerate(heaps)}
    outcome = PREVIOUS if p[prefix[-1]] else NEXT

    def wins(h: int, leaves: tuple[int, ...]) -> bool:
        y = rest[h]
        for leaf in leaves:
            y = int(mul[y, q.pretend(leaf)])
        return bool(p[y])

    period = (q.preperiod, q.period) if q.proven else None
    moves, truncated = collect_moves(q.code, heaps, wins, period) if outcome == NEXT else ([], False)
    how = f"period {q.period} proven" if q.proven else f"heaps ≤ {q.max_heap}"
    return Solution(q.code, heaps, "misere", outcome, moves, truncated, [],
                    f"misère quotient (order {q.order}, {how})")

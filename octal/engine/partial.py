"""Partial arithmetic periods: G(n + p) = G(n) + s for every n ≥ n0 outside a few residue classes mod p — the shape of
the ruler regularity of Grossman and Nowakowski (0.2048 and its relatives, Games of No Chance 4, 2015: period 13,
saltus 4, every residue but one). Looked for where no period or arithmetic period shows; always apparent (no theorem
here proves one), and stated so a reader can check it on the values."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

MAX_PERIOD = 1024  # the largest p looked for
MAX_OFF = 2  # residues that may stand apart (the ruler regularity has one): with more, the pattern is too loose to call
# one (0.018 follows period 202 on all residues but 10 to 4,096 heaps, and on all but 12 to 16,384)
MIN_ROWS = 8  # times each residue is seen in the second half of the values


@dataclass(frozen=True)
class PartialPeriod:
    """G(n + p) = G(n) + s for every n ≥ n0 whose residue n mod p is not in `off`, in the values computed."""

    period: int
    saltus: int
    preperiod: int
    off: tuple[int, ...]

    def describe(self) -> str:
        off = ", ".join(str(r) for r in self.off)
        return (f"apparent partial arithmetic period {self.period:,}, saltus {self.saltus:,}, from heap "
                f"{self.preperiod:,}, on every residue mod {self.period:,} but {off}")

    def holds(self, values: np.ndarray) -> bool:
        """Whether `values` follow it (every heap n ≥ n0 of a residue not in `off`, n + p computed)."""
        G = np.asarray(values, dtype=np.int64)
        n = np.arange(self.preperiod, len(G) - self.period)
        keep = n[~np.isin(n % self.period, self.off)]
        return bool(np.all(G[keep + self.period] - G[keep] == self.saltus))


def find_partial(values: np.ndarray) -> PartialPeriod | None:
    """The least p (with its saltus s > 0 and its residues apart) that the second half of the values follows on every
    residue but one or two (MAX_OFF, and fewer than half of them), each seen MIN_ROWS times: constant differences
    G(n + p) − G(n) = s there, any other difference on the residues apart; n0 the least heap from which the rest
    follows. None when none does."""
    G = np.asarray(values, dtype=np.int64)
    N = len(G)
    half = N // 2
    for p in range(MAX_OFF + 1, min(MAX_PERIOD, N // (2 * MIN_ROWS)) + 1):
        diff = G[p:] - G[:-p]  # diff[n] = G(n + p) − G(n), n < N − p
        window = diff[half:N - p]
        rows = len(window) // p
        if rows < MIN_ROWS:
            break
        start = half + (len(window) - rows * p)  # whole rows of p, ending at the last difference
        table = diff[start:N - p].reshape(rows, p)
        steady = np.all(table == table[:1], axis=0)
        s = _common(table[0][steady])
        if s is None or s <= 0:
            continue
        follows = steady & (table[0] == s)
        off = [(start + c) % p for c in np.flatnonzero(~follows)]
        if not off or len(off) > MAX_OFF or 2 * len(off) >= p:  # the residues apart a minority
            continue
        bad = (diff != s) & ~np.isin(np.arange(N - p) % p, off)
        n0 = int(np.flatnonzero(bad)[-1]) + 1 if bad.any() else 0
        return PartialPeriod(p, s, n0, tuple(sorted(int(r) for r in off)))
    return None


def _common(x: np.ndarray) -> int | None:
    """The most frequent value (the least of those tied), None for none."""
    if len(x) == 0:
        return None
    vals, counts = np.unique(x, return_counts=True)
    return int(vals[np.argmax(counts)])

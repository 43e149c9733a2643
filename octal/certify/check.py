"""Each certificate row re-proved: its bound recomputed by the theorem it rests on, every value through the bound
checked to be the mex of its options, and its preperiod and period checked to be the least."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor

import numpy as np

from .rules import digits, guy_smith_bound, heaps_left, mex_values, pair_values, triple_values, values_for, width_for
from .saltus import LIFTS, saltus_bound

MAX_TABLES = 1 << 30  # bytes of one group's mex tables at most (r + 1 tables of bound × P booleans, P the power of two
# above the largest value; the 4-digit table's largest within 100,000 heaps need 18 MB): a row past it is not
# checked, and the verifier exits 2
MAX_WORK = 1 << 34  # booleans the three-heap table sets at most (about bound² × P / 2: some 3 s here): past it, a
# row is not checked, as past MAX_TABLES (the hexadecimal table's largest needs 10⁸)
PREFIX = 256  # heaps checked first, with tables of their own: a false claim there is refuted before the large tables
TOO_LARGE = "too large"  # check_group's word for a row it cannot check within MAX_TABLES or the theorem's limits


def row_bound(d: list[int], block: np.ndarray, row: dict) -> tuple[int | None, str]:
    """The heaps the row's theorem needs: Guy–Smith's bound for a period (saltus 0), else the power-of-two saltus
    theorem's for an arithmetic period, from the claimed values (checked after, through that bound); (None, why)."""
    n0, p, s = row["preperiod"], row["period"], row["saltus"]
    if s == 0:
        return guy_smith_bound(d, n0, p), ""
    G = values_for(block, n0, p, s, max(n0, 1) + max(LIFTS) * p)
    return saltus_bound(d, G, n0, p, s)


def _not_least(G: np.ndarray, n0: int, p: int, s: int) -> str | None:
    """Why (n0, p) is not the least, from the true values G (through n0 + 2p): a prime f of p with G(n + p/f) − G(n)
    the same for n0 ≤ n < n0 + p (then for every n ≥ n0, as both sides gain s each p: (p/f, s/f) is one too), or
    G(n0 − 1 + p) = G(n0 − 1) + s."""
    window = G[n0:n0 + p]
    for f in _primes(p):
        step = G[n0 + p // f:n0 + p + p // f] - window
        if np.all(step == step[0]):
            return f"period {p} is not the least"
    if n0 > 0 and G[n0 - 1 + p] == G[n0 - 1] + s:
        return f"preperiod {n0} is not the least"
    return None


def check_group(d_rows: list[tuple[list[int], dict, int]], block: np.ndarray) -> list[str | None]:
    """Each row's refutation (None: re-proved, TOO_LARGE: not checked); all rows share a block, a preperiod, a period
    and a saltus, come with the bound their theorem needs, and their block holds n0 + p values (`verify` refutes a
    shorter one first)."""
    n0, p, s = (d_rows[0][1][k] for k in ("preperiod", "period", "saltus"))
    B = max(b for _, _, b in d_rows)
    G = values_for(block, n0, p, s, max(B, n0 + 2 * p))  # past B only for the leastness test
    top = int(G[:B].max())
    r = max(heaps_left(d) for d, _, _ in d_rows)
    most = max(len(d) for d, _, _ in d_rows) * (B ** (r - 1) + 2)  # a mex is at most the number of options
    if top > most:
        return [f"its value {top:,} exceeds every mex a heap below {B:,} can have"] * len(d_rows)
    first = _first_wrong(d_rows, G, min(PREFIX, B), r)  # final for a row refuted there, or whose bound is within it
    later = [True] * len(d_rows) if first is None else [early is None and b > PREFIX
                                                         for (_, _, b), early in zip(d_rows, first)]
    P = width_for(top)
    large = any(later) and ((r + 1) * B * P > MAX_TABLES or (r == 3 and B * B * P // 2 > MAX_WORK))
    two = pair_values(G[:B], P) if any(later) and not large else None
    three = triple_values(G[:B], two) if r == 3 and two is not None else None
    out = []
    for (d, row, b), early, more in zip(d_rows, first or [None] * len(d_rows), later):
        if more and large:
            out.append(TOO_LARGE)
            continue
        bad = _wrong(d, G[:b], two[:b], None if three is None else three[:b]) if more else early
        if row["bound"] != b:
            out.append(f"its bound is {row['bound']:,}, but the theorem needs {b:,} heaps")
        elif bad is not None:
            n, mex = bad
            out.append(f"G({n:,}) = {G[n]} {'claimed' if n < n0 + p else 'by the period'}, but the mex is {mex}")
        elif why := _not_least(G, n0, p, s):
            out.append(why)
        elif row["max_value"] != int(G[:n0 + p].max()):
            out.append(f"its largest value is {int(G[:n0 + p].max())}, not {row['max_value']}")
        else:
            out.append(None)
    return out


def _wrong(d: list[int], G: np.ndarray, two: np.ndarray, three: np.ndarray | None) -> tuple[int, int] | None:
    """(n, the mex of n's options) for the first heap whose value is not that mex, or None."""
    mex = mex_values(d, G, two, three)
    bad = np.flatnonzero(mex != G)
    return (int(bad[0]), int(mex[bad[0]])) if len(bad) else None


def _first_wrong(d_rows: list, G: np.ndarray, n: int, r: int) -> list[tuple[int, int] | None] | None:
    """_wrong on heaps 0..n−1 alone for each row (a heap's mex reads only the heaps below it), with tables as wide as
    those heaps' values need: cheap, and it refutes a claim false early before the tables of the whole bound. None
    (nothing checked) when even these tables would pass MAX_TABLES (a huge value among the first heaps)."""
    P = width_for(int(G[:n].max()))
    if (r + 1) * n * P > MAX_TABLES:
        return None
    two = pair_values(G[:n], P)
    three = triple_values(G[:n], two) if r == 3 else None
    return [_wrong(d, G[:min(b, n)], two[:min(b, n)], None if three is None else three[:min(b, n)])
            for d, _, b in d_rows]


def _primes(p: int) -> list[int]:
    out, f = [], 2
    while f * f <= p:
        if p % f == 0:
            out.append(f)
            while p % f == 0:
                p //= f
        f += 1
    return out + ([p] if p > 1 else [])


def _check(job: tuple[list, np.ndarray]) -> list[str | None]:
    return check_group(*job)


def verify(rows: list[dict], blocks: list[np.ndarray], max_bound: int, workers: int):
    """(re-proved, refuted {code: why}, not reached [codes], too large to check within MAX_TABLES or the theorem's
    limits [codes]) over `rows`."""
    groups: dict[tuple[int, int, int, int], list] = {}
    refuted, far, large = {}, [], []
    for row in rows:
        try:
            d = digits(row["code"])
        except ValueError as exc:
            refuted[row["code"]] = str(exc)
            continue
        if len(blocks[row["block"]]) < row["preperiod"] + row["period"]:  # before any bound: its claim cannot be read
            refuted[row["code"]] = (f"its block holds {len(blocks[row['block']]):,} values, not the "
                                    f"{row['preperiod'] + row['period']:,} through its period")
            continue
        b, why = row_bound(d, blocks[row["block"]], row)
        if b is None and why == TOO_LARGE:
            large.append(row["code"])
        elif b is None and why:
            refuted[row["code"]] = f"the power-of-two saltus theorem does not prove it: {why}"
        elif b is not None and b > max_bound:
            far.append(row["code"])
        else:
            groups.setdefault((row["block"], row["preperiod"], row["period"], row["saltus"]), []).append((d, row, b))
    jobs = sorted(((g, blocks[key[0]]) for key, g in groups.items()), key=lambda j: -max(b for _, _, b in j[0]))
    if workers > 1 and len(jobs) > 1:
        with ProcessPoolExecutor(min(workers, len(jobs))) as pool:
            results = list(pool.map(_check, jobs))
    else:
        results = [_check(j) for j in jobs]
    proved = 0
    for (g, _), res in zip(jobs, results):
        for (_, row, _), why in zip(g, res):
            if why is None:
                proved += 1
            elif why == TOO_LARGE:
                large.append(row["code"])
            else:
                refuted[row["code"]] = why
    return proved, refuted, far, sorted(large)

"""The normal-play census: each code grown until its period is proven (or --max-n), one row per code committed as
it finishes, then identical games and first cousins grouped."""

from __future__ import annotations

import time
import zlib
from pathlib import Path
from typing import Callable, Iterable

import numpy as np

from ..defaults import CENSUS_MAX_N
from ..engine import kernels
from ..engine.grundy import GrundySequence
from ..engine.periodicity import APPARENT, PROVEN
from ..engine.sequence import nim_sequence
from ..engine.threads import check_threads, using_threads
from ..errors import DamagedRowError
from ..outcomes import OPEN
from ..reading import inflate
from ..rules.code import parse_code
from ..validate import is_whole, whole_number
from .classes import game_of, group_games
from .jobs import CensusProgress, TaskPool, census_plan, worker_threads
from .store import (
    DEFAULT_DB,
    RESUME_MAX,
    CensusDB,
    check_many,
    kept_head,
    row_is_own,
    row_signature,
    sound_sequence,
    stored_sequence,
)

DEFAULT_MAX_N = CENSUS_MAX_N
FIRST_BUDGET = 1 << 10
STAGES = (1 << 12, 1 << 16, 1 << 20)  # escalation by work: every code to the first, only the codes still open further


def stages(max_n: int) -> list[int]:
    """The heap budgets a census runs in turn: each of STAGES below `max_n`, then `max_n` itself."""
    return [b for b in STAGES if b < max_n] + [max_n]


def compute_code(code_text: str, max_n: int, resume: bytes | None = None, dtype: str | None = None) -> dict:
    """One census task (a plain function of plain data, so any worker can run it): the code grown, doubling from
    FIRST_BUDGET, until proven or `max_n` heaps (its stage's budget)."""
    kernels.load_compiled()  # a worker runs many codes: short runs compiled too (the compiler's start paid once)
    code = parse_code(code_text)
    t0 = time.perf_counter()
    values = np.frombuffer(inflate(resume, max_n * np.dtype(dtype).itemsize), dtype=dtype).copy() if resume else None
    seq = GrundySequence(code, values)
    result = nim_sequence(code, min(FIRST_BUDGET, max_n), until_proven=True, max_n=max_n, resume=seq)
    if result.periodicity.status != PROVEN and result.n < max_n:  # stopped at a period no theorem proves (a saltus
        result = nim_sequence(code, max_n, resume=seq)  # not a power of two): an open row runs to its stage's budget
    p = result.periodicity
    proven = p.status == PROVEN
    arithmetic = p.saltus > 0 and p.status == APPARENT  # an open row keeps its apparent arithmetic period
    vals = np.ascontiguousarray(result.values)
    return {
        "code": code_text,
        "status": PROVEN if proven else OPEN,
        "preperiod": p.preperiod if proven or arithmetic else None,
        "period": p.period if proven or arithmetic else None,
        "saltus": p.saltus if proven or arithmetic else None,
        "theorem": p.theorem if proven else None,
        "proof_bound": p.proof_bound if proven else None,
        "max_value": result.max,
        "n": result.n,
        "kernel": seq.last_kernel,
        "seconds": time.perf_counter() - t0,
        # a proven game is fixed by its values through n0 + p; keep those (at least 4·WINDOW)
        "head": zlib.compress(vals[: kept_head(p.preperiod, p.period, proven, arithmetic)].tobytes()),
        # an open one keeps every value while that is cheap (to resume from, and to verify); past RESUME_MAX only its
        # head, and a later stage computes it again from heap 0 (between the 16-fold STAGES, at most 1/16 more work)
        "vals": None if proven or result.n > RESUME_MAX else zlib.compress(vals.tobytes()),
        "dtype": str(vals.dtype),
        "budget": max_n,
    }


def run_census(
    digits: int,
    prefix: str = "0",
    max_n: int = DEFAULT_MAX_N,
    workers: int | None = None,
    dask: str | None = None,
    db: str | Path = DEFAULT_DB,
    progress: Callable[[CensusProgress], None] | None = None,
    codes: Iterable[str] | None = None,
    shard: str | None = None,
    threads: int = 1,
    notes: Callable[[str], None] | None = None,
    hexadecimal: bool = False,
) -> list[dict]:
    """Compute every code not yet proven, in stages of growing budget (`stages`: all codes to 2¹², the codes still
    open to 2¹⁶, …, to `max_n`; open rows resume from their stored values), then classify; returns the rows. Each
    worker runs its codes with `threads` kernel threads (1: the workers share the cores already); `hexadecimal`: the
    codes with a digit 8–F instead of the octal ones."""
    max_n = whole_number(max_n, "--max-n", 64)
    threads = check_threads(threads)
    todo_codes, workers = census_plan(digits, prefix, codes, workers, dask, shard, hexadecimal)
    threads = worker_threads(threads, workers, dask)
    wanted = set(todo_codes)
    store = CensusDB(db)
    try:
        # this process verifies and groups rows on one thread: the workers have the cores
        with using_threads(1), TaskPool(workers, dask) as pool:
            for why in vouch(store, wanted):
                if notes is not None:
                    notes(why)
            computed = sum(_run_stage(store, todo_codes, budget, pool, progress, threads) for budget in stages(max_n))
            if computed or any(r["class"] is None for r in store.states().values()):
                classify(store)  # a re-run that computed nothing, over grouped rows, has nothing to group again
        return [r for r in store.rows() if r["code"] in wanted]
    finally:
        store.close()


def vouch(store: CensusDB, codes: set[str]) -> list[str]:
    """Before a census trusts the rows it holds: a row without this user's signature is checked in full (every value
    recomputed) and then signed, or, damaged, deleted so that this run computes it again; what it did, in words."""
    damaged, sound = [], []
    for row in (r for r in store.rows() if r["code"] in codes and not row_is_own(r)):
        try:
            stored_sequence(row)
            sound.append((row_signature(row), row["code"]))
        except DamagedRowError as exc:
            damaged.append((row["code"], f"census row {exc.code!r} is damaged: {exc.why}; computing it again"))
    store.write("UPDATE codes SET sig = ? WHERE code = ?", sound)
    store.write("DELETE FROM codes WHERE code = ?", [(c,) for c, _ in damaged])
    return [why for _, why in damaged]


def _run_stage(store: CensusDB, codes: list[str], budget: int, pool: TaskPool,
               progress: Callable[[CensusProgress], None] | None, threads: int) -> int:
    """One stage: every code of `codes` neither proven nor computed to `budget` heaps, computed to it on `pool`;
    returns how many were."""
    states = store.states()
    check_many([c for c in codes if states.get(c, {}).get("status") == OPEN])  # the rows resumed are verified first
    todo = []
    for c in codes:
        r = states.get(c)
        if r and (r["status"] == PROVEN or (is_whole(r["n"]) and r["n"] >= budget)):
            continue
        todo.append((c, *_resumable(store.row(c) if r else None)))
    done = len(codes) - len(todo)
    pending = {c for c, _, _ in todo}
    counts = {PROVEN: 0, OPEN: 0}
    for c in codes:  # codes already done count from the start
        if c in states and c not in pending:
            counts[states[c]["status"]] += 1
    slowest = ("", 0.0)

    def stored(res: dict) -> None:
        nonlocal done, slowest
        store.store(res)
        done += 1
        counts[res["status"]] += 1
        if res["seconds"] > slowest[1]:
            slowest = (res["code"], res["seconds"])
        if progress is not None:
            progress(CensusProgress(done, len(codes), counts[PROVEN], counts[OPEN],
                                    f"{slowest[0]} ({slowest[1]:.1f} s)", budget))

    pool.run(compute_code, [(c, budget, v, dt) for c, v, dt in todo], stored, threads)
    return len(todo)


def _resumable(row: dict | None) -> tuple[bytes | None, str | None]:
    """(values, dtype) an open row may resume from once verified (`stored_sequence`); (None, None): start afresh."""
    seq = sound_sequence(row) if row is not None and row["status"] == OPEN else None
    if seq is None or len(seq.values) < row["n"]:  # none, damaged, or only its head kept (past RESUME_MAX)
        return None, None
    return row["vals"], row["dtype"]


def classify(store: CensusDB) -> None:
    """Mark identical games (same values over the compared range; for proven codes, forever) and cousins."""
    games = []
    rows = store.rows()
    check_many(rows)
    for r in rows:
        if sound_sequence(r) is None:
            continue  # a damaged row is never grouped; every reader refuses it by name
        game = game_of(r)
        if game is not None:
            games.append(game)
    cls_of, cousin = group_games(games)
    store.write("UPDATE codes SET class = ?, cousin = ? WHERE code = ?",
                [(c, cousin.get(code), code) for code, c in cls_of.items()])

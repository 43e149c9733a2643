"""Census of every octal code with up to D digits: computed until proven, classified, kept in SQLite.

Each code grows geometrically until the Guy–Smith bound proves its period or --max-n is reached;
results go into one SQLite row per code, committed one code at a time, so an interrupted census loses
only the codes in flight and a re-run skips what is proven and extends what is open from its stored
values. Codes are independent, so they run on a local process pool or on a Dask cluster; the results
are the same whichever runs them.
"""

from __future__ import annotations

import ctypes
import itertools
import json
import os
import re
import signal
import sqlite3
import threading
import time
import zlib
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

import numpy as np

from .engine.periodicity import NONE, PROVEN, Periodicity, proof_bound
from .engine.sequence import GrundySequence, NimSequence, first_wrong_value, nim_sequence
from .errors import DataFileError, InvalidArgumentError, OctalError
from .outcomes import OPEN
from .rules.code import parse_code

DEFAULT_DB = "octal-census.sqlite"
LOCK_WAIT = 10.0  # seconds to wait for a census file another process is writing before saying so
DTYPES = ("uint8", "uint16", "uint32")  # the value dtypes a census row may name
DEFAULT_MAX_N = 1 << 16
FIRST_BUDGET = 1 << 10
PR_SET_PDEATHSIG = 1  # prctl option: the signal a process gets when its parent dies
SHIFTS = (1, 2)  # first cousins: G_A(n) = G_B(n − s)
WINDOW = 512  # values compared to find identical games and cousins

SCHEMA = """
CREATE TABLE IF NOT EXISTS codes (
    code TEXT PRIMARY KEY,
    status TEXT NOT NULL,          -- proven / open
    preperiod INTEGER,
    period INTEGER,
    proof_bound INTEGER,           -- Guy–Smith certificate: agreement checked on heaps 0..proof_bound-1
    max_value INTEGER,
    n INTEGER NOT NULL,            -- heaps computed
    kernel TEXT,
    seconds REAL,                  -- total compute time over all runs
    class TEXT,                    -- representative of the games identical to this one
    cousin TEXT,                   -- 'CODE+s': this game's values are CODE's shifted by s heaps
    vals BLOB,                     -- zlib-compressed values: all of them for open codes (to resume),
                                   -- heaps 0..n0+p-1 (at least 2048) for proven ones
    dtype TEXT,
    updated TEXT
);
"""


def enumerate_codes(digits: int, prefix: str = "0") -> list[str]:
    """Every code d0.d1…dD (octal digits, D = `digits`), d0 in {0} / {4} / both, except 0.000…"""
    if not 1 <= digits <= 6:
        raise InvalidArgumentError(f"--digits must be between 1 and 6, not {digits}")
    heads = {"0": ["0"], "4": ["4"], "both": ["0", "4"]}.get(prefix)
    if heads is None:
        raise InvalidArgumentError(f"--prefix must be 0, 4 or both, not {prefix!r}")
    out = []
    for head in heads:
        for ds in itertools.product("01234567", repeat=digits):
            body = "".join(ds)
            if head == "0" and set(body) == {"0"}:
                continue
            out.append(f"{head}.{body}")
    return out


def compute_code(code_text: str, max_n: int, resume: bytes | None = None, dtype: str | None = None) -> dict:
    """One census task (a plain function of plain data, so any worker can run it)."""
    code = parse_code(code_text)
    t0 = time.perf_counter()
    values = np.frombuffer(zlib.decompress(resume), dtype=dtype).copy() if resume else None
    seq = GrundySequence(code, values)
    result = nim_sequence(code, min(FIRST_BUDGET, max_n), until_proven=True, max_n=max_n, resume=seq)
    p = result.periodicity
    proven = p.status == PROVEN
    vals = np.ascontiguousarray(result.values)
    return {
        "code": code_text,
        "status": PROVEN if proven else OPEN,
        "preperiod": p.preperiod if proven else None,
        "period": p.period if proven else None,
        "proof_bound": p.proof_bound if proven else None,
        "max_value": result.max,
        "n": result.n,
        "kernel": seq.last_kernel,
        "seconds": time.perf_counter() - t0,
        # a proven game is fixed by its values through n0 + p; keep those (at least 4·WINDOW)
        "head": zlib.compress(vals[: max(4 * WINDOW, (p.preperiod or 0) + (p.period or 0))].tobytes()),
        "vals": None if proven else zlib.compress(vals.tobytes()),
        "dtype": str(vals.dtype),
    }


def exit_with_parent() -> None:
    """Pool worker start-up: ask Linux to end this process when its parent dies (kill -9 of the census leaves
    no orphans); a watchdog thread does the same where prctl is missing."""
    parent = os.getppid()
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL) == 0 and os.getppid() == parent:
            return
    except (OSError, AttributeError):
        pass

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


class CodeTable:
    """One table of the census file, one row per code (TABLE and SCHEMA name it), rows sorted by code."""

    TABLE = ""
    SCHEMA = ""

    COLUMNS: tuple[str, ...] = ()

    def __init__(self, path: str | Path = DEFAULT_DB):
        self.path = Path(path)
        try:
            self.conn = sqlite3.connect(self.path, timeout=LOCK_WAIT)
            self.conn.executescript(self.SCHEMA)
            cur = self.conn.execute(f"SELECT * FROM {self.TABLE} LIMIT 0")
        except sqlite3.Error as exc:
            raise DataFileError(f"cannot open census database {self.path}: {exc}") from None
        names = tuple(d[0] for d in cur.description)
        if self.COLUMNS and names != self.COLUMNS:
            self.conn.close()
            raise DataFileError(f"{self.path}: the {self.TABLE} table has the columns {', '.join(names)}, not those "
                                f"octal writes ({', '.join(self.COLUMNS)})")

    def _query(self, sql: str, args: tuple = ()) -> sqlite3.Cursor:
        try:
            return self.conn.execute(sql, args)
        except sqlite3.Error as exc:
            raise DataFileError(f"cannot read census database {self.path}: {exc}") from None

    def row(self, code: str) -> dict | None:
        cur = self._query(f"SELECT * FROM {self.TABLE} WHERE code = ?", (code,))
        r = cur.fetchone()
        return dict(zip([d[0] for d in cur.description], r)) if r else None

    def rows(self) -> list[dict]:
        cur = self._query(f"SELECT * FROM {self.TABLE}")
        names = [d[0] for d in cur.description]
        rows = [dict(zip(names, r)) for r in cur.fetchall()]
        for r in rows:
            if not isinstance(r["code"], str) or "." not in r["code"]:
                raise DataFileError(f"{self.path}: a row of {self.TABLE} has the code {str(r['code'])[:40]!r}, "
                                    "which is no code")
        return sorted(rows, key=lambda r: _code_key(r["code"]))

    def write(self, sql: str, rows: list[tuple]) -> None:
        """One statement for each of `rows`, in one transaction; a file another writer holds past LOCK_WAIT is one
        clear error (the rows committed before it stay, and a re-run computes only the rest)."""
        try:
            with self.conn:
                self.conn.executemany(sql, rows)
        except sqlite3.OperationalError as exc:
            raise DataFileError(f"cannot write to census database {self.path}: {exc} (waited {LOCK_WAIT:g} s; the "
                                "rows committed so far are kept, and a re-run computes only the rest)") from None

    def close(self) -> None:
        self.conn.close()

    @classmethod
    def read(cls, path: str | Path, first: str) -> list[dict]:
        """The rows of an existing census file (DataFileError naming `first`, the command that makes it, if none)."""
        path = Path(path)
        if not path.is_file():
            raise DataFileError(f"no census database at {path}: run '{first}' first")
        store = cls(path)
        try:
            return store.rows()
        finally:
            store.close()


class CensusDB(CodeTable):
    """The normal-play census: one row per code, written in one transaction per code."""

    TABLE = "codes"
    SCHEMA = SCHEMA
    COLUMNS = ("code", "status", "preperiod", "period", "proof_bound", "max_value", "n", "kernel", "seconds", "class",
               "cousin", "vals", "dtype", "updated")

    def store(self, res: dict) -> None:
        old = self.row(res["code"])
        seconds = res["seconds"] + (old["seconds"] if old and isinstance(old["seconds"], (int, float)) else 0.0)
        self.write(
            "INSERT OR REPLACE INTO codes (code, status, preperiod, period, proof_bound, max_value, n, kernel, "
            "seconds, class, cousin, vals, dtype, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?, ?, ?)",
            [(res["code"], res["status"], res["preperiod"], res["period"], res["proof_bound"], res["max_value"],
              res["n"], res["kernel"], seconds, res["vals"] if res["vals"] is not None else res["head"], res["dtype"],
              time.strftime("%Y-%m-%dT%H:%M:%S"))])


def _code_key(code: str):
    head, body = code.split(".")
    return (head, body)


@dataclass
class CensusProgress:
    """What the progress display shows."""

    done: int
    total: int
    proven: int
    open: int
    slowest: str


SCHEDULER = re.compile(r"^((tcp|tls)://)?([A-Za-z0-9_.\-]+|\[[0-9A-Fa-f:]+\]):\d{1,5}$")


def check_scheduler(dask: str | None) -> None:
    """--dask takes 'local' or a scheduler address tcp://host:port (refused before any work starts)."""
    if dask is not None and dask != "local" and not SCHEDULER.match(dask):
        raise InvalidArgumentError(f"--dask takes 'local' or a scheduler address like tcp://host:8786, not {dask!r}")


def _executor(workers: int, dask: str | None):
    """A concurrent.futures-style executor: a process pool, or a Dask client (LocalCluster or remote)."""
    if dask is None:
        return ProcessPoolExecutor(max_workers=workers, initializer=exit_with_parent), None
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise OctalError("--dask needs Dask: in the octal folder, pip install '.[dask]'") from None
    if dask == "local":
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
        return client.get_executor(), (client, cluster)
    try:
        client = Client(dask, timeout=10)
    except (OSError, ValueError, TypeError) as exc:  # unreachable, timed out, or a malformed address
        raise OctalError(f"cannot reach the Dask scheduler at {dask}: {exc}") from None
    return client.get_executor(), (client, None)


def run_tasks(fn: Callable, tasks: list[tuple], workers: int, dask: str | None, on_result: Callable[[dict], None]) -> None:
    """Run fn(*task) for every task on the pool or Dask, handing each result to `on_result` as it completes (in the
    calling process, so the results can be committed one by one); the executor is closed however this ends."""
    if not tasks:
        return
    executor, owned = _executor(workers, dask)
    try:
        for fut in as_completed([executor.submit(fn, *task) for task in tasks]):
            on_result(fut.result())
    finally:
        if owned is None:
            executor.shutdown(cancel_futures=True)
        else:
            client, cluster = owned
            client.close()
            if cluster is not None:
                cluster.close()


def check_workers(workers: int | None) -> int:
    """--workers: a whole number of processes, at least 1 (default: the CPU count)."""
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise InvalidArgumentError(f"--workers must be a whole number of processes, at least 1, not {workers}")
    return workers or os.cpu_count() or 1


def run_census(
    digits: int,
    prefix: str = "0",
    max_n: int = DEFAULT_MAX_N,
    workers: int | None = None,
    dask: str | None = None,
    db: str | Path = DEFAULT_DB,
    progress: Callable[[CensusProgress], None] | None = None,
    codes: Iterable[str] | None = None,
) -> list[dict]:
    """Compute every code not yet proven (resuming open ones to `max_n`), then classify; returns the rows."""
    if max_n < 64:
        raise InvalidArgumentError(f"--max-n must be at least 64, not {max_n}")
    workers = check_workers(workers)
    check_scheduler(dask)
    todo_codes = list(codes) if codes is not None else enumerate_codes(digits, prefix)
    store = CensusDB(db)
    try:
        todo = []
        for c in todo_codes:
            r = store.row(c)
            if r and (r["status"] == PROVEN or (_whole(r["n"]) and r["n"] >= max_n)):
                continue
            todo.append((c, *_resumable(r)))
        done = len(todo_codes) - len(todo)
        wanted = set(todo_codes)
        pending = {c for c, _, _ in todo}
        counts = {PROVEN: 0, OPEN: 0}
        for r in store.rows():  # codes already done count from the start
            if r["code"] in wanted and r["code"] not in pending:
                counts[r["status"]] += 1
        slowest = ("", 0.0)

        def stored(res: dict) -> None:
            nonlocal done, slowest
            store.store(res)
            done += 1
            counts[res["status"]] += 1
            if res["seconds"] > slowest[1]:
                slowest = (res["code"], res["seconds"])
            if progress is not None:
                progress(CensusProgress(done, len(todo_codes), counts[PROVEN], counts[OPEN],
                                        f"{slowest[0]} ({slowest[1]:.1f} s)"))

        run_tasks(compute_code, [(c, max_n, v, dt) for c, v, dt in todo], workers, dask, stored)
        classify(store)
        return [r for r in store.rows() if r["code"] in wanted]
    finally:
        store.close()


def _values(row: dict) -> np.ndarray:
    return np.frombuffer(zlib.decompress(row["vals"]), dtype=row["dtype"])


def _through_period(v: np.ndarray, n0: int, p: int, length: int) -> np.ndarray | None:
    """G(0..length−1) from the stored values `v`, continued through the period p from n0 (None when they fall short)."""
    if len(v) >= length:
        return v[:length]
    idx = np.arange(length)
    base = np.where(idx < n0, idx, n0 + (idx - n0) % p)
    return v[base] if base.max() < len(v) else None


def _extended(row: dict, length: int) -> np.ndarray | None:
    """The first `length` values of a verified row: stored ones, continued through the proven period."""
    v = _values(row).astype(np.int64)
    if len(v) >= length or row["status"] != PROVEN:
        return v[:length] if len(v) >= length else None
    return _through_period(v, row["preperiod"], row["period"], length)


def _resumable(row: dict | None) -> tuple[bytes | None, str | None]:
    """(values, dtype) an open row may resume from once verified (`stored_sequence`); (None, None): start afresh."""
    if row is None or row["status"] != OPEN:
        return None, None
    try:
        stored_sequence(row)
    except DataFileError:
        return None, None
    return row["vals"], row["dtype"]


def _whole(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and x >= 0


def stored_sequence(row: dict, name: str | None = None) -> NimSequence:
    """A census row as a NimSequence, verified against the rules before anyone reports or publishes it.

    The code parses and the fields have their types; the values decompress to the stored count, their largest is
    the stored one, and they satisfy the mex recurrence (`first_wrong_value`: a checksum or a consistent edit is no
    proof); a proven row is re-proven: its Guy–Smith bound recomputed from the code must be the stored one and lie
    within the heaps computed, and its values continued through the period to that bound must pass the same check.
    Anything else is a DataFileError naming the row.
    """
    where = f"census row {str(row.get('code'))[:40]!r}"
    try:
        code = parse_code(row["code"])
    except OctalError as exc:
        raise DataFileError(f"{where} is damaged: {exc}") from None
    status, n, dtype = row["status"], row["n"], row["dtype"]
    why = None
    if status not in (PROVEN, OPEN):
        why = f"its status {str(status)[:20]!r} is neither {PROVEN} nor {OPEN}"
    elif dtype not in DTYPES:
        why = f"its values' type {str(dtype)[:20]!r} is not one of {', '.join(DTYPES)}"
    elif not _whole(n) or n < 1:
        why = f"its heap count {str(n)[:20]!r} is not a positive whole number"
    if why is None:
        try:
            values = _values(row)
        except (zlib.error, TypeError, ValueError) as exc:
            why = f"its values cannot be read ({exc})"
    if why is None:
        if (len(values) != n) if status == OPEN else not 0 < len(values) <= n:
            why = f"it holds {len(values):,} values for {n:,} heaps"
        elif row["max_value"] != int(values.max()) or not _whole(row["max_value"]):
            why = f"its largest value {repr(row['max_value'])[:20]} is not that of its values"
        elif (wrong := first_wrong_value(code, values)) is not None:
            why = f"G({wrong:,}) = {int(values[wrong])} is not the mex of its options under the rules of {code}"
    if why is None and status == PROVEN:
        n0, p = row["preperiod"], row["period"]
        bound = proof_bound(code.proof_criteria, p, n0) if _whole(n0) and _whole(p) and p > 0 else None
        ext = None if bound is None else _through_period(values, n0, p, bound)
        if bound is None or row["proof_bound"] != bound or bound > n or ext is None:
            why = "its period is not proven by the Guy–Smith bound within the heaps it computed"
        elif not np.array_equal(values[n0 + p:], values[n0:len(values) - p]):
            why = "its values do not follow its period"
        elif (wrong := first_wrong_value(code, ext)) is not None:
            why = f"its period gives G({wrong:,}) = {int(ext[wrong])}, which the rules of {code} do not"
    if why is not None:
        raise DataFileError(f"{where} is damaged: {why}")
    verdict = Periodicity(PROVEN, p, n0, 0, bound) if status == PROVEN else Periodicity(NONE)
    return NimSequence(code, name, values, verdict)


def verified_rows(db: str | Path = DEFAULT_DB) -> list[tuple[dict, NimSequence]]:
    """Every row of a census file with its sequence, each checked by `stored_sequence` before anyone reports or
    publishes it: the one reader of finished rows (report, site, notebooks); a damaged row is refused in one line."""
    return [(row, stored_sequence(row)) for row in CensusDB.read(db, "octal census --digits D")]


def group_games(games: list[tuple[str, tuple, np.ndarray]]) -> tuple[dict[str, str], dict[str, str]]:
    """(class, cousin) of each code from (code, identity key, leading values): games with one key are one game,
    named by the first of them; a cousin 'CODE+s' is a game whose values are this one's shifted by s heaps (first
    cousins, s in SHIFTS, compared over the values given)."""
    classes: dict[tuple, str] = {}
    cls_of = {code: classes.setdefault(key, code) for code, key, _ in games}
    seqs = {code: s for code, _, s in games}
    by_head: dict[bytes, list[str]] = {}
    for code, s in seqs.items():
        if len(s) >= WINDOW + max(SHIFTS):
            by_head.setdefault(s[:WINDOW].tobytes(), []).append(code)
    cousin: dict[str, str] = {}
    for code, s in seqs.items():
        for shift in SHIFTS:
            if len(s) < WINDOW + shift:
                continue
            for other in by_head.get(s[shift : shift + WINDOW].tobytes(), []):
                if other != code and cls_of[other] != cls_of[code]:
                    t = seqs[other]
                    m = min(len(s) - shift, len(t))
                    if np.array_equal(s[shift : shift + m], t[:m]):
                        cousin.setdefault(code, f"{cls_of[other]}+{shift}")
    return cls_of, cousin


def identity_key(status: str, preperiod: int | None, period: int | None, head: np.ndarray, n: int) -> tuple:
    """What makes two games one: a proven period with the values through it (they fix the game forever), or, for
    an open one, the heaps computed and the values compared."""
    return (PROVEN, preperiod, period, head.tobytes()) if status == PROVEN else (OPEN, n, head.tobytes())


def classify(store: CensusDB) -> None:
    """Mark identical games (same values over the compared range; for proven codes, forever) and cousins."""
    games = []
    for r in store.rows():
        try:
            stored_sequence(r)
        except DataFileError:
            continue  # a damaged row is never grouped; every reader refuses it by name
        length = 4 * WINDOW if r["status"] != OPEN else min(4 * WINDOW, r["n"])
        e = _extended(r, length)
        if e is None:
            continue
        head = _extended(r, r["preperiod"] + r["period"]) if r["status"] == PROVEN else e
        games.append((r["code"], identity_key(r["status"], r["preperiod"], r["period"], head, r["n"]), e))
    cls_of, cousin = group_games(games)
    store.write("UPDATE codes SET class = ?, cousin = ? WHERE code = ?",
                [(c, cousin.get(code), code) for code, c in cls_of.items()])


@dataclass
class Census:
    """A census file's rows (without the stored values), as a notebook shows them: counts, then the table."""

    db: Path
    rows: list[dict]

    @property
    def counts(self) -> dict[str, int]:
        return {PROVEN: sum(r["status"] == PROVEN for r in self.rows), OPEN: sum(r["status"] == OPEN for r in self.rows),
                "distinct": len({r["class"] for r in self.rows})}

    def __repr__(self) -> str:
        c = self.counts
        return (f"Census({self.db}: {len(self.rows):,} codes, {c[PROVEN]:,} proven, {c[OPEN]:,} open, "
                f"{c['distinct']:,} distinct games)")


def open_census(db: str | Path = DEFAULT_DB) -> Census:
    """The rows of a census file (DataFileError when there is none)."""
    return Census(Path(db), [{k: v for k, v in r.items() if k != "vals"} for r, _ in verified_rows(db)])


def text_table(head: list[str], body: list[list[str]], fmt: str) -> list[str]:
    """The lines of a table of strings: markdown, or columns aligned for a terminal (fmt 'table')."""
    if fmt == "markdown":
        return ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)] + ["| " + " | ".join(b) + " |" for b in body]
    widths = [max(len(h), *(len(b[i]) for b in body)) if body else len(h) for i, h in enumerate(head)]
    return (["  ".join(h.ljust(w) for h, w in zip(head, widths))]
            + ["  ".join(c.ljust(w) for c, w in zip(b, widths)).rstrip() for b in body])


def report(db: str | Path = DEFAULT_DB, fmt: str = "table") -> str:
    """The census as a table (the literature's layout), csv, markdown or json, with the counts (rows verified)."""
    rows = [r for r, _ in verified_rows(db)]
    cols = ["code", "status", "preperiod", "period", "proof_bound", "max_value", "n", "kernel", "seconds", "class",
            "cousin"]
    proven = sum(r["status"] == PROVEN for r in rows)
    if fmt == "json":
        return json.dumps({"proven": proven, "open": len(rows) - proven,
                           "codes": [{k: r[k] for k in cols} for r in rows]})
    if fmt == "csv":
        lines = [",".join(cols)] + [",".join("" if r[k] is None else str(r[k]) for k in cols) for r in rows]
        return "\n".join(lines)
    if fmt not in ("table", "markdown"):
        raise InvalidArgumentError(f"--format must be table, csv, markdown or json, not {fmt!r}")
    head = ["code", "status", "preperiod", "period", "max", "heaps computed", "same game as", "cousin of"]
    body = []
    for r in rows:
        body.append([
            r["code"], r["status"], "" if r["preperiod"] is None else f"{r['preperiod']:,}",
            "" if r["period"] is None else f"{r['period']:,}", f"{r['max_value']:,}", f"{r['n']:,}",
            r["class"] if r["class"] and r["class"] != r["code"] else "", r["cousin"] or "",
        ])
    out = text_table(head, body, fmt)
    opened = [r for r in rows if r["status"] == OPEN]
    out.append("")
    out.append(f"{len(rows):,} codes: {proven:,} proven, {len(opened):,} open")
    if opened:
        out.append("open: " + ", ".join(f"{r['code']} (to {r['n']:,})" for r in opened[:60]) + (" …" if len(opened) > 60 else ""))
    return "\n".join(out)

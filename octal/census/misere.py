"""Misère census: the misère quotient of every code in range, within a per-code budget, in the census's SQLite file.

Each code gets one of three statuses, never mixed up:
  FINITE  — the quotient of the whole game: Φ proven periodic (the Guy–Smith bound applied to Φ) within the budget;
  BOUNDED — the quotient of heaps ≤ H only: every heap up to the bound settled, no period proven yet;
  GROWING — the order or work budget stopped it (the order and the heap it reached are kept).
Budgets count work (heaps, quotient order, steps of verification: see quotient._Builder.charge), never
seconds, so a row depends only on its code and budget: the same on a busy machine as on an idle one.
The verified quotient document is stored with each finite or bounded row, so it can be loaded (and is checked
again when loaded) to solve positions without recomputation. Rows are committed one code at a time, so a killed
census resumes; codes run on the same process pool or Dask backends as the normal census.

Two codes are grouped as one misère game only when their quotients and Φ are equal: equal tables, P-portions and
Φ over the heaps both settled, and (both finite) the same period and preperiod. Equal nim sequences are not
enough: misère play tells apart games that normal play does not.
"""

from __future__ import annotations

import json
import re
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

import numpy as np

from ..defaults import CENSUS_MAX_HEAP, CENSUS_MAX_ORDER, CENSUS_MAX_WORK
from ..errors import DataFileError, InvalidArgumentError, OctalError
from ..io import check_writable
from ..misere.quotient import MisereQuotient, misere_quotient
from ..outcomes import BOUNDED, FINITE, GROWING
from ..reading import MAX_DOCUMENT, inflate
from ..rules.code import parse_code
from ..validate import whole_number
from .jobs import TaskPool, census_plan
from .misere_store import MisereDB
from .report import text_table
from .store import DEFAULT_DB

STATUSES = (FINITE, BOUNDED, GROWING)
DEFAULT_MAX_HEAP, DEFAULT_MAX_ORDER, DEFAULT_MAX_WORK = CENSUS_MAX_HEAP, CENSUS_MAX_ORDER, CENSUS_MAX_WORK



def budget_text(max_heap: int, max_order: int, max_work: int) -> str:
    """The budget a row was computed within, as stored: 'heaps H, order K, work W'."""
    return f"heaps {max_heap}, order {max_order}, work {max_work}"


def parse_budget(text) -> tuple[int, int, int] | None:
    """(heaps, order, work) of a stored budget, or None when it is not one this octal writes (an older row:
    computed again)."""
    match = re.fullmatch(r"heaps (\d{1,9}), order (\d{1,9}), work (\d{1,15})", text) if isinstance(text, str) else None
    return None if match is None else (int(match[1]), int(match[2]), int(match[3]))


def compute_misere(code_text: str, max_heap: int, max_order: int, max_work: int) -> dict:
    """One misère census task (a plain function of plain data, so any worker can run it)."""
    code = parse_code(code_text)
    q = misere_quotient(code, max_heap=max_heap, max_order=max_order, max_work=max_work)
    if q.status == GROWING:
        status = GROWING
    else:
        status = FINITE if q.proven else BOUNDED
    settled = status != GROWING
    return {
        "code": code_text,
        "status": status,
        "q_order": q.order,
        "p_portion": q.p_portion if settled else None,
        "tame": int(q.tame) if settled else None,
        "period": q.period,
        "preperiod": q.preperiod,
        "last_change": q.changes[-1] if q.changes else None,
        "max_heap": q.max_heap,
        "budget": budget_text(max_heap, max_order, max_work),
        "seconds": q.seconds,
        "reason": q.reason,
        "quotient": zlib.compress(json.dumps(q.to_document(), separators=(",", ":")).encode()) if settled else None,
    }


def settled_enough(row: dict, max_heap: int, max_order: int, max_work: int) -> bool:
    """A stored row answers this run when it is final (finite) or was computed within at least this budget (every
    part of it): a same or smaller budget recomputes nothing, and a budget can only answer the same or less."""
    if row["status"] not in STATUSES:
        return False  # not a row the census writes: computed again
    if row["status"] == FINITE:
        return True
    stored = parse_budget(row["budget"])
    return stored is not None and all(a >= b for a, b in zip(stored, (max_heap, max_order, max_work)))


@dataclass
class MisereProgress:
    """What the progress display shows."""

    done: int
    total: int
    counts: dict


def run_misere_census(digits: int, prefix: str = "0", max_heap: int = DEFAULT_MAX_HEAP,
                      max_order: int = DEFAULT_MAX_ORDER, max_work: int = DEFAULT_MAX_WORK, workers: int | None = None,
                      dask: str | None = None, db: str | Path = DEFAULT_DB,
                      progress: Callable[[MisereProgress], None] | None = None,
                      codes: Iterable[str] | None = None, shard: str | None = None) -> list[dict]:
    """The misère quotient of every code in range (skipping rows already settled within this budget); the rows."""
    max_heap = whole_number(max_heap, "--max-heap (heaps)", 1)
    max_order = whole_number(max_order, "--max-order", 1)
    max_work = whole_number(max_work, "--max-work (steps)", 1)
    wanted, workers = census_plan(digits, prefix, codes, workers, dask, shard)
    for c in wanted:
        parse_code(c)  # a bad code is refused before any work starts
    store = MisereDB(db)
    try:
        todo = [c for c in wanted if not ((r := store.row(c)) and settled_enough(r, max_heap, max_order, max_work))]
        counts = {s: 0 for s in STATUSES}
        for r in store.rows():
            if r["code"] in set(wanted) - set(todo):
                counts[r["status"]] += 1
        done = len(wanted) - len(todo)

        def stored(res: dict) -> None:
            nonlocal done
            store.store(res)
            done += 1
            counts[res["status"]] += 1
            if progress is not None:
                progress(MisereProgress(done, len(wanted), dict(counts)))

        with TaskPool(workers, dask) as pool:
            pool.run(compute_misere, [(c, max_heap, max_order, max_work) for c in todo], stored)
        classify_misere(store)
        keep = set(wanted)
        return [r for r in store.rows() if r["code"] in keep]
    finally:
        store.close()


def _quotient_of(row: dict, where: str) -> MisereQuotient:
    """The quotient stored in a settled row, verified against the rules (MisereQuotient.from_document) and against
    the row: the same code, order, P-portion, heaps and period, so a row can neither borrow another code's quotient
    nor claim more than its quotient proves."""
    try:
        doc = json.loads(inflate(row["quotient"], MAX_DOCUMENT))
    except (zlib.error, ValueError, TypeError, RecursionError) as exc:
        raise DataFileError(f"{where}: the quotient is damaged ({exc})") from None
    q = MisereQuotient.from_document(doc, where=where)
    code = parse_code(row["code"])
    claims = {"code": str(code), "q_order": row["q_order"], "p_portion": row["p_portion"], "max_heap": row["max_heap"],
              "period": row["period"], "preperiod": row["preperiod"], "proven": row["status"] == FINITE}
    holds = {"code": str(q.code), "q_order": q.order, "p_portion": q.p_portion, "max_heap": q.max_heap,
             "period": q.period, "preperiod": q.preperiod, "proven": q.proven}
    wrong = [k for k in claims if claims[k] != holds[k]]
    if wrong:
        raise DataFileError(f"{where}: the row says {', '.join(f'{k} {claims[k]!r}' for k in wrong)}, but its quotient "
                            f"has {', '.join(f'{holds[k]!r}' for k in wrong)}")
    return q


def check_row(row: dict) -> dict:
    """A misère census row checked before it is reported, published or used (DataFileError naming it otherwise):
    the code parses, the status is one of STATUSES, the counts are whole numbers, and a finite or bounded row's
    quotient is verified (`_quotient_of`); a growing row holds no quotient."""
    where = f"misère census row {str(row.get('code'))[:40]!r}"
    try:
        parse_code(row["code"])
    except OctalError as exc:
        raise DataFileError(f"{where} is damaged: {exc}") from None
    whole = all(isinstance(row[k], int) and not isinstance(row[k], bool) and row[k] >= 0
                for k in ("q_order", "max_heap"))
    if row["status"] not in STATUSES or not whole:
        raise DataFileError(f"{where} is damaged: status {str(row['status'])[:20]!r}, order "
                            f"{str(row['q_order'])[:20]!r} and heaps {str(row['max_heap'])[:20]!r} are not what the "
                            "census writes")
    if row["status"] == GROWING:
        if row["quotient"] is not None or row["p_portion"] is not None:
            raise DataFileError(f"{where} is damaged: a growing row holds no quotient")
    else:
        _quotient_of(row, where)
    return row


def verified_misere_rows(db: str | Path) -> list[dict]:
    """Every row of the misère table, each checked by `check_row`: the one reader for the report and the site."""
    return [check_row(r) for r in MisereDB.read(db, "octal census --misere")]


def load_quotient(db: str | Path, code: str, out: str | Path | None = None) -> MisereQuotient:
    """The stored quotient of `code` (finite or bounded), verified against the rules as any loaded quotient is;
    `out` names a .json file (checked before reading) that it is saved to, for `solve --quotient`."""
    if out is not None:
        check_writable(out, (".json",))
    path = Path(db)
    if not path.exists():
        raise DataFileError(f"no census database at {path}: run 'octal census --misere' first")
    store = MisereDB(path)
    try:
        row = store.row(code) or store.row(str(parse_code(code)))  # as the census wrote it ('0.20'), or canonical
    finally:
        store.close()
    if row is None or row["quotient"] is None:
        what = "no row" if row is None else f"status {row['status']}, no quotient stored"
        raise DataFileError(f"{path} has no misère quotient of {code} ({what})")
    q = _quotient_of(row, f"{path} ({code})")
    if out is not None:
        q.save(out)
    return q


def classify_misere(store: MisereDB) -> None:
    """Group codes whose quotients (table, P) and Φ are equal; growing rows are never grouped."""
    rows = []
    for r in store.rows():
        try:
            rows.append(check_row(r))
        except (DataFileError, OctalError):
            continue  # a damaged row is never grouped; every reader refuses it by name
    groups: dict[tuple, str] = {}
    cls_of: dict[str, str | None] = {}
    for r in rows:
        if r["quotient"] is None:
            cls_of[r["code"]] = None
            continue
        doc = json.loads(inflate(r["quotient"], MAX_DOCUMENT))
        phi = np.asarray(doc["phi"])
        if r["status"] == FINITE:  # Φ is fixed forever by its preperiod and one period
            phi = phi[: r["preperiod"] + r["period"]]
            key = (FINITE, r["period"], r["preperiod"])
        else:
            key = (BOUNDED, r["max_heap"])
        key += (json.dumps(doc["table"]), json.dumps(doc["p"]), phi.tobytes())
        cls_of[r["code"]] = groups.setdefault(key, r["code"])
    store.write("UPDATE misere SET class = ? WHERE code = ?", [(c, code) for code, c in cls_of.items()])


def misere_report(db: str | Path, fmt: str = "table") -> str:
    """The misère census as a table, csv, markdown or json, with the counts by status (rows verified)."""
    rows = verified_misere_rows(db)
    cols = ["code", "status", "q_order", "p_portion", "tame", "period", "preperiod", "last_change", "max_heap",
            "budget", "seconds", "class"]
    counts = {s: sum(r["status"] == s for r in rows) for s in STATUSES}
    if fmt == "json":
        return json.dumps({**counts, "codes": [{k: r[k] for k in cols} for r in rows]})
    if fmt == "csv":
        return "\n".join([",".join(cols)] + [",".join("" if r[k] is None else str(r[k]) for k in cols) for r in rows])
    if fmt not in ("table", "markdown"):
        raise InvalidArgumentError(f"--format must be table, csv, markdown or json, not {fmt!r}")
    head = ["code", "misère", "|Q|", "|P|", "tame", "period", "preperiod", "last change", "heaps", "same game as"]
    body = []
    for r in rows:
        tame = "" if r["tame"] is None else ("yes" if r["tame"] else "no")
        status = r["status"] if r["status"] != BOUNDED else f"bounded (heaps ≤ {r['max_heap']})"
        body.append([r["code"], status, f"{r['q_order']:,}" + ("+" if r["status"] == GROWING else ""),
                     "" if r["p_portion"] is None else f"{r['p_portion']:,}", tame,
                     "" if r["period"] is None else f"{r['period']:,}",
                     "" if r["preperiod"] is None else f"{r['preperiod']:,}",
                     "" if r["last_change"] is None else str(r["last_change"]), f"{r['max_heap']:,}",
                     r["class"] if r["class"] and r["class"] != r["code"] else ""])
    out = text_table(head, body, fmt)
    out += ["", f"{len(rows):,} codes: {counts[FINITE]:,} finite, {counts[BOUNDED]:,} bounded, "
                f"{counts[GROWING]:,} growing"]
    return "\n".join(out)

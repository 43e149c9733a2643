"""The census file: one SQLite table per kind of row, opened and written by one class with a lock wait, and the
rows read back — values decoded, types checked, a proven period proven again — before anything trusts them."""

from __future__ import annotations

import sqlite3
import time
import zlib
from pathlib import Path

import numpy as np

from ..defaults import CENSUS_DB
from ..engine import kernels
from ..engine.arithmetic import saltus_bound
from ..engine.grundy import GrundySequence, first_wrong_value
from ..engine.periodicity import (
    APPARENT,
    GUY_SMITH,
    NONE,
    PROVEN,
    SALTUS_THEOREM,
    Periodicity,
    proof_bound,
    through_period,
)
from ..engine.sequence import NimSequence
from ..errors import DamagedRowError, DataFileError, OctalError
from ..outcomes import OPEN
from ..reading import MAX_STORED, inflate
from ..rules.code import parse_code
from ..trust import sign, signed
from ..validate import is_whole

DEFAULT_DB = CENSUS_DB
LOCK_WAIT = 10.0  # seconds to wait for a census file another process is writing before saying so
DTYPES = ("uint8", "uint16", "uint32")  # the value dtypes a census row may name
KEPT_HEAD = 2048  # values every row keeps at least: what class detection compares (4·WINDOW)
RESUME_MAX = 1 << 16  # an open row keeps all its values up to this many heaps (≈ 64 KB each, compressed, for a
# 4-digit code), so the next stage resumes from them; past it, only its first KEPT_HEAD (2¹⁶ values of
# thousands of open codes stay a few hundred MB; 2²⁰ would be gigabytes)
# sig: this user's keyed signature over the row (octal.trust); a row without it is checked in full when read
NORMAL_SCHEMA = """
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
    updated TEXT,
    budget INTEGER,                -- the heaps budget of the stage that last computed it (or proved it)
    sig TEXT,
    saltus INTEGER,                -- G(n + p) = G(n) + saltus: 0 for a period; an open row's apparent arithmetic one
    theorem TEXT                   -- what proved a proven row (Guy–Smith theorem, power-of-two saltus theorem)
);
"""


class CodeTable:
    """One table of the census file, one row per code (TABLE and SCHEMA name it), rows sorted by code."""

    TABLE = ""
    SCHEMA = ""

    COLUMNS: tuple[str, ...] = ()
    ADDED: dict[str, str] = {}  # columns added since the first release, with their SQL types: an older file gains them

    def __init__(self, path: str | Path = DEFAULT_DB, readonly: bool = False):
        """Open (and, to write, create) the table; `readonly` opens an existing file as it is and never writes."""
        self.path = Path(path)
        try:
            if readonly:
                self.conn = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True, timeout=LOCK_WAIT)
            else:
                self.conn = sqlite3.connect(self.path, timeout=LOCK_WAIT)
                self.conn.executescript(self.SCHEMA)
            cur = self.conn.execute(f"SELECT * FROM {self.TABLE} LIMIT 0")
        except sqlite3.Error as exc:
            raise DataFileError(f"cannot open census database {self.path}: {exc}") from None
        names = tuple(d[0] for d in cur.description)
        missing = self.COLUMNS[len(names):]
        if names == self.COLUMNS[: len(names)] and missing and all(c in self.ADDED for c in missing):
            names = self._add_columns(missing, readonly)
        if self.COLUMNS and names != self.COLUMNS:
            self.conn.close()
            raise DataFileError(f"{self.path}: the {self.TABLE} table has the columns {', '.join(names)}, not those "
                                f"octal writes ({', '.join(self.COLUMNS)})")

    def _add_columns(self, missing: tuple[str, ...], readonly: bool) -> tuple[str, ...]:
        """An older file: the columns added since are added to it (empty), or, read only, read as empty."""
        self._blank = {} if not readonly else dict.fromkeys(missing)
        if readonly:
            return self.COLUMNS
        try:
            with self.conn:  # one writer at a time; another process may have added them while this one waited
                self.conn.execute("BEGIN IMMEDIATE")
                have = {r[1] for r in self.conn.execute(f"PRAGMA table_info({self.TABLE})")}
                for c in missing:
                    if c not in have:
                        self.conn.execute(f"ALTER TABLE {self.TABLE} ADD COLUMN {c} {self.ADDED[c]}")
        except sqlite3.Error as exc:
            self.conn.close()
            raise DataFileError(f"cannot add the columns {', '.join(missing)} to census database {self.path}: {exc} "
                                f"(waited {LOCK_WAIT:g} s)") from None
        return self.COLUMNS

    _blank: dict = {}

    def _query(self, sql: str, args: tuple = ()) -> sqlite3.Cursor:
        try:
            return self.conn.execute(sql, args)
        except sqlite3.Error as exc:
            raise DataFileError(f"cannot read census database {self.path}: {exc}") from None

    def row(self, code: str) -> dict | None:
        cur = self._query(f"SELECT * FROM {self.TABLE} WHERE code = ?", (code,))
        r = cur.fetchone()
        return {**self._blank, **dict(zip([d[0] for d in cur.description], r))} if r else None

    def rows(self) -> list[dict]:
        cur = self._query(f"SELECT * FROM {self.TABLE}")
        names = [d[0] for d in cur.description]
        rows = [{**self._blank, **dict(zip(names, r))} for r in cur.fetchall()]
        for r in rows:
            if not isinstance(r["code"], str) or "." not in r["code"]:
                raise DataFileError(f"{self.path}: a row of {self.TABLE} has the code {str(r['code'])[:40]!r}, "
                                    "which is no code")
        return sorted(rows, key=lambda r: code_key(r["code"]))

    def write(self, sql: str, rows: list[tuple], *more: tuple[str, tuple]) -> None:
        """One statement for each of `rows`, then each of `more` (sql, args), in one transaction; a file another
        writer holds past LOCK_WAIT is one clear error (the rows committed before it stay, and a re-run computes only
        the rest)."""
        try:
            with self.conn:
                self.conn.executemany(sql, rows)
                for statement, args in more:
                    self.conn.execute(statement, args)
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
        store = cls(path, readonly=True)  # a report reads: it never writes, not even a table into an empty file
        try:
            return store.rows()
        finally:
            store.close()


class CensusDB(CodeTable):
    """The normal-play census: one row per code, written in one transaction per code."""

    TABLE = "codes"
    SCHEMA = NORMAL_SCHEMA
    COLUMNS = ("code", "status", "preperiod", "period", "proof_bound", "max_value", "n", "kernel", "seconds", "class",
               "cousin", "vals", "dtype", "updated", "budget", "sig", "saltus", "theorem")
    ADDED = {"budget": "INTEGER", "sig": "TEXT", "saltus": "INTEGER", "theorem": "TEXT"}

    def states(self) -> dict[str, dict]:
        """code → {status, n, class} of every row, without the values: what a census decides its work from."""
        cur = self._query("SELECT code, status, n, class FROM codes")
        return {c: {"status": s, "n": n, "class": k} for c, s, n, k in cur.fetchall()}

    def upsert(self) -> str:
        """The statement that writes a row unless the file already holds a better one for its code (proven, or open
        to more heaps): two censuses or a merge writing one file never replace a proven row by an open one."""
        cols = [c for c in self.COLUMNS if c not in ("class", "cousin")]
        marks = ", ".join("?" * len(cols))
        return (f"INSERT INTO codes ({', '.join(cols)}, class, cousin) VALUES ({marks}, NULL, NULL) "
                f"ON CONFLICT(code) DO UPDATE SET {', '.join(f'{c} = excluded.{c}' for c in cols)}, class = NULL, "
                "cousin = NULL WHERE codes.status <> 'proven' AND (excluded.status = 'proven' OR "
                "typeof(codes.n) <> 'integer' OR excluded.n >= codes.n)")

    def store(self, res: dict) -> None:
        old = self._query("SELECT seconds FROM codes WHERE code = ?", (res["code"],)).fetchone()  # not its values
        seconds = res["seconds"] + (old[0] if old and isinstance(old[0], (int, float)) else 0.0)
        row = {**res, "vals": res["vals"] if res["vals"] is not None else res["head"]}
        self.write(
            self.upsert(),
            [(res["code"], res["status"], res["preperiod"], res["period"], res["proof_bound"], res["max_value"],
              res["n"], res["kernel"], seconds, row["vals"], res["dtype"],
              time.strftime("%Y-%m-%dT%H:%M:%S"), res.get("budget"), row_signature(row), res.get("saltus"),
              res.get("theorem"))],
            # claims naming the row replaced are withdrawn with it, in the same transaction: until the census groups
            # the games again (at its end), no row claims a game the file no longer holds
            ("UPDATE codes SET class = NULL WHERE class = ?", (res["code"],)),
            ("UPDATE codes SET cousin = NULL WHERE substr(cousin, 1, ?) = ?",
             (len(res["code"]) + 1, res["code"] + "+")))


SIGNED_FIELDS = ("code", "status", "preperiod", "period", "proof_bound", "max_value", "n", "dtype", "budget")


def _signed_parts(row: dict) -> tuple[bytes, bytes]:
    # saltus and theorem are signed where a row has a saltus (a plain row signs what it signed before they came)
    extra = ["saltus", "theorem"] if row.get("saltus") else []
    fields = repr([row.get(k) for k in (*SIGNED_FIELDS, *extra)]).encode()
    vals = row.get("vals")
    return fields, vals if isinstance(vals, bytes) else repr(vals).encode()


def row_signature(row: dict) -> str | None:
    """This user's signature over what a row claims and its stored values (`trust.sign`)."""
    return sign(*_signed_parts(row))


def row_is_own(row: dict) -> bool:
    """Whether the row carries this user's signature: octal wrote it and nobody changed it since."""
    return signed(row.get("sig"), *_signed_parts(row))


def strangers(db: str | Path) -> int:
    """How many rows of a census file carry no signature of this user's (each will be checked in full when read)."""
    if not Path(db).is_file():
        return 0
    try:
        return sum(not row_is_own(r) for r in CensusDB.read(db, ""))
    except DataFileError:
        return 0  # the reader that follows says what is wrong


def kept_head(preperiod: int | None, period: int | None, proven: bool, arithmetic: bool) -> int:
    """The values a row keeps at least (all of them while an open row is cheap, see RESUME_MAX): KEPT_HEAD, and a
    proven row through its period (n0 + p), an open one's apparent arithmetic period twice over (n0 + 2p), which its
    verification reads."""
    if proven:
        return max(KEPT_HEAD, (preperiod or 0) + (period or 0))
    return max(KEPT_HEAD, preperiod + 2 * period) if arithmetic else KEPT_HEAD


def code_key(code: str):
    head, body = code.split(".")
    return (head, body)


def row_values(row: dict) -> np.ndarray:
    """The values stored in a row: at most its heap count of them, whatever its blob would inflate to."""
    limit = min(int(row["n"]) * np.dtype(row["dtype"]).itemsize, MAX_STORED)
    return np.frombuffer(inflate(row["vals"], limit), dtype=row["dtype"])


def extended_values(row: dict, length: int) -> np.ndarray | None:
    """The first `length` values of a verified row: stored ones, continued through the proven period."""
    v = row_values(row)
    if len(v) >= length or row["status"] != PROVEN:
        return v[:length].astype(np.int64) if len(v) >= length else None
    return through_period(v.astype(np.int64), row["period"], row["preperiod"], length, row.get("saltus") or 0)



MANY_ROWS = 200  # reading more rows than this, the compiled recurrence check pays for loading it (≈ 0.5 s once)


def check_many(rows: list) -> None:
    """Load the compiled kernels before verifying many rows: the same check, ~50× cheaper a row than numpy."""
    if len(rows) > MANY_ROWS:
        kernels.load_compiled()


def sound_sequence(row: dict | None) -> NimSequence | None:
    """A row's sequence if it passes `stored_sequence`, None if there is no row or it is damaged: for writers, to
    whom a damaged row is as good as none (it is computed again, or replaced)."""
    if row is None:
        return None
    try:
        return stored_sequence(row)
    except DataFileError:
        return None


def stored_sequence(row: dict, name: str | None = None) -> NimSequence:
    """A census row as a NimSequence, verified against the rules before anyone reports or publishes it.

    The code parses and the fields have their types; the values decompress to the stored count and their largest is
    the stored one; a proven row's Guy–Smith bound recomputed from the code must be the stored one and lie within the
    heaps computed, its values must follow its period, and (n0, p) must be the least. Then the values themselves: a
    row carrying this user's signature (`row_is_own`: octal wrote it, nobody changed it) has a sample of its values
    recomputed (`first_wrong_value`, against accidents), through its period to the bound when proven; any other row
    is checked in full (`full_check`): every value it holds or claims recomputed from the rules, as costly as
    computing them. Anything else is a DataFileError naming the row.
    """
    try:
        code = parse_code(row["code"])
    except OctalError as exc:
        raise DamagedRowError(str(row.get("code")), str(exc)) from None
    status, n, dtype = row["status"], row["n"], row["dtype"]
    why = None
    if status not in (PROVEN, OPEN):
        why = f"its status {str(status)[:20]!r} is neither {PROVEN} nor {OPEN}"
    elif dtype not in DTYPES:
        why = f"its values' type {str(dtype)[:20]!r} is not one of {', '.join(DTYPES)}"
    elif not is_whole(n) or n < 1:
        why = f"its heap count {str(n)[:20]!r} is not a positive whole number"
    if why is None:
        try:
            values = row_values(row)
        except (zlib.error, TypeError, ValueError) as exc:
            why = f"its values cannot be read ({exc})"
    own = why is None and row_is_own(row)
    bound = None
    if why is None:
        # an open row holds every value, or past RESUME_MAX heaps its first KEPT_HEAD (its heap count then that of
        # the stage that wrote it: an open result always ends at its budget); a proven one those through its period
        whole = len(values) == n
        claimed = status == OPEN and bool(row.get("saltus")) and is_whole(row["preperiod"]) and is_whole(row["period"])
        head = kept_head(row["preperiod"], row["period"], False, True) if claimed else KEPT_HEAD
        head_only = status == OPEN and n > RESUME_MAX and len(values) == head and row.get("budget") == n
        if not (whole or head_only or (status == PROVEN and 0 < len(values) <= n)):
            why = f"it holds {len(values):,} values for {n:,} heaps"
        elif not is_whole(row["max_value"]) or (row["max_value"] != int(values.max()) if whole or (
                status == PROVEN and not row.get("saltus")) else row["max_value"] < int(values.max())):
            why = f"its largest value {repr(row['max_value'])[:20]} is not that of its values"
        elif row.get("budget") is not None and not (is_whole(row["budget"]) and row["budget"] >= n):
            why = f"its budget {repr(row['budget'])[:20]} is below the {n:,} heaps it computed"
    saltus = 0
    if why is None:
        why, bound, saltus = _period_claim(code, row, values)
    if why is None:
        why = _sample_check(code, row, values, bound) if own else full_check(code, row, values, bound)
    if why is not None:
        raise DamagedRowError(str(row["code"]), why)
    n0, p = row["preperiod"], row["period"]
    if status == PROVEN:
        verdict = Periodicity(PROVEN, p, n0, saltus, bound)
    else:
        verdict = Periodicity(APPARENT, p, n0, saltus, None, "an open census row") if saltus else Periodicity(NONE)
    return NimSequence(code, name, values, verdict)


def _period_claim(code, row: dict, values: np.ndarray) -> tuple[str | None, int | None, int]:
    """(why the row's period claim fails or None, its proof bound, its saltus). A proven row: its bound recomputed
    from the code by its theorem (Guy–Smith for saltus 0, the power-of-two saltus theorem otherwise) is the stored
    one and lies within the heaps computed, its values follow the period, and (n0, p) is the least; an open row
    may claim only an apparent arithmetic period, which its stored values must follow from its least n0."""
    status, n, saltus, theorem = row["status"], row["n"], row.get("saltus"), row.get("theorem")
    n0, p = row["preperiod"], row["period"]
    if status == OPEN and saltus is None:
        ok = n0 is None and p is None and theorem is None and row["proof_bound"] is None
        return (None if ok else "an open row claims a period"), None, 0
    if saltus is None and status == PROVEN:
        saltus = 0  # a row written before the column came: a plain period
    if not (is_whole(saltus) and is_whole(n0) and is_whole(p) and p > 0 and saltus >= 0):
        return "its period, preperiod or saltus is not a whole number", None, 0
    if status == OPEN and (saltus == 0 or theorem is not None or row["proof_bound"] is not None):
        return "an open row claims a period", None, 0
    if status == OPEN and n0 + 2 * p > len(values):
        return "its stored values do not hold its apparent period twice over", None, 0
    follows = values[n0 + p:].astype(np.int64) - values[n0:len(values) - p].astype(np.int64)
    if not np.all(follows == saltus):
        return "its values do not follow its period", None, 0
    if n0 > 0 and n0 - 1 + p < len(values) and int(values[n0 - 1 + p]) - int(values[n0 - 1]) == saltus:
        return f"its preperiod {n0} is not where the period starts (heap {n0 - 1:,} already follows it)", None, 0
    for d in (d for d in range(1, p) if p % d == 0 and saltus * d % p == 0):
        if np.all(values[n0 + d:].astype(np.int64) - values[n0:len(values) - d] == saltus * d // p):
            return (f"its period {p} is not the least one (over a stretch this long, the least period divides every "
                    "one)"), None, 0
    if status == OPEN:
        return None, None, saltus
    if saltus:
        bound, name = saltus_bound(code, values, p, n0, saltus), SALTUS_THEOREM
    else:
        bound, name = proof_bound(code.proof_criteria, p, n0), GUY_SMITH
    if (bound is None or row["proof_bound"] != bound or bound > n or theorem not in (None, name)
            or through_period(values, p, n0, bound, saltus) is None):
        return f"its period is not proven by the {name} within the heaps it computed", None, 0
    if saltus and row["max_value"] != int(through_period(values, p, n0, n, saltus).max()):
        return f"its largest value {row['max_value']} is not that of its {n:,} heaps", None, 0
    return None, bound, saltus


def _sample_check(code, row: dict, values: np.ndarray, bound: int | None) -> str | None:
    """This user's own row: a sample of its values recomputed (`first_wrong_value`), through the period to the bound
    when proven — against accidents; the signature answers for edits."""
    if (wrong := first_wrong_value(code, values)) is not None:
        return f"G({wrong:,}) = {int(values[wrong])} is not the mex of its options under the rules of {code}"
    if bound is not None:
        ext = through_period(values, row["period"], row["preperiod"], bound, row.get("saltus") or 0)
        if (wrong := first_wrong_value(code, ext)) is not None:
            return f"its period gives G({wrong:,}) = {int(ext[wrong])}, which the rules of {code} do not"
    return None


def full_check(code, row: dict, values: np.ndarray, bound: int | None) -> str | None:
    """A row octal cannot vouch for (no signature of this user's): every value it holds recomputed from the rules,
    its largest value over all the heaps it claims, and, proven, its period through the Guy–Smith bound."""
    m = max(len(values), row["n"] if row["status"] == OPEN else 0, bound or 0)
    truth = GrundySequence(code).extend(m).astype(np.int64)
    bad = np.flatnonzero(truth[:len(values)] != values.astype(np.int64))
    if len(bad):
        h = int(bad[0])
        return f"G({h:,}) = {int(values[h])} is not what the rules of {code} give ({int(truth[h])})"
    if row["status"] == OPEN and int(truth[:row["n"]].max()) != row["max_value"]:
        return f"its largest value over {row['n']:,} heaps is {int(truth[:row['n']].max())}, not {row['max_value']}"
    if bound is not None:
        ext = through_period(values, row["period"], row["preperiod"], bound, row.get("saltus") or 0)
        bad = np.flatnonzero(truth[:bound] != ext.astype(np.int64))
        if len(bad):
            return f"its period gives G({int(bad[0]):,}) = {int(ext[bad[0]])}, which the rules of {code} do not"
    return None

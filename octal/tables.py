"""What octal's shipped tables and the literature say of one code, offline: its row of the 4-digit census (which
holds every octal code of 1 to 4 digits, a shorter code written with zeros appended: 0.16 is 0.1600) or of the
hexadecimal census (every 0.ddd with a digit 8–F: 0.F8 is 0.F80) and the published facts octal knows of it
(data/published.csv: OEIS numbers, periods, equal games)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from .errors import DataFileError
from .outcomes import OPEN, PROVEN
from .reading import open_regular
from .rules.code import parse_code
from .shipped import shipped_file

TABLE = "census-4digit.csv"
HEX_TABLE = "census-hex.csv"
FACTS = "published.csv"
TABLE_COLUMNS = ["code", "status", "preperiod", "period", "saltus", "proof_bound", "max_value", "n", "budget",
                 "class", "cousin"]
HEX_COLUMNS = [*TABLE_COLUMNS, "theorem"]
TABLES = {TABLE: ("4-digit census (data/census-4digit.csv)", TABLE_COLUMNS, 4),
          HEX_TABLE: ("hexadecimal census (data/census-hex.csv)", HEX_COLUMNS, 3)}
FACT_COLUMNS = ["code", "kind", "period", "preperiod", "other", "shift", "values", "source"]
WHOLE = ("preperiod", "period", "saltus", "proof_bound", "max_value", "n", "budget")
MAX_BYTES = 16 << 20  # a shipped table is read whole; anything larger is not the file octal ships


@dataclass
class Lookup:
    """A code's row in a shipped table (None when no table holds it) and the published facts about it."""

    code: str
    table: str | None = None
    row: dict | None = None
    first_at_four: bool | None = None  # no code of its class ends in 0: a game no shorter code plays
    facts: list[dict] = field(default_factory=list)
    digits: int = 4  # the digits of the table's codes (first met at that many digits: `first_at_four`)

    def __repr__(self) -> str:
        if self.row is None:
            return f"Lookup({self.code}: in no shipped table, {len(self.facts)} published facts)"
        r = self.row
        saltus = f", saltus {r['saltus']:,}" if r.get("saltus") else ""
        what = (f"period {r['period']:,}{saltus}, preperiod {r['preperiod']:,}" if r["status"] == PROVEN
                else f"open at {r['n']:,} heaps")
        return f"Lookup({self.code}: {r['status']}, {what}, {len(self.facts)} published facts)"


def _text(name: str) -> str:
    try:
        with open_regular(shipped_file("octal.table_files", "data", name)) as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as exc:
        raise DataFileError(f"cannot read octal's shipped table {name}: {exc.strerror or exc}") from None
    if len(data) > MAX_BYTES:
        raise DataFileError(f"octal's shipped table {name} is larger than {MAX_BYTES:,} bytes: not the one octal ships")
    return data.decode("utf-8", errors="replace")


def _rows(name: str, columns: list[str]) -> list[dict]:
    """The rows of a shipped CSV table (plain fields: no quotes, no commas inside one), each checked for its width."""
    lines = _text(name).splitlines()
    if not lines or lines[0].split(",") != columns:
        raise DataFileError(f"octal's shipped table {name} does not have the columns {','.join(columns)}")
    rows = []
    for no, line in enumerate(lines[1:], 2):
        fields = line.split(",")
        if len(fields) != len(columns) or '"' in line:
            raise DataFileError(f"octal's shipped table {name}: line {no} is not {len(columns)} plain fields")
        rows.append(dict(zip(columns, fields)))
    return rows


def _typed(row: dict, name: str = TABLE) -> dict:
    """A table row with its numbers as ints (empty: None), or a DataFileError naming the field."""
    out = dict(row)
    for k in WHOLE:
        v = row[k]
        if v not in ("", None) and not v.isdigit():
            raise DataFileError(f"octal's shipped table {name}: row {row['code']!r} has {k} {v[:20]!r}")
        out[k] = int(v) if v else None
    if out["status"] not in (PROVEN, OPEN) or (out["status"] == PROVEN and out["period"] is None):
        raise DataFileError(f"octal's shipped table {name}: row {row['code']!r} has status {row['status'][:20]!r}")
    return out


@cache
def _table(name: str = TABLE) -> dict[str, dict]:
    return {r["code"]: r for r in _rows(name, TABLES[name][1])}


@cache
def _facts() -> list[dict]:
    return _rows(FACTS, FACT_COLUMNS)


def table_code(code: str) -> str | None:
    """The 4-digit census's name of a plain octal code of up to 4 digits (0.16 → 0.1600), or the hexadecimal
    census's name of a code 0.d, 0.dd or 0.ddd with a digit 8–F (0.F8 → 0.F80); else None."""
    return table_of(code)[1]


def table_of(code: str) -> tuple[str | None, str | None]:
    """(the shipped table that holds `code`, its name there), or (None, None)."""
    c = parse_code(code)
    text = str(c)
    head, _, body = text.partition(".")
    if not c.is_plain or not c.is_finite or "[" in text or not body:
        return None, None
    if all(ch in "01234567" for ch in body) and head in ("0", "4") and len(body) <= 4:
        return TABLE, f"{head}.{body.ljust(4, '0')}"
    if all(ch in "0123456789ABCDEF" for ch in body) and head == "0" and len(body) <= 3:
        return HEX_TABLE, f"0.{body.ljust(3, '0')}"
    return None, None


def lookup(code: str) -> Lookup:
    """What the shipped tables and the literature say of `code` (a code, or a preset's name resolved by the caller)."""
    name = str(parse_code(code))
    which, key = table_of(name)
    table = _table(which) if which else {}
    row = table.get(key) if key else None
    short = {name, key, name.rstrip("0")} - {None}
    facts = [f for f in _facts() if f["code"] in short]
    if row is None:
        return Lookup(name, facts=facts)
    row = _typed(row, which)
    first = not any(r["class"] == row["class"] and r["code"].endswith("0") for r in table.values())
    title, _, digits = TABLES[which]
    return Lookup(name, title, row, first, facts, digits)

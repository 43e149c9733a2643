"""A census file as people read it: the counts and the table (the literature's columns), csv, markdown or json, and
the notebook's view."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ..displays import HtmlRepr
from ..engine.periodicity import GUY_SMITH, PROVEN
from ..errors import InvalidArgumentError
from ..outcomes import OPEN
from .classes import checked_rows
from .store import DEFAULT_DB


@dataclass
class Census(HtmlRepr):
    """A census file's rows (without the stored values), as a notebook shows them: counts, then the table."""

    db: Path
    rows: list[dict]

    @property
    def counts(self) -> dict[str, int]:
        return {PROVEN: sum(r["status"] == PROVEN for r in self.rows),
                OPEN: sum(r["status"] == OPEN for r in self.rows),
                "distinct": len({r["class"] for r in self.rows})}

    def __repr__(self) -> str:
        c = self.counts
        return (f"Census({self.db}: {len(self.rows):,} codes, {c[PROVEN]:,} proven, {c[OPEN]:,} open, "
                f"{c['distinct']:,} distinct games)")


def open_census(db: str | Path = DEFAULT_DB) -> Census:
    """The rows of a census file (DataFileError when there is none)."""
    return Census(Path(db), checked_rows(db))


def text_table(head: list[str], body: list[list[str]], fmt: str) -> list[str]:
    """The lines of a table of strings: markdown, or columns aligned for a terminal (fmt 'table')."""
    if fmt == "markdown":
        return ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)] + ["| " + " | ".join(b) + " |" for b in body]
    widths = [max(len(h), *(len(b[i]) for b in body)) if body else len(h) for i, h in enumerate(head)]
    return (["  ".join(h.ljust(w) for h, w in zip(head, widths))]
            + ["  ".join(c.ljust(w) for c, w in zip(b, widths)).rstrip() for b in body])


COLUMNS = ("code", "status", "preperiod", "period", "proof_bound", "max_value", "n", "kernel", "seconds", "class",
           "cousin", "saltus", "budget", "theorem")
# saltus: 0 for a period, s for an arithmetic period (proven, or apparent on an open row); budget: the heaps budget of
# the stage that proved it (open: the last one it ran to); theorem: what proved it; kernel and seconds: how this
# machine computed it (the rest is the game's)


def with_theorem(row: dict) -> dict:
    """A verified row with the saltus and theorem a row written before those columns leaves empty: a proven row of
    such a file has a period (saltus 0), proven by Guy–Smith."""
    if row["status"] != PROVEN or row["saltus"]:
        return row
    return {**row, "saltus": 0, "theorem": GUY_SMITH}


def report(db: str | Path = DEFAULT_DB, fmt: str = "table", columns: list[str] | None = None) -> str:
    """The census as a table (the literature's layout), csv, markdown or json, with the counts (rows verified);
    csv and json keep only `columns` when named (a published table leaves out kernel and seconds)."""
    if columns is not None and (isinstance(columns, str) or not hasattr(columns, "__iter__")):
        raise InvalidArgumentError("columns must be a list of column names")
    cols = list(COLUMNS) if columns is None else list(columns)
    unknown = [str(c) for c in cols if c not in COLUMNS]
    if unknown or not cols:
        raise InvalidArgumentError(f"--columns takes some of {','.join(COLUMNS)}, not {','.join(unknown) or 'none'}")
    if columns is not None and fmt not in ("csv", "json"):
        raise InvalidArgumentError(f"--columns goes with --format csv or json, not {fmt!r}")
    rows = [with_theorem(r) for r in checked_rows(db)]
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
        out.append("open: " + ", ".join(f"{r['code']} (to {r['n']:,})" for r in opened[:60])
                   + (" …" if len(opened) > 60 else ""))
    return "\n".join(out)

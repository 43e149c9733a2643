"""Periodicity certificates of a census: for every proven row the code, n0, p, the saltus (0 for a period), the bound of
the theorem that proves it (Guy–Smith's, or the power-of-two saltus theorem's) and the values through the period (one
block per class of equal values), in the file `python -m octal.certify` re-proves alone."""

from __future__ import annotations

import io
import json
import lzma
from pathlib import Path

import numpy as np

from ..engine.periodicity import PROVEN
from ..engine.values import narrowest
from ..io import atomic_write
from .classes import check_claims
from .store import DEFAULT_DB, CensusDB, check_many, stored_sequence

MAGIC = b"octal-certificates 1\n"  # certify.py reads this format (its docstring states it)
COLUMNS = ["code", "block", "preperiod", "period", "saltus", "bound", "max_value"]


def certificate_bytes(rows: list[tuple[dict, np.ndarray]]) -> tuple[bytes, int]:
    """The xz stream of a certificate file (the magic line, the JSON header, each block's values) and its number of
    blocks: one per distinct run of values through the period, so a class of equal games stores its values once. A
    row's largest value is that of its block (through the period: the largest of all for a plain period)."""
    blocks: dict[bytes, int] = {}
    kept: list[np.ndarray] = []
    table = []
    for row, head in rows:
        v = np.ascontiguousarray(narrowest(np.asarray(head), int(head.max())))
        key = v.dtype.str.encode() + v.tobytes()
        if key not in blocks:
            blocks[key] = len(kept)
            kept.append(v)
        table.append([row["code"], blocks[key], row["preperiod"], row["period"], row.get("saltus") or 0,
                      row["proof_bound"], int(v.max())])
    header = {"columns": COLUMNS, "rows": table,
              "blocks": [{"dtype": str(v.dtype), "length": len(v)} for v in kept]}
    raw = io.BytesIO()
    raw.write(MAGIC)
    raw.write(json.dumps(header, separators=(",", ":")).encode() + b"\n")
    for v in kept:
        raw.write(v.astype(v.dtype.newbyteorder("<")).tobytes())
    return lzma.compress(raw.getvalue(), format=lzma.FORMAT_XZ, preset=9 | lzma.PRESET_EXTREME), len(kept)


def write_certificates(out: str | Path, db: str | Path = DEFAULT_DB) -> tuple[int, int]:
    """Write the certificates of every proven row of census file `db` to `out` (rows verified first, as every
    reader does); (rows, blocks) written."""
    rows = CensusDB.read(db, "octal census --digits D (or --hex)")
    check_many(rows)
    proven = []
    for row in rows:
        seq = stored_sequence(row)  # a damaged row is an error here, never a certificate
        if row["status"] == PROVEN:
            n0, p = row["preperiod"], row["period"]
            proven.append((row, np.asarray(seq.values[:n0 + p])))
    check_claims(rows)
    data, blocks = certificate_bytes(proven)
    atomic_write(Path(out), data)
    return len(proven), blocks

"""The `misere` table of a census file: one row per code (its quotient's status, order, period, budget and the
quotient itself), in the same kind of file and with the same writing discipline as the normal-play table."""

from __future__ import annotations

import time

from .store import CodeTable

MISERE_SCHEMA = """
CREATE TABLE IF NOT EXISTS misere (
    code TEXT PRIMARY KEY,
    status TEXT NOT NULL,          -- finite / bounded / growing
    q_order INTEGER,               -- |Q| (growing: the order reached)
    p_portion INTEGER,             -- |P|
    tame INTEGER,                  -- 1 when (Q, P) is the quotient of nim heaps of that order
    period INTEGER,                -- Φ(n + period) = Φ(n) for n ≥ preperiod, proven (finite only)
    preperiod INTEGER,
    last_change INTEGER,           -- the heap where the presentation last grew
    max_heap INTEGER,              -- heaps 0..max_heap settled
    budget TEXT,                   -- 'heaps H, order K, work W': what this row was computed within
    seconds REAL,
    reason TEXT,
    class TEXT,                    -- representative of the codes with equal quotient and Φ
    quotient BLOB,                 -- zlib-compressed quotient document (finite and bounded rows)
    updated TEXT
);
"""


class MisereDB(CodeTable):
    """The `misere` table of a census file: one row per code, one transaction per row."""

    TABLE = "misere"
    SCHEMA = MISERE_SCHEMA
    COLUMNS = ("code", "status", "q_order", "p_portion", "tame", "period", "preperiod", "last_change", "max_heap",
               "budget", "seconds", "reason", "class", "quotient", "updated")

    def store(self, res: dict) -> None:
        doc = {**res, "class": None, "updated": time.strftime("%Y-%m-%dT%H:%M:%S")}
        self.write(f"INSERT OR REPLACE INTO misere ({', '.join(self.COLUMNS)}) VALUES "
                   f"({', '.join('?' * len(self.COLUMNS))})", [tuple(doc[c] for c in self.COLUMNS)])

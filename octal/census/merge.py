"""Shards joined: census files computed apart (`--shard i/k` on several machines) merged into one, every row
verified as it is read, the further-computed row kept where two files hold one code, then the games grouped again."""

from __future__ import annotations

from pathlib import Path

from ..engine.periodicity import PROVEN
from ..errors import InvalidArgumentError
from .normal import classify
from .store import DEFAULT_DB, CensusDB, stored_sequence


def _ahead(row: dict, other: dict | None) -> bool:
    """Whether `row` says more than `other`: proven beats open, more heaps beat fewer."""
    if other is None:
        return True
    return (row["status"] == PROVEN, row["n"]) > (other["status"] == PROVEN, other["n"])


def merge_census(sources: list[str | Path], db: str | Path = DEFAULT_DB) -> int:
    """Merge the normal-play rows of census files `sources` into `db` (created if need be); returns the rows taken.
    A damaged row in a source refuses the merge before anything is written (DataFileError naming it)."""
    target = Path(db).resolve()
    if not sources:
        raise InvalidArgumentError("name the census files to merge")
    best: dict[str, dict] = {}
    for src in sources:
        if Path(src).resolve() == target:
            raise InvalidArgumentError(f"{src} is the file merged into: name it with --db only")
        for row in CensusDB.read(src, "octal census --shard i/k --db FILE"):
            stored_sequence(row)
            if _ahead(row, best.get(row["code"])):
                best[row["code"]] = row
    store = CensusDB(db)
    try:
        taken = [r for code, r in best.items() if _ahead(r, store.row(code))]
        cols = [c for c in CensusDB.COLUMNS if c not in ("class", "cousin")]
        store.write(f"INSERT OR REPLACE INTO codes ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})",
                    [tuple(r[c] for c in cols) for r in taken])
        classify(store)
        return len(taken)
    finally:
        store.close()

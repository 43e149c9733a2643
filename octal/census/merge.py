"""Shards joined: census files computed apart (`--shard i/k` on several machines) merged into one, every row
verified as it is read, the further-computed row kept where two files hold one code, then the games grouped again."""

from __future__ import annotations

from pathlib import Path

from ..engine.periodicity import PROVEN
from ..errors import InvalidArgumentError
from .normal import classify
from .store import DEFAULT_DB, CensusDB, check_many, row_signature, sound_sequence, stored_sequence


def _ahead(row: dict, other: dict | None) -> bool:
    """Whether `row` says more than `other`: proven beats open, more heaps beat fewer."""
    if other is None:
        return True
    return (row["status"] == PROVEN, row["n"]) > (other["status"] == PROVEN, other["n"])


def merge_census(sources: list[str | Path], db: str | Path = DEFAULT_DB) -> int:
    """Merge the normal-play rows of census files `sources` into `db` (created if need be); returns the rows taken.
    A damaged row in a source refuses the merge before anything is written (DataFileError naming it)."""
    if isinstance(sources, (str, Path)) or not all(isinstance(s, (str, Path)) for s in sources):
        raise InvalidArgumentError("name the census files to merge as a list of paths")
    if not sources:
        raise InvalidArgumentError("name the census files to merge")
    target = Path(db).resolve()
    best: dict[str, dict] = {}
    for src in sources:
        if Path(src).resolve() == target:
            raise InvalidArgumentError(f"{src} is the file merged into: name it with --db only")
        rows = CensusDB.read(src, "octal census --shard i/k --db FILE")
        check_many(rows)
        for row in rows:
            stored_sequence(row)
            if _ahead(row, best.get(row["code"])):
                best[row["code"]] = row
    store = CensusDB(db)
    try:
        held = {code: store.row(code) for code in best}
        sound = {code: r for code, r in held.items() if sound_sequence(r) is not None}
        damaged = [(code,) for code, r in held.items() if r is not None and code not in sound]
        store.write("DELETE FROM codes WHERE code = ?", damaged)  # a damaged row is replaced, whatever it claims
        # each taken row passed stored_sequence (in full, if it was not this user's): it is signed as this user's
        taken = [{**r, "sig": row_signature(r)} for code, r in best.items() if _ahead(r, sound.get(code))]
        cols = [c for c in CensusDB.COLUMNS if c not in ("class", "cousin")]
        # the write keeps a row another writer made better meanwhile (`upsert`)
        store.write(store.upsert(), [tuple(r[c] for c in cols) for r in taken])
        classify(store)
        return len(taken)
    finally:
        store.close()

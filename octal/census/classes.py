"""Identical games and first cousins among census rows: what makes two codes one game, the grouping the census
stores, and the reader that checks every row and every class and cousin claim before anyone reports or publishes
it (a class or cousin written by hand must hold on the values)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..engine.periodicity import PROVEN
from ..engine.sequence import NimSequence
from ..errors import DataFileError
from ..outcomes import OPEN
from .store import DEFAULT_DB, CensusDB, check_many, extended_values, stored_sequence

SHIFTS = (1, 2)  # first cousins: G_A(n) = G_B(n − s)
WINDOW = 512  # values compared to find identical games and cousins

Game = tuple[str, tuple, np.ndarray]  # (code, identity key, leading values)


def identity_key(status: str, preperiod: int | None, period: int | None, head: np.ndarray, saltus: int = 0) -> tuple:
    """What makes two games one: a proven period and saltus with the values through it (they fix the game forever),
    or, for an open one, the values compared (its first 4·WINDOW; not the heaps computed, so that a code taken
    further by a later stage stays in its class)."""
    return (PROVEN, preperiod, period, saltus, head.tobytes()) if status == PROVEN else (OPEN, head.tobytes())


def game_of(row: dict) -> Game | None:
    """A verified row's (code, identity key, its first 4·WINDOW values, through the period when proven)."""
    length = 4 * WINDOW if row["status"] != OPEN else min(4 * WINDOW, row["n"])
    e = extended_values(row, length)
    if e is None:
        return None
    head = extended_values(row, row["preperiod"] + row["period"]) if row["status"] == PROVEN else e
    return row["code"], identity_key(row["status"], row["preperiod"], row["period"], head, row.get("saltus") or 0), e


def _cousins(s: np.ndarray, t: np.ndarray, shift: int) -> bool:
    """G_A(n) = G_B(n − shift) over every heap both hold (at least WINDOW of them)."""
    m = min(len(s) - shift, len(t))
    return m >= WINDOW and np.array_equal(s[shift : shift + m], t[:m])


def group_games(games: list[Game]) -> tuple[dict[str, str], dict[str, str]]:
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
                if other != code and cls_of[other] != cls_of[code] and _cousins(s, seqs[other], shift):
                    cousin.setdefault(code, f"{cls_of[other]}+{shift}")
    return cls_of, cousin


def check_claims(rows: list[dict]) -> None:
    """Every class and cousin a row claims holds on the values: its class names a row of the same game (one identity
    key), its cousin 'CODE+s' a row whose values are its own shifted by s. A claim that does not is a DataFileError
    naming the row (a census file edited by hand must not publish 0.77 as 'the same game as Dawson's Kayles')."""
    games = {g[0]: g for g in filter(None, map(game_of, rows))}
    for row in rows:
        code, where = row["code"], f"census row {row['code']!r} is damaged"
        own = games.get(code)
        cls = row.get("class")
        if cls not in (None, code) and (own is None or cls not in games or games[cls][1] != own[1]):
            raise DataFileError(f"{where}: it is not the same game as {str(cls)[:40]!r}")
        cousin = row.get("cousin")
        if cousin is not None:
            other, _, shift = str(cousin).rpartition("+")
            if (own is None or other not in games or not shift.isdigit() or int(shift) not in SHIFTS
                    or not _cousins(own[2], games[other][2], int(shift))):
                raise DataFileError(f"{where}: it is not a first cousin {str(cousin)[:40]!r} of another game")


def verified_rows(db: str | Path = DEFAULT_DB) -> list[tuple[dict, NimSequence]]:
    """Every row of a census file with its sequence, each checked by `stored_sequence`, and every class and cousin
    claim by `check_claims`, before anyone reports or publishes it: the one reader of finished rows (report, site,
    notebooks); a damaged row is refused in one line."""
    rows, sequences = _verified(db, keep=True)
    return list(zip(rows, sequences))


def checked_rows(db: str | Path = DEFAULT_DB) -> list[dict]:
    """The rows of `verified_rows`, checked the same way, without their values or sequences: what a report reads
    (8,191 four-digit rows to 2¹⁶ heaps: their sequences would hold gigabytes)."""
    rows, _ = _verified(db, keep=False)
    return [{k: v for k, v in row.items() if k != "vals"} for row in rows]


def _verified(db: str | Path, keep: bool) -> tuple[list[dict], list[NimSequence]]:
    """The rows of a census file, each row and claim checked; their sequences too when `keep`."""
    rows = CensusDB.read(db, "octal census --digits D")
    check_many(rows)
    sequences = []
    for row in rows:
        seq = stored_sequence(row)
        if keep:
            sequences.append(seq)
    check_claims(rows)
    return rows, sequences

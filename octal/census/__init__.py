"""The census: every octal code of up to D digits, computed until proven (normal play) or until its misère quotient
settles, kept in one SQLite file that every reader verifies row by row.

store.py (the file: its tables, the lock wait, rows read back and checked) → jobs.py (which codes, on a process
pool or a Dask cluster) → normal.py (the normal-play census, identical games and cousins) and misere.py (the misère
quotient of every code) → merge.py (shards joined) → report.py (the counts and the table people read).
"""

from .classes import WINDOW, checked_rows, group_games, identity_key, verified_rows
from .jobs import enumerate_codes
from .merge import merge_census
from .misere import (
    DEFAULT_MAX_WORK,
    load_quotient,
    misere_report,
    run_misere_census,
    verified_misere_rows,
)
from .misere_store import MisereDB
from .normal import run_census, stages
from .report import Census, open_census, report
from .store import DEFAULT_DB, CensusDB, stored_sequence

__all__ = [
    "enumerate_codes", "DEFAULT_MAX_WORK", "load_quotient", "misere_report", "run_misere_census",
    "verified_misere_rows", "merge_census", "stages",
    "WINDOW", "group_games", "identity_key", "run_census", "Census", "open_census", "report",
    "DEFAULT_DB", "CensusDB", "MisereDB", "stored_sequence", "verified_rows",
    "checked_rows",
]

"""The published hexadecimal census (data/census-hex.csv), checked against a brute-force reference independent of
octal's engine: every proven arithmetic period (one code per game) to twice its bound, the theorem's test run again on
the reference's values, periods and open rows on a sample."""

import csv
from pathlib import Path

import numpy as np
import pytest
from reference import reference_hex_values

from octal import parse_code
from octal.census import enumerate_codes
from octal.engine.arithmetic import saltus_bound
from octal.engine.periodicity import GUY_SMITH, SALTUS_THEOREM, proof_bound

DATA = Path(__file__).resolve().parent.parent / "data" / "census-hex.csv"
COLUMNS = ["code", "status", "preperiod", "period", "saltus", "proof_bound", "max_value", "n", "budget", "class",
           "cousin", "theorem"]
TEXT = ("code", "status", "class", "cousin", "theorem")


@pytest.fixture(scope="module")
def table() -> dict[str, dict]:
    with DATA.open(encoding="utf-8") as f:
        reader = csv.DictReader(f)
        assert reader.fieldnames == COLUMNS
        return {r["code"]: {k: (v if k in TEXT else None if v == "" else int(v)) for k, v in r.items()}
                for r in reader}


def _follows(values, p: int, n0: int, s: int) -> bool:
    v = np.asarray(values, dtype=np.int64)
    return bool(np.all(v[n0 + p:] - v[n0:len(v) - p] == s))


def test_every_code_once_and_every_row_whole(table):
    assert list(table) == enumerate_codes(3, "0", hexadecimal=True)
    for r in table.values():
        assert r["status"] in ("proven", "open") and r["budget"] >= r["n"] >= 1024
        assert table[r["class"]]["class"] == r["class"]  # a class is named by its own first member
        if r["status"] == "open":
            assert r["proof_bound"] is None and r["theorem"] == "" and r["n"] >= 4096
            assert (r["saltus"] is None) == (r["period"] is None) and r["saltus"] != 0
        elif r["saltus"] == 0:
            assert r["theorem"] == GUY_SMITH
            assert r["proof_bound"] == proof_bound(parse_code(r["code"]).proof_criteria, r["period"],
                                                   r["preperiod"]) <= r["n"]
        else:
            assert r["theorem"] == SALTUS_THEOREM and r["saltus"] & (r["saltus"] - 1) == 0
            assert r["proof_bound"] <= r["n"]


@pytest.mark.slow
def test_every_proven_arithmetic_game_holds_twice_past_its_bound_and_its_test_passes_on_brute_force(table):
    """One code per game (its class's first): brute-force G(0 … 2·bound) follows the arithmetic period, the period
    and preperiod are the least, the largest value is the row's, and the theorem's test, run on those values, gives
    the row's bound. (To 4·bound it took 8 times as long: 45 s of CI's time on 2026-11-28; it held there too.)"""
    games = [r for r in table.values() if r["status"] == "proven" and r["saltus"] and r["class"] == r["code"]]
    assert games
    for r in games:
        p, n0, s, bound = r["period"], r["preperiod"], r["saltus"], r["proof_bound"]
        values = reference_hex_values(r["code"], max(2 * bound, n0 + 4 * p))
        assert _follows(values, p, n0, s), r["code"]
        assert n0 == 0 or values[n0 - 1 + p] - values[n0 - 1] != s, r["code"]
        assert saltus_bound(parse_code(r["code"]), np.array(values), p, n0, s) == bound, r["code"]
        v = np.array(values[: r["n"]])
        assert len(v) < r["n"] or v.max() == r["max_value"]


@pytest.mark.parametrize("index", range(0, 3584, 97))
def test_a_sample_of_rows_against_brute_force(table, index):
    """Every 97th code: brute-force G(0..299) follows its row (a period, an arithmetic period proven or apparent) and
    never exceeds its largest value; an open row without a regularity shows none the census would have taken."""
    code = enumerate_codes(3, "0", hexadecimal=True)[index]
    r = table[code]
    values = reference_hex_values(code, 300)
    assert max(values) <= r["max_value"]
    if r["period"] is not None:
        assert _follows(values, r["period"], r["preperiod"], r["saltus"]), code

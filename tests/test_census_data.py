"""The published 4-digit census table (data/census-4digit.csv), checked against independent references: a brute-force
sample, the periodicity theorem on that sample, and every published fact about 4-digit codes we found (OEIS)."""

import csv
from pathlib import Path

import numpy as np
import pytest
from reference import reference_digits, reference_values

from octal import nim_sequence, parse_code
from octal.census import enumerate_codes
from octal.engine.periodicity import proof_bound

DATA = Path(__file__).resolve().parent.parent / "data" / "census-4digit.csv"
PUBLISHED = Path(__file__).resolve().parent.parent / "data" / "published.csv"
COLUMNS = ["code", "status", "preperiod", "period", "saltus", "proof_bound", "max_value", "n", "budget", "class",
           "cousin"]
BRUTE_N = 260  # heaps the brute-force reference computes for each sampled row (O(n²) in plain Python)


def _int(x: str) -> int | None:
    return None if x == "" else int(x)


@pytest.fixture(scope="module")
def table() -> dict[str, dict]:
    with DATA.open() as f:
        reader = csv.DictReader(f)
        assert reader.fieldnames == COLUMNS
        rows = {r["code"]: {k: (v if k in ("code", "status", "class", "cousin") else _int(v)) for k, v in r.items()}
                for r in reader}
    return rows


def published(kind: str) -> list[dict]:
    with PUBLISHED.open() as f:
        return [r for r in csv.DictReader(f) if r["kind"] == kind]


def test_every_code_once_and_every_row_whole(table):
    assert list(table) == enumerate_codes(4, "both")
    for r in table.values():
        assert r["status"] in ("proven", "open") and r["budget"] >= r["n"] >= 1024
        if r["status"] == "proven":
            assert r["saltus"] == 0 and r["proof_bound"] == proof_bound(parse_code(r["code"]).proof_criteria,
                                                                          r["period"], r["preperiod"]) <= r["n"]
        else:
            assert r["n"] >= 1 << 16 and r["period"] is None  # every open code ran to 2¹⁶ heaps at least
        assert table[r["class"]]["class"] == r["class"]  # a class is named by its own first member


def _follows(values: list[int], row: dict) -> bool:
    """The values obey the row: periodic from its preperiod with its period, largest value within its own."""
    v = np.array(values)
    if row["status"] == "proven":
        n0, p = row["preperiod"], row["period"]
        if len(v) > n0 + p and not np.array_equal(v[n0 + p:], v[n0:len(v) - p]):
            return False
        if len(v) >= n0 + p and v[: n0 + p].max() != row["max_value"]:
            return False
    return v.max() <= row["max_value"]


@pytest.mark.parametrize("index", range(0, 8191, 211))
def test_a_sample_of_rows_against_brute_force(table, index):
    """Every 211th row: brute-force G(0..BRUTE_N−1) obeys its period and largest value; where the certificate lies
    within BRUTE_N heaps, brute force and the theorem prove the row on their own (and no shorter period holds)."""
    code = enumerate_codes(4, "both")[index]
    row = table[code]
    values = reference_values(reference_digits(code)[0], BRUTE_N)
    assert _follows(values, row), code
    if row["status"] == "proven" and row["proof_bound"] <= BRUTE_N:
        v, n0, p = np.array(values), row["preperiod"], row["period"]
        assert all(not np.array_equal(v[n0 + d:], v[n0:BRUTE_N - d]) for d in range(1, p))
        assert n0 == 0 or v[n0 - 1] != v[n0 - 1 + p]


def test_classes_are_one_game_on_the_brute_force_values(table):
    """A sample of class claims: each member's brute-force values equal its representative's."""
    members = [r for r in table.values() if r["class"] != r["code"]][::97]
    assert len(members) >= 20
    for r in members:
        assert reference_values(reference_digits(r["code"])[0], 120) == reference_values(
            reference_digits(r["class"])[0], 120), r["code"]


@pytest.mark.parametrize("fact", published("values-from-1") + published("values-from-0"), ids=lambda f: f["code"])
def test_published_values(table, fact):
    """OEIS lists of nim-values of 4-digit codes: octal computes them, and the table's row agrees with them."""
    listed = [int(x) for x in fact["values"].split()]
    if fact["kind"] == "values-from-1":
        listed = [0] + listed
    values = nim_sequence(fact["code"], len(listed)).values.tolist()
    assert values == listed, fact["source"]
    assert _follows(listed, table[fact["code"]])


@pytest.mark.parametrize("fact", published("period") + published("period-of-equal"), ids=lambda f: f["code"])
def test_published_periods(table, fact):
    """A published period: the table proves the same one, or stays open where its certificate lies beyond the heaps
    computed (it could not have been proven there)."""
    row, p, n0 = table[fact["code"]], int(fact["period"]), int(fact["preperiod"])
    if row["status"] == "proven":
        assert (row["preperiod"], row["period"]) == (n0, p), fact["source"]
    else:
        assert proof_bound(parse_code(fact["code"]).proof_criteria, p, n0) > row["n"], fact["source"]


@pytest.mark.parametrize("fact", published("equal"), ids=lambda f: f["code"])
def test_published_equalities(table, fact):
    """'.xyz and .xyz1 have the same values' (OEIS names), or values shifted by s heaps: octal's values agree, and
    for an unshifted equality with a 3- or 4-digit code the table puts both codes in one class."""
    s = int(fact["shift"])
    mine, other = nim_sequence(fact["code"], 800).values, nim_sequence(fact["other"], 800).values
    assert np.array_equal(mine[s:], other[: 800 - s]), fact["source"]
    head, body = fact["other"].split(".")
    if s == 0 and len(body) <= 4:
        twin = f"{head}.{body.ljust(4, '0')}"
        assert table[fact["code"]]["class"] == table[twin]["class"]


@pytest.mark.parametrize("code", ["0.3564", "0.1075"])
def test_the_longest_new_periods_come_out_again_outside_the_census(table, code):
    """Two long periods first met at four digits (125,082 and 36,732), computed again by nim_sequence alone."""
    p = nim_sequence(code, until_proven=True, max_n=1 << 20).periodicity
    row = table[code]
    assert (p.status, p.preperiod, p.period, p.proof_bound) == ("proven", row["preperiod"], row["period"],
                                                                row["proof_bound"])

"""octal.lookup and `octal show`: a code's row of the shipped 4-digit table and the published facts, offline."""

import csv
import subprocess
import sys
from pathlib import Path

import pytest

import octal
from octal.errors import OctalCodeError
from octal.tables import table_code

TABLE = Path(__file__).resolve().parent.parent / "data" / "census-4digit.csv"


def test_a_shorter_code_is_found_as_its_four_digit_twin():
    assert table_code("0.16") == "0.1600" and table_code(".77") == "0.7700" and table_code("4.07") == "4.0700"
    assert table_code("0.12345") is None and table_code("0.8") is None and table_code("4!.0") is None


def test_the_row_is_the_table_s_row():
    with TABLE.open() as f:
        rows = {r["code"]: r for r in csv.DictReader(f)}
    for code in ("0.3564", "0.16", "4.7662", "0.0004", "0.1777"):
        found = octal.lookup(code)
        row = rows[table_code(code)]
        assert found.row["status"] == row["status"] and str(found.row["n"]) == row["n"]
        if row["status"] == "proven":
            assert (found.row["period"], found.row["preperiod"]) == (int(row["period"]), int(row["preperiod"]))
    assert repr(octal.lookup("0.3564")) == "Lookup(0.3564: proven, period 125,082, preperiod 23,267, 0 published facts)"
    assert octal.lookup("0.3564").first_at_four and not octal.lookup("0.16").first_at_four


def test_published_facts_come_with_the_row():
    kinds = {f["kind"]: f for f in octal.lookup("0.1377").facts}
    assert kinds["period"]["period"] == "24" and kinds["period"]["source"] == "A071434"
    assert [f["source"] for f in octal.lookup("0.77").facts] == ["A002186"]
    assert octal.lookup("0.12345").row is None


def test_a_bad_code_is_an_octal_error():
    with pytest.raises(OctalCodeError):
        octal.lookup("0.9x")


def test_octal_show_prints_the_row_and_the_facts():
    out = subprocess.run([sys.executable, "-m", "octal.front.cli", "show", "0.1377"], capture_output=True, text=True,
                         check=True).stdout
    assert "census     proven: period 24, preperiod 141, largest value 8 (Guy–Smith bound: heaps 0..333)" in out
    assert "class      same game as 0.1357; first met at four digits" in out
    assert "published  period 24, preperiod 141 — A071434" in out
    out = subprocess.run([sys.executable, "-m", "octal.front.cli", "show", "0.12345"], capture_output=True,
                         text=True, check=True).stdout
    assert "in no table octal ships" in out

"""octal.lookup and `octal show`: a code's row of the shipped 4-digit table and the published facts, offline."""

import csv
import subprocess
import sys
from pathlib import Path

import pytest

import octal
from octal.census import CensusDB
from octal.errors import OctalCodeError
from octal.front.show import lookup_lines
from octal.tables import table_code

TABLE = Path(__file__).resolve().parent.parent / "data" / "census-4digit.csv"


def test_a_shorter_code_is_found_as_its_four_digit_twin():
    assert table_code("0.16") == "0.1600" and table_code(".77") == "0.7700" and table_code("4.07") == "4.0700"
    assert table_code("0.12345") is None and table_code("4!.0") is None and table_code("0.8F1F") is None
    assert table_code("0.8") == "0.800" and table_code("0.F8") == "0.F80" and table_code("4.8") is None


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


def test_a_hexadecimal_code_is_found_in_the_hexadecimal_table():
    """0.F8 is 0.F80 of the hexadecimal census: arithmetic period 6, saltus 4 from heap 7, proven by the power-of-two
    saltus theorem, the same game as 0.788 (the values through the period agree, so they agree forever)."""
    found = octal.lookup("0.F8")
    assert found.table.startswith("hexadecimal census") and found.row["theorem"] == "power-of-two saltus theorem"
    assert (found.row["period"], found.row["saltus"], found.row["preperiod"]) == (6, 4, 7)
    v = octal.nim_sequence("0.F8", 600).values, octal.nim_sequence("0.788", 600).values
    assert found.row["class"] == "0.788" and (v[0] == v[1]).all()
    out = subprocess.run([sys.executable, "-m", "octal.front.cli", "show", "0.F8"], capture_output=True, text=True,
                         check=True).stdout
    assert ("census     proven: arithmetic period 6, saltus 4, preperiod 7 (power-of-two saltus theorem: heaps "
            "0..60)") in out
    assert "no regularity found to" in lookup_lines(octal.lookup("0.9"))[1]


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


def test_a_census_names_the_open_codes_the_shipped_table_proves(tmp_path):
    """0.16 stays open within the default 2¹⁶ heaps; the run says the 4-digit table proves it, with how many heaps."""
    r = subprocess.run([sys.executable, "-m", "octal.front.cli", "census", "--codes", "0.16,0.77", "--db",
                        str(tmp_path / "c.sqlite"), "--quiet"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "open here, proven with more heaps in octal's 4-digit table: 0.16 (509,622 heaps)" in r.stdout


@pytest.mark.slow
def test_census_until_proven_escalates_to_the_proof(tmp_path):
    """--until-proven raises the budget to 2²⁰ heaps: 0.56 is proven with the period the shipped table holds."""
    r = subprocess.run([sys.executable, "-m", "octal.front.cli", "census", "--codes", "0.56", "--until-proven",
                        "--db", str(tmp_path / "c.sqlite"), "--quiet"], capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("1 code: 1 proven, 0 open") or r.stdout.startswith("1 codes: 1 proven, 0 open")
    found = octal.lookup("0.56").row
    row = CensusDB.read(tmp_path / "c.sqlite", "")[0]
    assert (row["period"], row["preperiod"], row["proof_bound"]) == (found["period"], found["preperiod"],
                                                                     found["proof_bound"])

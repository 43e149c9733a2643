"""OEIS b-files: `octal run CODE --n N --bfile FILE` writes "n a(n)" lines from n = 0, the offset of the OEIS
entries of octal games; checked against the first values of those entries (tests/data/oeis_first_values.csv)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from typer.testing import CliRunner

from octal.front.cli import app

ENTRIES = list(csv.reader((Path(__file__).parent / "data" / "oeis_first_values.csv").open()))[1:]


@pytest.mark.parametrize("code, name, anumber, values", ENTRIES[:4], ids=[e[2] for e in ENTRIES[:4]])
def test_a_bfile_reads_as_the_oeis_entry(tmp_path, code, name, anumber, values):
    path = tmp_path / f"b{anumber[1:]}.txt"
    r = CliRunner().invoke(app, ["run", code, "--n", "100", "--bfile", str(path), "--quiet"])
    assert r.exit_code == 0, r.output
    lines = path.read_text().splitlines()
    assert lines == [f"{n} {v}" for n, v in enumerate(values.split())]


def test_a_bfile_must_be_a_text_file(tmp_path):
    r = CliRunner().invoke(app, ["run", "kayles", "--bfile", str(tmp_path / "b.csv")])
    assert r.exit_code == 2 and ".txt" in r.output and not (tmp_path / "b.csv").exists()

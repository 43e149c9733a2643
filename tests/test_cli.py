import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from octal import load_values
from octal.engine.periodicity import Periodicity
from octal.engine.threads import available_threads
from octal.front.cli import app
from octal.front.table import MAX_ROWS, MIN_ROWS, rows_worth_showing

runner = CliRunner()


def run(*args):
    return runner.invoke(app, list(args))


def test_kayles_table_is_printed_exactly(kayles_table_lines):
    r = run("run", "0.77", "--n", "84")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[: len(kayles_table_lines)] == kayles_table_lines


def test_run_10000_prints_table_and_proven_period():
    r = run("run", "0.77", "--n", "10000")
    assert r.exit_code == 0
    assert "period 12 from heap 71 (last exception at 70)" in r.output
    assert "proven by the Guy–Smith bound with heaps 0..167" in r.output
    assert " 84+" in r.output and "960+" not in r.output  # only the useful rows
    assert "largest  8, first at heap 27" in r.output


def test_the_table_shows_the_preperiod_and_two_periods_within_its_rows():
    """Kayles' 71 + 2·12 heaps in whole rows; a period of 1 still four rows; 0.354's preperiod of 10,061,916 heaps
    (period 1,180) a hundred rows, not 840,000 lines; no period: a few hundred values."""
    def shown(n0, p, n=10**8, width=12):
        return rows_worth_showing(n, Periodicity(period=p, preperiod=n0), width)
    assert shown(71, 12) == 96 and shown(0, 1) == MIN_ROWS * 12 and shown(71, 12, n=80) == 80
    assert shown(10_061_916, 1_180) == MAX_ROWS * 12 == 1_200 and shown(10_061_916, 1_180, width=5) == MAX_ROWS * 5
    assert shown(1_000, 50) == 1_104 and rows_worth_showing(10**6, Periodicity()) == 300


def test_run_preset_name():
    r = run("run", "kayles")
    assert r.exit_code == 0 and "Kayles" in r.output


def test_json_shape_is_exact():
    r = run("run", "kayles", "--until-proven", "--json", "--threads", "1")
    doc = json.loads(r.output)
    assert list(doc) == ["code", "name", "n", "max", "period", "preperiod", "saltus", "status", "proof_bound",
                         "exceptions", "threads", "theorem", "partial"]  # keys are only ever added: "partial" came last
    assert doc == {"code": "0.77", "name": "Kayles", "n": 168, "max": 8, "period": 12, "preperiod": 71,
                   "saltus": 0, "status": "proven", "proof_bound": 168,
                   "exceptions": [0, 3, 6, 9, 11, 15, 18, 21, 22, 28, 34, 39, 57, 70], "threads": 1,
                   "theorem": "Guy–Smith theorem", "partial": None}
    doc = json.loads(run("run", "0.F8", "--until-proven", "--json").output)
    assert (doc["period"], doc["preperiod"], doc["saltus"], doc["status"], doc["theorem"]) == (
        6, 7, 4, "proven", "power-of-two saltus theorem")
    assert json.loads(run("run", "kayles", "--json").output)["threads"] == available_threads()  # every core
    doc = json.loads(run("run", "0.07", "--n", "30", "--json", "--values").output)
    assert doc["values"][:6] == [0, 0, 1, 1, 2, 0] and doc["status"] == "none"


@pytest.mark.parametrize("suffix", [".npy", ".csv", ".json"])
def test_out_round_trip(tmp_path, suffix):
    out = tmp_path / f"k{suffix}"
    r = run("run", "0.137", "--n", "300", "--out", str(out))
    assert r.exit_code == 0, r.output
    back = load_values(out)
    assert back.tolist() == json.loads(run("run", "0.137", "--n", "300", "--json", "--values").output)["values"]


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["run", "0.7x"], "position 4"),
        (["run", "kayless"], "unknown game"),
        (["run", "0.77", "--n", "0"], "positive"),
        (["run", "0.77", "--n", "-5"], "positive"),
        (["run", "0.77", "--n", str(10**12)], "needs about"),
        (["run", "0.77", "--out", "/nonexistent/dir/x.npy"], "does not exist"),
        (["run", "0.77", "--out", "values.txt"], "suffix"),
        (["run", "1.7"], "d0"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, fragment):
    r = run(*args)
    assert r.exit_code == 2
    assert fragment in r.output
    assert "Traceback" not in r.output
    assert len(r.output.strip().splitlines()) == 1


def test_show_and_presets():
    r = run("show", "0.77")
    assert "remove 1 or 2 tokens from a heap, optionally splitting what remains into two heaps" in r.output
    r = run("presets")
    assert "kayles" in r.output and "treblecross" in r.output


def test_installed_executable():
    exe = shutil.which("octal") or str(Path(sys.executable).parent / "octal")
    if not os.path.exists(exe):
        pytest.skip("the octal executable is not installed in this environment")
    done = subprocess.run([exe, "run", "kayles", "--until-proven"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "period 12 from heap 71" in done.stdout and "proven" in done.stdout
    bad = subprocess.run([exe, "run", "0.7x"], capture_output=True, text=True, timeout=300)
    assert bad.returncode == 2 and bad.stderr.startswith("error:") and "Traceback" not in bad.stderr
    misere = subprocess.run([exe, "solve", "kayles", "4", "1", "--misere", "--json"], capture_output=True, text=True,
                            timeout=300)
    assert misere.returncode == 0, misere.stderr
    assert json.loads(misere.stdout)["outcome"] == "N"


def test_every_subpackage_is_shipped():
    import tomllib

    root = Path(__file__).resolve().parent.parent
    listed = set(tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(root).parts) for p in (root / "octal").rglob("__init__.py")}
    assert found <= listed, f"packages missing from pyproject.toml: {sorted(found - listed)}"


def test_version_and_did_you_mean():
    from octal import __version__

    r = run("--version")
    assert r.exit_code == 0 and r.output.strip() == f"octal {__version__}"
    for typo, meant in (("kayle", "kayles"), ("treblecros", "treblecross"), ("offisers", "officers")):
        r = run("run", typo)
        assert r.exit_code == 2 and f"did you mean '{meant}'?" in r.output and len(r.output.strip().splitlines()) == 1
    r = run("run", "xyzzy")
    assert r.exit_code == 2 and "did you mean" not in r.output and "kayles" in r.output  # no guess: the whole list


def test_show_writes_facts_as_words_in_columns():
    r = run("show", "kayles")
    assert r.exit_code == 0 and "p_portion" not in r.output and "oeis " not in r.output  # no raw key names
    misere = [line for line in r.output.splitlines() if line.startswith("misère")]
    assert any("|P|" in line for line in misere) and "OEIS       A002186" in r.output
    starts = {len(line) - len(line.split("  ")[-1].lstrip()) for line in misere}
    assert len(misere) == 4 and len(starts) == 1  # one column for the values


def test_a_loaded_quotient_says_where_it_was_read(tmp_path):
    f = tmp_path / "k.json"
    assert run("misere", "kayles", "--out", str(f)).exit_code == 0
    r = run("misere", "kayles", "--load", str(f))
    status = next(line for line in r.output.splitlines() if line.startswith("status"))
    assert status == f"status     finite (read from {f} and verified against the rules on heaps 0..167)"

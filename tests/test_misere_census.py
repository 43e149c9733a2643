"""The misère census: published quotients, statuses never mixed up, stored quotients that solve positions,
grouping by equal quotients only, resume after a kill, the CLI."""

import itertools
import json
import sqlite3
import subprocess
import sys
import zlib

import pytest
from processes import kill_after_rows
from typer.testing import CliRunner

from octal import DataFileError, InvalidArgumentError
from octal.census import run_census
from octal.census.misere import DEFAULT_MAX_WORK, MisereDB, load_quotient, misere_report, run_misere_census
from octal.front.cli import app
from octal.misere import MisereSearch, genus_sequence

# the fixture's work budget: a sixth of the default, which settles every finite and bounded row of the two-digit
# census as the default does (same status, order and P-portion, checked on 2026-11-28) in a third of the time;
# only growing rows stop sooner
WORK = DEFAULT_MAX_WORK // 6


@pytest.fixture(scope="module")
def two_digit(tmp_path_factory):
    db = tmp_path_factory.mktemp("mc") / "c.sqlite"
    rows = run_misere_census(2, "0", max_work=WORK, workers=2, db=db)
    return db, {r["code"]: r for r in rows}


@pytest.mark.slow
def test_published_quotients(two_digit):
    _, rows = two_digit
    kayles, r8 = rows["0.77"], rows["0.75"]
    assert (kayles["status"], kayles["q_order"], kayles["p_portion"], kayles["period"], kayles["preperiod"]) == (
        "finite", 40, 9, 12, 71)  # Sibert–Conway; Plambeck–Siegel
    assert (r8["status"], r8["q_order"], r8["p_portion"]) == ("finite", 8, 2)
    assert kayles["tame"] == 0 and r8["tame"] == 0
    assert rows["0.07"]["status"] == "growing" and rows["0.07"]["p_portion"] is None
    assert len(rows) == 63 and {r["status"] for r in rows.values()} <= {"finite", "bounded", "growing"}


UNDER_LOAD = ["0.07", "0.17", "0.40", "0.44", "0.64", "0.75", "0.77"]  # rows whose work budget stops them (growing,
# bounded) and finite ones: each status, about 5 s of work on an idle machine (the whole census is 20 s)


@pytest.mark.slow
def test_the_same_census_under_load_writes_the_same_table(two_digit, tmp_path):
    """Budgets count work, not seconds: with both cores busy with other work, the census of codes of each status is
    row for row what the fixture computed on an idle machine (only the measured seconds and the date may differ)."""
    whole, _ = two_digit
    db = tmp_path / "idle.sqlite"  # the fixture's rows of those codes
    db.write_bytes(whole.read_bytes())
    with sqlite3.connect(db) as con:
        con.execute(f"DELETE FROM misere WHERE code NOT IN ({','.join('?' * len(UNDER_LOAD))})", UNDER_LOAD)
    burn = "import time\nend = time.time() + 300\nwhile time.time() < end: pass"
    hogs = [subprocess.Popen([sys.executable, "-c", burn]) for _ in range(2)]
    try:
        loaded = tmp_path / "loaded.sqlite"
        run_misere_census(0, codes=UNDER_LOAD, max_work=WORK, workers=2, db=loaded)
    finally:
        for h in hogs:
            h.kill()
            h.wait()

    def table(path):
        keep = ("seconds", "updated")
        return [{k: v for k, v in r.items() if k not in keep}
                for r in sqlite3.connect(path).execute("SELECT * FROM misere ORDER BY code").fetchall()
                for r in [dict(zip(COLUMNS, r))]]

    assert [r["code"] for r in table(db)] == UNDER_LOAD
    assert table(loaded) == table(db)
    assert misere_report(loaded, "markdown") == misere_report(db, "markdown")


COLUMNS = MisereDB.COLUMNS


@pytest.mark.slow
def test_a_rerun_within_the_same_or_a_smaller_budget_recomputes_nothing(two_digit, tmp_path):
    db, _ = two_digit
    copy = tmp_path / "copy.sqlite"
    copy.write_bytes(db.read_bytes())
    computed = []
    for budget in ({"max_work": WORK}, {"max_work": 1_000_000, "max_order": 100}, {"max_heap": 50, "max_work": WORK}):
        run_misere_census(2, "0", workers=1, db=copy, progress=computed.append, **budget)
    assert computed == []  # the progress callback hears of every row computed: none
    # a larger budget recomputes the rows it can take further (not the finite ones, which are final)
    run_misere_census(0, codes=["0.07", "0.77"], max_work=WORK + 1, workers=1, db=copy,
                      progress=computed.append)
    assert len(computed) == 1 and computed[0].counts["growing"] == 1
    # a row of an older octal, whose budget was counted in seconds, is computed again
    with sqlite3.connect(copy) as con:
        con.execute("UPDATE misere SET budget = 'heaps 200, order 150, 4 s' WHERE code = '0.04'")
    computed.clear()
    run_misere_census(0, codes=["0.04", "0.07"], max_work=WORK + 1, workers=1, db=copy,
                      progress=computed.append)
    assert len(computed) == 1


@pytest.mark.slow
def test_dawsons_chess_and_nim(tmp_path):
    rows = {r["code"]: r for r in run_misere_census(0, codes=["0.137", "0.[3]"], max_heap=3, workers=1,
                                                    db=tmp_path / "c.sqlite")}
    nim = rows["0.[3]"]
    # heaps ≤ 3 of Nim: the tame quotient of *0..*3 (Conway: the misère quotient of nim heaps below 4 has order 6)
    assert (nim["status"], nim["q_order"], nim["tame"], nim["max_heap"]) == ("bounded", 6, 1, 3)
    rows = {r["code"]: r for r in run_misere_census(0, codes=["0.137"], max_work=WORK, workers=1,
                                                    db=tmp_path / "d.sqlite")}
    assert rows["0.137"]["status"] == "growing"


@pytest.mark.slow  # its fixture computes the published quotients (about a minute)
def test_stored_quotients_solve_positions_like_the_search(two_digit):
    db, rows = two_digit
    finite = sorted(c for c, r in rows.items() if r["status"] == "finite")
    assert len(finite) >= 20
    for code in finite[::3]:
        q = load_quotient(db, code)  # verified again as it is read
        search = MisereSearch(code)
        for total in range(0, 15):
            for heaps in _positions(total):
                assert q.is_p(heaps) == search.is_p(heaps), (code, heaps)


def _positions(total, most=3):
    for k in range(0, most + 1):
        for heaps in itertools.combinations_with_replacement(range(1, total + 1), k):
            if sum(heaps) == total:
                yield heaps


@pytest.mark.slow  # the two-digit misère census fixture (about a minute)
def test_groups_only_equal_quotients(two_digit, tmp_path):
    db, rows = two_digit
    assert rows["0.50"]["class"] == rows["0.70"]["class"] == "0.30"  # one misère game, written three ways
    for _code, r in rows.items():
        if r["status"] == "growing":
            assert r["class"] is None  # never grouped on a partial quotient
    # 0.203 and 0.241 have the same nim sequence (one game in normal play) but not the same misère quotient
    twins = ["0.203", "0.241"]
    normal = {r["code"]: r for r in run_census(0, codes=twins, max_n=4096, workers=1, db=tmp_path / "n.sqlite")}
    assert normal["0.203"]["class"] == normal["0.241"]["class"]
    mis = {r["code"]: r for r in run_misere_census(0, codes=twins, workers=1, db=tmp_path / "m.sqlite")}
    assert (mis["0.203"]["q_order"], mis["0.241"]["q_order"]) == (6, 36)
    assert mis["0.203"]["class"] != mis["0.241"]["class"]
    a, b = MisereSearch("0.203"), MisereSearch("0.241")
    assert any(a.is_p(h) != b.is_p(h) for total in range(1, 13) for h in _positions(total))


@pytest.mark.slow  # the two-digit misère census fixture (about a minute)
def test_damaged_or_missing_quotients_are_refused(two_digit, tmp_path):
    db, _ = two_digit
    copy = tmp_path / "copy.sqlite"
    copy.write_bytes(db.read_bytes())
    con = sqlite3.connect(copy)
    doc = json.loads(zlib.decompress(con.execute("SELECT quotient FROM misere WHERE code = '0.75'").fetchone()[0]))
    doc["phi"][3] = 0
    with con:
        con.execute("UPDATE misere SET quotient = ? WHERE code = '0.75'", (zlib.compress(json.dumps(doc).encode()),))
        con.execute("UPDATE misere SET quotient = ? WHERE code = '0.77'", (b"garbage",))
    with pytest.raises(DataFileError):
        load_quotient(copy, "0.75")
    with pytest.raises(DataFileError, match="damaged"):
        load_quotient(copy, "0.77")
    with pytest.raises(DataFileError, match="no misère quotient of 0.07"):
        load_quotient(copy, "0.07")
    with pytest.raises(DataFileError, match="no census database"):
        load_quotient(tmp_path / "none.sqlite", "0.77")


def test_budgets_are_checked():
    for kwargs in ({"max_heap": 0}, {"max_order": -1}, {"max_work": 0}, {"max_work": 2.5}, {"workers": 0}):
        with pytest.raises(InvalidArgumentError):
            run_misere_census(1, **kwargs)


@pytest.mark.slow
def test_killed_misere_census_keeps_whole_rows_and_resumes(tmp_path):
    db = tmp_path / "c.sqlite"
    cmd = [sys.executable, "-m", "octal.front.cli", "census", "--digits", "2", "--misere", "--workers", "1",
           "--max-order", "60", "--max-work", "1000000",
           "--db", str(db), "--quiet"]
    kill_after_rows(cmd, db, "misere", 10)
    rows = sqlite3.connect(db).execute("SELECT code, status, q_order FROM misere").fetchall()
    assert 0 < len(rows) < 63 and all(s in ("finite", "bounded", "growing") and q >= 1 for _, s, q in rows)
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "63 codes" in done.stdout
    assert sqlite3.connect(db).execute("SELECT COUNT(*) FROM misere").fetchone()[0] == 63


@pytest.mark.slow  # the two-digit misère census fixture (about a minute)
def test_cli_report_and_quotient(two_digit, tmp_path):
    db, _ = two_digit
    runner = CliRunner()
    r = runner.invoke(app, ["census", "report", "--misere", "--db", str(db)])
    assert r.exit_code == 0 and "0.77" in r.output and "63 codes:" in r.output and "growing" in r.output
    doc = json.loads(runner.invoke(app, ["census", "report", "--misere", "--db", str(db), "--format", "json"]).output)
    assert doc["finite"] + doc["bounded"] + doc["growing"] == 63
    assert misere_report(db, "markdown").startswith("| code |")
    out = tmp_path / "k.json"
    r = runner.invoke(app, ["census", "quotient", "kayles", "--db", str(db), "--out", str(out)])
    assert r.exit_code == 0 and "|Q| = 40, |P| = 9" in r.output
    r = runner.invoke(app, ["solve", "kayles", "1000000", "9", "4", "--misere", "--quotient", str(out)])
    assert r.exit_code == 0 and "outcome" in r.output
    r = runner.invoke(app, ["census", "quotient", "0.07", "--db", str(db)])
    assert r.exit_code == 2 and "no misère quotient" in r.output


@pytest.mark.slow  # the two-digit misère census fixture (about a minute)
def test_tame_rows_have_tame_genus(two_digit):
    """A row marked tame has the quotient of nim heaps, so every heap's genus is a nim heap's; a wild row has a wild
    heap among those it settled (Kayles: heap 5 onwards)."""
    _, rows = two_digit
    tame = [c for c, r in rows.items() if r["tame"] == 1]
    wild = [c for c, r in rows.items() if r["tame"] == 0 and r["status"] == "finite" and r["max_heap"] <= 20]
    assert tame and wild
    for code in tame[::2]:
        assert all(g.tame for g in genus_sequence(code, min(rows[code]["max_heap"] + 1, 14))), code
    for code in wild:
        assert not all(g.tame for g in genus_sequence(code, rows[code]["max_heap"] + 1)), code

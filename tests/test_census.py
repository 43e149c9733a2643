"""The census: enumeration, published facts, resume, equivalences, pool versus a real Dask LocalCluster."""

import contextlib
import json
import socket
import sqlite3
import subprocess
import sys

import numpy as np
import pytest
from processes import kill_after_rows
from typer.testing import CliRunner

import octal.census.jobs as jobs
from octal import DataFileError, InvalidArgumentError, nim_sequence
from octal.census import CensusDB, enumerate_codes, merge_census, normal, report, run_census, stages, stored_sequence
from octal.census import store as store_module
from octal.census.jobs import named_codes, shard_of
from octal.census.store import row_values
from octal.front.cli import app


def test_enumeration_counts():
    assert len(enumerate_codes(3, "0")) == 511
    assert len(enumerate_codes(3, "both")) == 1023
    assert enumerate_codes(1, "0") == [f"0.{d}" for d in range(1, 8)]


@pytest.mark.slow
@pytest.mark.parametrize(
    "code, preperiod, period, max_n",
    [("0.156", 3479, 349, 2**15), ("0.165", 5181, 1550, 2**15), ("0.356", 7315, 142, 2**15),
     ("0.644", 3256, 442, 2**15), ("0.127", 46578, 4, 2**18), ("0.16", 105351, 149459, 2**20),
     ("0.56", 326640, 144, 2**21)],
)
def test_published_periods(tmp_path, code, preperiod, period, max_n):
    rows = run_census(0, codes=[code], max_n=max_n, workers=1, db=tmp_path / "c.sqlite")
    (row,) = rows
    assert (row["status"], row["preperiod"], row["period"]) == ("proven", preperiod, period)


@pytest.mark.slow
def test_two_digit_census_classes_and_cousins(tmp_path):
    db = tmp_path / "c.sqlite"
    rows = {r["code"]: r for r in run_census(2, "0", 4096, workers=2, db=db)}
    assert len(rows) == 63
    assert rows["0.07"]["status"] == "proven" and (rows["0.07"]["preperiod"], rows["0.07"]["period"]) == (53, 34)
    assert rows["0.77"]["period"] == 12 and rows["0.77"]["preperiod"] == 71
    # 0.20, 0.21, 0.24, 0.25 play the same game as 0.05 (checked here against the values themselves)
    for c in ["0.20", "0.21", "0.24", "0.25"]:
        assert rows[c]["class"] == "0.05"
        assert np.array_equal(nim_sequence(c, 500).values, nim_sequence("0.05", 500).values)
    rows3 = {r["code"]: r
             for r in run_census(0, codes=["0.137", "0.07"], max_n=4096, workers=1, db=tmp_path / "d.sqlite")}
    assert rows3["0.07"]["cousin"] == "0.137+1"
    g07, g137 = nim_sequence("0.07", 300).values, nim_sequence("0.137", 300).values
    assert np.array_equal(g07[1:], g137[:-1])


def test_rerun_skips_proven_and_extends_open_from_stored_values(tmp_path):
    db = tmp_path / "c.sqlite"
    run_census(0, codes=["0.6", "0.77"], max_n=1024, workers=1, db=db)
    store = CensusDB(db)
    first = {r["code"]: r for r in store.rows()}
    store.close()
    assert first["0.6"]["status"] == "open" and first["0.6"]["n"] == 1024
    rows = {r["code"]: r for r in run_census(0, codes=["0.6", "0.77"], max_n=8192, workers=1, db=db)}
    assert rows["0.6"]["n"] == 8192 and rows["0.77"]["updated"] == first["0.77"]["updated"]
    assert np.array_equal(row_values(rows["0.6"]), nim_sequence("0.6", 8192).values)
    # the same or a smaller budget again: nothing is computed (the progress callback hears of every row computed)
    computed = []
    for max_n in (8192, 4096):
        run_census(0, codes=["0.6", "0.77"], max_n=max_n, workers=1, db=db, progress=computed.append)
    assert computed == []


@pytest.mark.slow
def test_pool_and_dask_local_cluster_agree(tmp_path):
    pytest.importorskip("dask.distributed")
    codes = enumerate_codes(2, "0")[:24]
    keep = ["code", "status", "preperiod", "period", "max_value", "n", "class", "cousin"]
    pool = run_census(0, codes=codes, max_n=4096, workers=2, db=tmp_path / "pool.sqlite")
    dask = run_census(0, codes=codes, max_n=4096, workers=2, dask="local", db=tmp_path / "dask.sqlite")
    assert [{k: r[k] for k in keep} for r in pool] == [{k: r[k] for k in keep} for r in dask]


def test_one_pool_serves_every_stage_and_is_closed_at_the_end(tmp_path, monkeypatch):
    """0.16 and 0.56 stay open past 2¹² heaps, so a census to 2¹³ runs two stages: one pool of workers for both (its
    workers load the kernels once), shut down when the census ends, with the rows one process computes."""
    started = []

    def executor(workers, dask):
        made = real(workers, dask)
        started.append(made[0])
        return made

    real = jobs._executor
    monkeypatch.setattr(jobs, "_executor", executor)
    assert stages(8192) == [4096, 8192]
    rows = run_census(0, codes=["0.16", "0.56"], max_n=8192, workers=2, db=tmp_path / "pool.sqlite")
    assert [(r["status"], r["n"]) for r in rows] == [("open", 8192)] * 2
    assert len(started) == 1 and started[0]._shutdown_thread
    alone = run_census(0, codes=["0.16", "0.56"], max_n=8192, workers=1, db=tmp_path / "one.sqlite")
    assert [row_values(r).tolist() for r in rows] == [row_values(r).tolist() for r in alone]


def test_remote_scheduler_address(tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        rows = run_census(0, codes=["0.07", "0.77"], max_n=4096, dask=cluster.scheduler_address,
                          db=tmp_path / "c.sqlite")
    assert [(r["code"], r["period"], r["preperiod"]) for r in rows] == [("0.07", 34, 53), ("0.77", 12, 71)]
    assert all(r["proof_bound"] == 2 * r["preperiod"] + 2 * r["period"] + 2 for r in rows)


def test_dask_missing_says_how_to_install(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "dask.distributed", None)  # import now fails as if not installed
    r = CliRunner().invoke(app, ["census", "--digits", "1", "--dask", "local", "--db", str(tmp_path / "c.sqlite")])
    assert r.exit_code == 2 and "pip install '.[dask]'" in r.output  # the install command the README gives


@pytest.mark.slow
def test_killed_census_keeps_whole_rows_and_resumes(tmp_path):
    db = tmp_path / "c.sqlite"
    cmd = [sys.executable, "-m", "octal.front.cli", "census", "--digits", "3", "--max-n", "4096", "--workers", "1",
           "--db", str(db), "--quiet"]
    kill_after_rows(cmd, db, "codes", 20)
    rows = sqlite3.connect(db).execute("SELECT code, status, n FROM codes").fetchall()
    assert 0 < len(rows) < 511 and all(n >= 1024 for _, _, n in rows)
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert sqlite3.connect(db).execute("SELECT COUNT(*) FROM codes").fetchone()[0] == 511


def test_report_formats(tmp_path):
    db = tmp_path / "c.sqlite"
    run_census(1, "0", 4096, workers=1, db=db)
    table = report(db, "table")
    assert table.splitlines()[0].startswith("code") and "7 codes:" in table
    doc = json.loads(report(db, "json"))
    assert doc["proven"] + doc["open"] == 7 and doc["codes"][0]["code"] == "0.1"
    assert report(db, "markdown").startswith("| code |")
    assert report(db, "csv").splitlines()[0].startswith("code,status,preperiod,period")


runner = CliRunner()


@pytest.mark.slow
def test_cli(tmp_path):
    db = str(tmp_path / "c.sqlite")
    r = runner.invoke(app, ["census", "--digits", "1", "--db", db, "--workers", "1", "--quiet"])
    assert r.exit_code == 0 and "7 codes" in r.output
    r = runner.invoke(app, ["census", "report", "--db", db, "--format", "markdown"])
    assert r.exit_code == 0 and "| 0.7 |" in r.output
    r = runner.invoke(app, ["census", "report", "--db", str(tmp_path / "none.sqlite")])
    assert r.exit_code == 2 and "no census database" in r.output
    r = runner.invoke(app, ["census", "--digits", "9", "--db", db])
    assert r.exit_code == 2 and "--digits" in r.output


@pytest.mark.parametrize("args", [[], ["--misere"]])
def test_a_report_never_writes(tmp_path, args):
    """`census report` reads: an empty file named by mistake is refused in one line and left as it was (it used to
    become a database), and a census file is left byte for byte."""
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    r = CliRunner().invoke(app, ["census", "report", "--db", str(empty), *args])
    assert r.exit_code == 2 and "no such table" in r.output and empty.read_bytes() == b""
    db = tmp_path / "c.sqlite"
    run_census(1, db=db, workers=1)
    before = db.read_bytes()
    CliRunner().invoke(app, ["census", "report", "--db", str(db), *args])
    assert db.read_bytes() == before


@pytest.mark.slow
@pytest.mark.parametrize("how", [[], ["--dask", "local"], ["--misere", "--max-work", "1000000"]],
                         ids=["pool", "dask", "misere"])  # misère rows at a small budget: the first rows come sooner
def test_ctrl_c_to_the_census_alone_is_one_line(tmp_path, how):
    """SIGINT to the census's own process (not its workers') while it computes ends it with 'interrupted' and status
    130: no worker's traceback, no cluster's log lines. The signal is sent once rows are being written (the pool or
    cluster is up), not after a fixed time, so the test does not depend on the machine's load."""
    import signal
    import time

    if how == ["--dask", "local"]:
        pytest.importorskip("dask.distributed")
    db = tmp_path / "c.sqlite"
    table = "misere" if "--misere" in how else "codes"
    dashboard = socket.socket()  # Dask's own port held, as a notebook's cluster would: still not a word from Dask
    with contextlib.suppress(OSError):
        dashboard.bind(("", 8787))
        dashboard.listen()
    p = subprocess.Popen([sys.executable, "-m", "octal.front.cli", "census", "--digits", "3", *how, "--workers", "2",
                          "--db", str(db), "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline, rows = time.time() + 120, 0
    while rows < 3 and time.time() < deadline and p.poll() is None:
        time.sleep(0.2)
        try:
            rows = sqlite3.connect(db).execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0] if db.exists() else 0
        except sqlite3.Error:
            rows = 0
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=120)
    dashboard.close()
    assert p.returncode == 130 and err.strip() == "interrupted", err[-2000:]


def test_stages_grow_to_the_budget():
    assert stages(65536) == [4096, 65536]
    assert stages(2**21) == [4096, 65536, 2**20, 2**21]
    assert stages(4096) == [4096] and stages(1000) == [1000]


def test_escalation_proves_each_code_within_the_smallest_stage_and_never_recomputes_it(tmp_path, monkeypatch):
    """Every code runs to the first budget, only the open ones go on; each row names the budget that proved it."""
    monkeypatch.setattr(normal, "STAGES", (256,))
    db = tmp_path / "c.sqlite"
    seen = []
    rows = {r["code"]: r for r in run_census(0, codes=["0.77", "0.044", "0.6"], max_n=1024, workers=1, db=db,
                                             progress=seen.append)}
    # Kayles' certificate needs 168 heaps, 0.044's 503: proven within 256 and within 1,024 heaps
    assert (rows["0.77"]["status"], rows["0.77"]["budget"]) == ("proven", 256)
    assert (rows["0.044"]["status"], rows["0.044"]["budget"], rows["0.044"]["proof_bound"]) == ("proven", 1024, 503)
    assert (rows["0.6"]["status"], rows["0.6"]["budget"], rows["0.6"]["n"]) == ("open", 1024, 1024)
    assert [p.budget for p in seen] == [256] * 3 + [1024] * 2  # the second stage ran the two codes still open
    again = {r["code"]: r for r in run_census(0, codes=["0.77", "0.044", "0.6"], max_n=2048, workers=1, db=db)}
    assert all(again[c]["updated"] == rows[c]["updated"] for c in ("0.77", "0.044"))
    assert again["0.6"]["n"] == 2048 and np.array_equal(row_values(again["0.6"]), nim_sequence("0.6", 2048).values)
    assert "proven within 256 heaps: 1 · 1,024 heaps: 1" in CliRunner().invoke(
        app, ["census", "--digits", "0", "--codes", "0.77,0.044", "--max-n", "1024", "--db", str(db)]).output


def test_open_rows_past_the_resume_limit_keep_their_head_and_start_again(tmp_path, monkeypatch):
    """Past RESUME_MAX heaps an open row keeps KEPT_HEAD values (the database stays small); it still verifies, and a
    later stage computes it again from heap 0, to the same values."""
    for module in (normal, store_module):
        monkeypatch.setattr(module, "RESUME_MAX", 2048)
    db = tmp_path / "c.sqlite"
    (row,) = run_census(0, codes=["0.6"], max_n=4096, workers=1, db=db)
    assert row["n"] == 4096 and len(row_values(row)) == store_module.KEPT_HEAD
    assert stored_sequence(row).values.size == store_module.KEPT_HEAD and normal._resumable(row) == (None, None)
    assert "0.6" in report(db)
    (row,) = run_census(0, codes=["0.6"], max_n=8192, workers=1, db=db)
    full = nim_sequence("0.6", 8192).values
    assert row["n"] == 8192 and row["max_value"] == full.max()
    assert np.array_equal(row_values(row), full[: store_module.KEPT_HEAD])
    conn = sqlite3.connect(db)  # a head shorter than KEPT_HEAD, or a largest value below the head's, is refused
    conn.execute("UPDATE codes SET max_value = 1"), conn.commit()
    with pytest.raises(DataFileError, match="largest value"):
        report(db)


def test_shards_merge_into_the_census_computed_whole(tmp_path):
    codes = enumerate_codes(2, "0")[:21]
    keep = ["code", "status", "preperiod", "period", "proof_bound", "max_value", "n", "class", "cousin", "budget"]
    whole = run_census(0, codes=codes, max_n=2048, workers=2, db=tmp_path / "whole.sqlite")
    parts = [tmp_path / f"s{i}.sqlite" for i in (1, 2, 3)]
    for i, part in enumerate(parts, 1):
        shard = run_census(0, codes=codes, max_n=2048, workers=1, db=part, shard=f"{i}/3")
        assert [r["code"] for r in shard] == codes[i - 1 :: 3]
    r = CliRunner().invoke(app, ["census", "merge", *map(str, parts), "--db", str(tmp_path / "m.sqlite")])
    assert r.exit_code == 0 and "merged     21 rows from 3 files" in r.output
    merged = CensusDB.read(tmp_path / "m.sqlite", "")
    assert [{k: x[k] for k in keep} for x in merged] == [{k: x[k] for k in keep} for x in whole]
    # a shard holding a further-computed row wins; merging into one of the sources is refused
    assert merge_census(parts, tmp_path / "m.sqlite") == 0
    with pytest.raises(InvalidArgumentError, match="merged into"):
        merge_census(parts, parts[0])


@pytest.mark.parametrize("args, message", [
    (["--shard", "4/3"], "--shard takes i/k"), (["--shard", "x"], "--shard takes i/k"),
    (["--codes", "0.77,0.G"], "octal or hexadecimal codes"), (["--codes", "0.77,0.9x"], ""),
    (["--codes", ","], "no codes named"),
])
def test_bad_codes_and_shards_are_one_line(tmp_path, args, message):
    r = CliRunner().invoke(app, ["census", *args, "--db", str(tmp_path / "c.sqlite")])
    assert r.exit_code == 2 and message in r.output and len(r.output.strip().splitlines()) == 1, r.output
    assert not (tmp_path / "c.sqlite").exists()


def test_codes_from_a_file(tmp_path):
    codes = tmp_path / "codes.txt"
    codes.write_text("# two games\n0.77 .07\n0.77, 4.07  # Kayles twice: once\n")
    r = CliRunner().invoke(app, ["census", "--codes", str(codes), "--max-n", "1024", "--db", str(tmp_path / "c.db")])
    assert r.exit_code == 0, r.output
    assert [x["code"] for x in CensusDB.read(tmp_path / "c.db", "")] == ["0.07", "0.77", "4.07"]


def test_a_file_written_before_the_budget_column_reads_and_gains_it(tmp_path):
    db = tmp_path / "old.sqlite"
    run_census(1, "0", 1024, workers=1, db=db)
    conn = sqlite3.connect(db)
    for column in ("theorem", "saltus", "sig", "budget"):
        conn.execute(f"ALTER TABLE codes DROP COLUMN {column}")
    conn.commit(), conn.close()  # a file from before the columns (budget, sig, then saltus and theorem) were added
    assert all(r["budget"] is None for r in CensusDB.read(db, ""))  # read only: as it is, the column empty
    assert "budget" not in [c[1] for c in sqlite3.connect(db).execute("PRAGMA table_info(codes)")]
    rows = run_census(0, codes=["0.6"], max_n=2048, workers=1, db=db)  # written: the column is added
    assert rows[0]["budget"] == 2048
    conn = sqlite3.connect(db)
    conn.execute("UPDATE codes SET budget = 100 WHERE code = '0.6'"), conn.commit()
    with pytest.raises(DataFileError, match="budget"):
        report(db)


def test_shards_cover_every_code_once_and_named_codes_are_normalised():
    codes = enumerate_codes(3, "both")
    shares = [shard_of(codes, f"{i}/4") for i in range(1, 5)]
    assert sorted(sum(shares, []), key=codes.index) == codes and sum(map(len, shares)) == len(codes)
    assert shard_of(codes, " 2 / 4 ") == shares[1] and shard_of(codes, None) == codes
    assert named_codes([".77", "0.77", " 4.07 "]) == ["0.77", "4.07"]
    for bad in ("0.77", 5):
        with pytest.raises(InvalidArgumentError, match="list of octal codes"):
            named_codes(bad)
    with pytest.raises(InvalidArgumentError, match="octal or hexadecimal codes"):
        named_codes(["4!.0"])  # Grundy's game: a constraint, not a plain octal code
    assert named_codes(["0.F8"]) == ["0.F8"]


def test_a_proven_row_is_never_replaced_by_an_open_one_and_merge_repairs_damage(tmp_path):
    """Two writers of one file (two censuses, or a merge beside a census): the proven or further row stays."""
    db = tmp_path / "c.sqlite"
    (proven,) = run_census(0, codes=["0.77"], max_n=1024, workers=1, db=db)
    store = CensusDB(db)
    store.store({**normal.compute_code("0.77", 64), "status": "open", "preperiod": None, "period": None,
                 "proof_bound": None})  # a stale open result arriving late
    assert store.row("0.77")["status"] == "proven" and store.row("0.77")["updated"] == proven["updated"]
    store.close()
    conn = sqlite3.connect(db)  # a damaged row claiming more heaps than it has: the merge replaces it
    conn.execute("UPDATE codes SET n = 999999, status = 'open' WHERE code = '0.77'"), conn.commit(), conn.close()
    src = tmp_path / "s.sqlite"
    run_census(0, codes=["0.77"], max_n=1024, workers=1, db=src)
    assert merge_census([src], db) == 1 and report(db).count("proven") >= 1
    with pytest.raises(InvalidArgumentError, match="list of paths"):
        merge_census(str(src), db)


def test_long_code_lists_and_columns_with_a_table(tmp_path):
    many = ",".join(enumerate_codes(2, "0")[:40])  # longer than a file name may be
    r = CliRunner().invoke(app, ["census", "--codes", many, "--max-n", "256", "--workers", "1",
                                 "--db", str(tmp_path / "c.sqlite")])
    assert r.exit_code == 0 and "40 codes" in r.output, r.output
    r = CliRunner().invoke(app, ["census", "report", "--columns", "code", "--db", str(tmp_path / "c.sqlite")])
    assert r.exit_code == 2 and "--columns goes with --format csv or json" in r.output


def test_a_head_only_row_must_name_the_stage_that_wrote_it(tmp_path, monkeypatch):
    for module in (normal, store_module):
        monkeypatch.setattr(module, "RESUME_MAX", 2048)
    db = tmp_path / "c.sqlite"
    run_census(0, codes=["0.6"], max_n=4096, workers=1, db=db)
    conn = sqlite3.connect(db)
    conn.execute("UPDATE codes SET n = 1000000000000, budget = NULL"), conn.commit()
    with pytest.raises(DataFileError, match="values for"):
        report(db)

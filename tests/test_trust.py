"""A file read back, or values handed in, are checked against the rules, not only a checksum: edits that keep (or
recompute) the SHA-256 never yield a value or a "proven" the rules do not give (issue: the trust boundary)."""

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from octal import GrundySequence, InvalidArgumentError, find_period, nim_sequence, parse_code
from octal.engine import grundy, kernels, memory
from octal.engine.checkpoint import CheckpointError, digest, save_checkpoint
from octal.engine.grundy import first_wrong_value, recheck_heaps
from octal.engine.sequence import load_checkpoint
from octal.front.cli import app

runner = CliRunner()


def _rewrite(path, header_edit=None, values_edit=None, rehash=True):
    """Edit a checkpoint's header and values, then (like a careful forger) recompute its checksum."""
    with np.load(path) as z:
        arrays = {k: z[k].copy() for k in z.files}
    header = json.loads(bytes(arrays.pop("header")).decode())
    if header_edit:
        header.update(header_edit)
    if values_edit:
        values_edit(arrays["values"])
    if rehash:
        header["sha256"] = digest(arrays["values"], arrays["rare"], header)
    np.savez(path, **arrays, header=np.frombuffer(json.dumps(header).encode(), np.uint8))


def _checkpoint(tmp_path, code="0.07", n=400):
    seq = GrundySequence(parse_code(code))
    seq.extend(n)
    return save_checkpoint(tmp_path, seq)


def test_a_proof_never_rests_on_a_value_the_sample_did_not_check(tmp_path):
    """S(1,2,5) has period 3 from heap 0. One value of its checkpoint changed where the sampled recheck does not look
    (checksum recomputed) must not become "period 3 from heap 15,001 — proven": the heaps the proof reads are computed
    again, and the changed one is named."""
    n, bad = 20_000, 15_000
    assert bad not in set(recheck_heaps(n).tolist()) and bad >= 1024  # outside the sample: only the proof sees it
    truth = nim_sequence("S(1,2,5)", n, checkpoint=tmp_path)
    assert (truth.periodicity.period, truth.periodicity.preperiod) == (3, 0)
    _rewrite(tmp_path / "checkpoint.npz", values_edit=lambda v: v.__setitem__(bad, (int(v[bad]) + 3) % 4))
    with pytest.raises(CheckpointError, match=f"G\\({bad:,}\\)"):
        nim_sequence("S(1,2,5)", 30_000, checkpoint=tmp_path)
    r = runner.invoke(app, ["run", "S(1,2,5)", "--n", "30000", "--checkpoint", str(tmp_path)])
    assert r.exit_code == 2 and "proven" not in r.output and f"G({bad:,})" in r.output
    fresh = nim_sequence("S(1,2,5)", 30_000, resume=truth.values)  # values handed in that are right: proven
    assert fresh.periodicity.status == "proven" and fresh.periodicity.preperiod == 0


@pytest.mark.parametrize("other", ["0.7", "0.77"])
def test_the_checksum_covers_the_code(tmp_path, other):
    """Dawson's Kayles' checkpoint with its header's code edited is refused, never read as another game's values."""
    path = _checkpoint(tmp_path)
    _rewrite(path, {"code": other}, rehash=False)
    r = runner.invoke(app, ["run", other, "--n", "400", "--checkpoint", str(tmp_path)])
    assert r.exit_code == 2 and "checksum" in r.output and "proven" not in r.output


@pytest.mark.parametrize("edit", [
    lambda v: v.__setitem__(slice(None), 0),
    lambda v: v.__setitem__(399, v[399] ^ 1),  # the last value, where a resumed run goes on from
    lambda v: v.__setitem__(200, v[200] ^ 2),
])
def test_a_rehashed_checkpoint_with_wrong_values_is_refused(tmp_path, edit):
    path = _checkpoint(tmp_path)
    _rewrite(path, values_edit=edit)
    with pytest.raises(CheckpointError, match="does not follow the rules of 0.07"):
        load_checkpoint(tmp_path, parse_code("0.07"))
    r = runner.invoke(app, ["run", "0.07", "--n", "600", "--checkpoint", str(tmp_path)])
    assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1


def test_a_rehashed_foreign_checkpoint_is_refused(tmp_path):
    """Kayles' values relabelled as Dawson's Kayles', checksum and all: the rules of 0.07 refuse them."""
    path = _checkpoint(tmp_path, "0.77")
    _rewrite(path, {"code": "0.07"})
    with pytest.raises(CheckpointError, match="does not follow the rules"):
        load_checkpoint(tmp_path, parse_code("0.07"))


def test_values_handed_in_are_checked_like_values_read_back():
    with pytest.raises(InvalidArgumentError, match="not those of 0.77"):
        GrundySequence("0.77", values=[5, 5, 5])
    with pytest.raises(InvalidArgumentError, match="not those of 0.77"):
        nim_sequence("0.77", 200, resume=np.zeros(500, np.uint8))
    good = nim_sequence("0.77", 500).values
    assert nim_sequence("0.77", 800, resume=good).periodicity.status == "proven"


@pytest.mark.parametrize("compiled", [False, True], ids=["numpy", "compiled"])
def test_the_recheck_finds_any_sampled_wrong_value(compiled, monkeypatch):
    """Both paths of the recheck (numpy for one short command, compiled in a census) find every edit they read."""
    if compiled:
        kernels.load_compiled()
    monkeypatch.setattr(grundy, "_naive_loaded", lambda: compiled)
    for code in ("0.77", "0.6", "4.07", "0.4!4", "4!.0", "0.F", "4.3647"):
        c = parse_code(code)
        values = nim_sequence(c, 3000).values.astype(np.int64)
        assert first_wrong_value(c, values) is None, code
        octal = c.tier == "octal"  # other codes: their first RECHECK_PREFIX heaps recomputed whole
        heaps = [3, 500, 1023, *recheck_heaps(3000)] if octal else range(1, grundy.RECHECK_PREFIX, 97)
        for h in list(heaps)[1::7] + [2, 700 if octal else grundy.RECHECK_PREFIX - 1]:
            bad = values.copy()
            bad[h] += 1
            assert first_wrong_value(c, bad) is not None, (code, h)
        if c.tier == "octal":  # a huge value at a heap no sample reads: above its number of options, so refused
            bad = values.copy()
            bad[1500] = 2**40
            assert first_wrong_value(c, bad) == 1500, code


def test_find_period_proves_only_the_codes_own_sequence():
    """Values handed in with a code are checked by the mex recurrence: another sequence is refused, never judged."""
    kayles = nim_sequence("0.77", 1000).values
    assert find_period(kayles, "0.77").status == "proven"
    wrong = kayles.copy()
    wrong[5] = 9  # G(5) = 4 in Kayles
    cycled = np.array([0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6] * 100, np.uint8)  # Kayles' period from heap 0: not Kayles
    for values, code in ((np.zeros(1000, np.uint8), "0.77"), (kayles, "0.07"), (wrong, "0.77"), (cycled, "0.77")):
        with pytest.raises(InvalidArgumentError, match="not the mex of its options"):
            find_period(values, code)
    assert find_period(cycled).status == "apparent"  # without a code: what the values earn, never proven
    for share in (float("nan"), "x", True, -1):
        with pytest.raises(InvalidArgumentError):
            find_period(kayles, "0.77", share=share)


@pytest.mark.parametrize("edit", [{"mask": 2**70}, {"mask": -1}, {"e": 2}, {"k0": "x"}, {"mask": True}])
def test_a_checkpoint_header_out_of_range_is_refused(tmp_path, edit):
    path = _checkpoint(tmp_path, "0.6")
    _rewrite(path, edit)
    with pytest.raises(CheckpointError, match="rare/common state"):
        load_checkpoint(tmp_path, parse_code("0.6"))


def test_a_deeply_nested_checkpoint_header_is_refused(tmp_path):
    path = _checkpoint(tmp_path, "0.6")
    with np.load(path) as z:
        arrays = {k: z[k].copy() for k in z.files if k != "header"}
    deep = ("[" * 100_000 + "]" * 100_000).encode()
    np.savez(path, **arrays, header=np.frombuffer(deep, np.uint8))
    with pytest.raises(CheckpointError, match="damaged"):
        load_checkpoint(tmp_path, parse_code("0.6"))


# ---- census files ------------------------------------------------------------------------------------

import sqlite3  # noqa: E402
import zlib  # noqa: E402

from octal.census import (  # noqa: E402
    load_quotient,
    run_census,  # noqa: E402
    run_misere_census,
)
from octal.census import misere as census_misere  # noqa: E402
from octal.census import store as census_module  # noqa: E402  (the census file: its lock wait)
from octal.errors import DataFileError  # noqa: E402


@pytest.fixture(scope="module")
def census_file(tmp_path_factory):
    db = tmp_path_factory.mktemp("census") / "c.sqlite"
    run_census(1, "0", max_n=1024, workers=1, db=db)
    run_misere_census(0, codes=["0.1", "0.2", "0.3", "0.4", "0.7"], max_heap=30, workers=1, db=db)
    return db


def _edited(census_file, tmp_path, sql, args=()):
    copy = tmp_path / "edited.sqlite"
    copy.write_bytes(census_file.read_bytes())
    with sqlite3.connect(copy) as con:
        con.execute(sql, args)
    return copy


def _refused(db, *args):
    for cmd in (["census", "report", "--db", str(db), *args], ["site", "--db", str(db), "--out", str(db) + "-site"]):
        r = runner.invoke(app, cmd)
        assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1, (cmd, r.output[-500:])
        assert "Traceback" not in r.output


@pytest.mark.slow
def test_an_open_row_rewritten_as_proven_is_refused(census_file, tmp_path):
    """0.4's open row rewritten, values and all, as 'period 1 from heap 0, proven': the rules refuse the values."""
    vals = zlib.compress(np.zeros(1024, np.uint8).tobytes())
    db = _edited(census_file, tmp_path, "UPDATE codes SET status = 'proven', period = 1, preperiod = 0, "
                 "proof_bound = 4, max_value = 0, vals = ? WHERE code = '0.4'", (vals,))
    _refused(db)


def test_class_cousin_and_period_claims_are_checked_against_the_values(census_file, tmp_path):
    """Hand-edited claims are refused: a class naming another game, a cousin that is none, a period that is a period
    but not the least, a preperiod later than where the period starts (each with its bound recomputed, as a careful
    forger would); the file as the census wrote it is accepted."""
    from octal.engine.periodicity import proof_bound

    assert runner.invoke(app, ["census", "report", "--db", str(census_file)]).exit_code == 0
    g = {c: nim_sequence(c, 200).values.astype(int) for c in ("0.1", "0.3", "0.4")}
    assert list(g["0.1"][:50]) != list(g["0.3"][:50])  # 0.1 and 0.3 are two games
    assert list(g["0.4"][1:51]) != list(g["0.3"][:50])  # and 0.4 is no first cousin 0.3+1
    assert (nim_sequence("0.3", 200).periodicity.period, nim_sequence("0.3", 200).periodicity.preperiod) == (2, 0)
    criteria = parse_code("0.3").proof_criteria
    for sql, args, fragment in [
        ("UPDATE codes SET class = '0.3' WHERE code = '0.1'", (), "not the same game as '0.3'"),
        ("UPDATE codes SET cousin = '0.3+1' WHERE code = '0.4'", (), "not a first cousin"),
        ("UPDATE codes SET period = 4, proof_bound = ? WHERE code = '0.3'", (proof_bound(criteria, 4, 0),),
         "not the least"),
        ("UPDATE codes SET preperiod = 1, proof_bound = ? WHERE code = '0.3'", (proof_bound(criteria, 2, 1),),
         "not where the period starts"),
    ]:
        db = _edited(census_file, tmp_path, sql, args)
        r = runner.invoke(app, ["census", "report", "--db", str(db)])
        assert r.exit_code == 2 and fragment in r.output, (sql, r.output)
        _refused(db)


@pytest.mark.parametrize("sql", [
    "UPDATE codes SET dtype = 'bogus' WHERE code = '0.7'",
    "UPDATE codes SET dtype = 'object' WHERE code = '0.7'",
    "UPDATE codes SET dtype = 'V3' WHERE code = '0.7'",
    "UPDATE codes SET vals = x'00112233' WHERE code = '0.7'",
    "UPDATE codes SET n = 'abc' WHERE code = '0.4'",
    "UPDATE codes SET max_value = NULL WHERE code = '0.7'",
    "UPDATE codes SET code = 'garbage' WHERE code = '0.7'",
    "UPDATE codes SET status = 'maybe' WHERE code = '0.7'",
    "UPDATE codes SET period = period + 1 WHERE code = '0.7'",
    "UPDATE codes SET proof_bound = 2 WHERE code = '0.7'",
    "ALTER TABLE codes ADD COLUMN extra TEXT",
])
def test_a_damaged_census_row_is_one_line(census_file, tmp_path, sql):
    _refused(_edited(census_file, tmp_path, sql))


@pytest.mark.parametrize("sql", [
    "UPDATE misere SET status = 'finite', period = 12, preperiod = 71, q_order = 40 WHERE code = '0.4'",
    "UPDATE misere SET q_order = 'lots' WHERE code = '0.7'",
    "UPDATE misere SET quotient = x'0011' WHERE code = '0.7'",
    "UPDATE misere SET status = 'maybe' WHERE code = '0.7'",
])
def test_a_damaged_misere_row_is_one_line(census_file, tmp_path, sql):
    _refused(_edited(census_file, tmp_path, sql), "--misere")


def test_a_compressed_bomb_is_refused_before_it_is_inflated(census_file, tmp_path, monkeypatch):
    """A blob of a few kB that inflates to 64 MB in a row's values or a misère quotient: refused by name at the row's
    own size (its heap count × the dtype's width) or MAX_DOCUMENT, never held whole; one line from the CLI."""
    from octal import reading

    bomb = zlib.compress(bytes(64 << 20), 9)
    with pytest.raises(ValueError, match="would inflate past 4,096 bytes"):
        reading.inflate(bomb, 4096)
    with pytest.raises(ValueError, match="cut short"):
        reading.inflate(zlib.compress(bytes(1000))[:-4], 4096)
    assert reading.inflate(zlib.compress(b"heaps"), 5) == b"heaps"
    with pytest.raises(ValueError, match="may not inflate to 0 bytes"):  # zlib's max_length 0 would be no limit
        reading.inflate(bomb, 0)
    db = _edited(census_file, tmp_path, "UPDATE codes SET vals = ? WHERE code = '0.4'", (bomb,))
    r = runner.invoke(app, ["census", "report", "--db", str(db)])
    assert r.exit_code == 2 and "would inflate past" in r.output and len(r.output.strip().splitlines()) == 1
    monkeypatch.setattr(census_module, "MAX_STORED", 1 << 20)  # a row claiming 10¹² heaps gets no more than that
    with pytest.raises(ValueError, match="would inflate past 1,048,576 bytes"):
        census_module.row_values({"vals": bomb, "n": 10 ** 12, "dtype": "uint8"})
    monkeypatch.setattr(census_misere, "MAX_DOCUMENT", 1 << 20)
    settled = sqlite3.connect(census_file).execute("SELECT code FROM misere WHERE quotient IS NOT NULL").fetchone()[0]
    db = _edited(census_file, tmp_path, f"UPDATE misere SET quotient = ? WHERE code = '{settled}'", (bomb,))
    with pytest.raises(DataFileError, match="would inflate past 1,048,576 bytes"):
        load_quotient(db, settled)


def test_a_quotient_stored_under_another_code_is_refused(census_file, tmp_path):
    rows = dict(sqlite3.connect(census_file).execute("SELECT code, status FROM misere").fetchall())
    settled = [c for c, s in rows.items() if s != "growing"]
    a, b = settled[0], settled[1]
    db = _edited(census_file, tmp_path, "UPDATE misere SET quotient = "
                 f"(SELECT quotient FROM misere WHERE code = '{a}') WHERE code = '{b}'")
    with pytest.raises(DataFileError, match="the row says code"):
        load_quotient(db, b)
    r = runner.invoke(app, ["census", "quotient", b, "--db", str(db)])
    assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1
    # a list-shaped blob is refused the same way
    db = _edited(census_file, tmp_path, f"UPDATE misere SET quotient = ? WHERE code = '{a}'",
                 (zlib.compress(b"[1, 2, 3]"),))
    with pytest.raises(DataFileError):
        load_quotient(db, a)


def test_a_locked_census_file_waits_then_says_so(census_file, tmp_path, monkeypatch):
    db = tmp_path / "locked.sqlite"
    db.write_bytes(census_file.read_bytes())
    monkeypatch.setattr(census_module, "LOCK_WAIT", 0.5)
    other = sqlite3.connect(db)
    other.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(DataFileError, match="locked"):
            run_census(0, codes=["0.5", "0.6"], max_n=256, workers=1, db=db)
    finally:
        other.rollback()
        other.close()
    rows = run_census(0, codes=["0.5", "0.6"], max_n=256, workers=1, db=db)  # once free, the run goes through
    assert {r["code"] for r in rows} == {"0.5", "0.6"}


# ---- API types -----------------------------------------------------------------------------------------

from octal import OctalError, load_values, save_values, solve_position  # noqa: E402


@pytest.mark.parametrize("content", ['{"values":[1.7, 2]}', '{"values":[true]}', '{"values":["3"]}',
                                     '{"values":[1e2]}', '{"values":[%d]}' % 2**70, '{"values":[Infinity]}',
                                     '{"values":null}', '{"values":123}', '{"values":[[1]]}'])
def test_load_values_takes_whole_numbers_only(tmp_path, content):
    p = tmp_path / "v.json"
    p.write_text(content)
    with pytest.raises(DataFileError):
        load_values(p)


def test_load_and_save_values_refuse_odd_input_with_octal_errors(tmp_path):
    (tmp_path / "v.csv").write_text("heap,value,x\n0,0,1\n")
    np.save(tmp_path / "t.npy", np.array([1, 2], dtype="m8[s]"))
    p = tmp_path / "ok.json"
    p.write_text('{"values": [0, 1, %d]}' % 2**40)
    assert load_values(p).dtype == np.uint64 and int(load_values(p)[2]) == 2**40
    for call in (lambda: load_values(tmp_path / "v.csv"), lambda: load_values(tmp_path / "t.npy"),
                 lambda: load_values(None), lambda: load_values(123),
                 lambda: save_values(tmp_path / "a.json", [1, 2], meta={"x": object()}),
                 lambda: save_values(tmp_path / "a.json", [1, 2], meta=5), lambda: save_values(None, [1]),
                 lambda: save_values(tmp_path / "a.npy", [True, False]), lambda: save_values(tmp_path / "a.npy", 123)):
        with pytest.raises(OctalError):
            call()


def test_flags_are_bools_and_a_quotient_may_be_a_file(tmp_path):
    for misere in (1, "yes", None):
        with pytest.raises(InvalidArgumentError, match="True or False"):
            solve_position("0.77", [3], misere=misere)
    from octal import misere_quotient

    path = misere_quotient("0.77", max_heap=12).save(tmp_path / "q.json")
    sol = solve_position("0.77", [5, 4, 1, 1], misere=True, quotient=str(path))
    assert sol.outcome == "P" and "quotient" in sol.method
    with pytest.raises(DataFileError):
        solve_position("0.77", [3], misere=True, quotient=tmp_path / "missing.json")
    with pytest.raises(InvalidArgumentError):
        solve_position("0.77", [3], misere=True, quotient=5)


# ---- stream folders, sizes, sites -------------------------------------------------------------------------

import os  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402

from octal import ResourceLimitError, nim_stream, read_values  # noqa: E402


def test_read_values_verifies_every_chunk_of_its_range(tmp_path):
    """Heaps 0..S−1 are held in memory too; their chunk is verified all the same when they are read."""
    nim_stream("0.167", tmp_path, 20_000, window=4096, store_values=True)
    first = sorted((tmp_path / "values").iterdir())[0]
    arr = np.load(first)
    assert np.array_equal(read_values(tmp_path, 0, 10), arr[:10])
    arr[3] ^= 1
    np.save(first, arr)
    with pytest.raises(DataFileError, match="checksum"):
        read_values(tmp_path, 0, 10)
    first.unlink()
    with pytest.raises(DataFileError, match="cannot be read"):
        read_values(tmp_path, 0, 10)
    first.mkdir()
    with pytest.raises(DataFileError):
        read_values(tmp_path, 0, 10)
    first.rmdir()
    first.symlink_to("/dev/zero")
    with pytest.raises(DataFileError):
        read_values(tmp_path, 0, 10)
    for start, stop in ((-1, 5), (5, 2)):
        with pytest.raises(InvalidArgumentError):
            read_values(tmp_path, start, stop)


def test_a_resume_says_what_it_kept(tmp_path):
    nim_stream("0.167", tmp_path, 5000, window=1024)
    again = nim_stream("0.167", tmp_path, 3000, window=2048)
    assert again.n == 5000 and again.window == 1024 and len(again.notes) == 2
    r = runner.invoke(app, ["run", "0.167", "--n", "3000", "--stream", str(tmp_path), "--window", "2048"])
    assert r.exit_code == 0 and "window of 1,024 heaps is kept" in r.stderr


def test_sizes_are_checked_before_allocating(tmp_path, monkeypatch):
    monkeypatch.setattr(memory, "available_memory", lambda: 1 << 30)
    with pytest.raises(ResourceLimitError, match="--window 4,000,000,000 needs"):
        nim_stream("0.167", tmp_path, 5000, window=4_000_000_000)
    r = runner.invoke(app, ["run", "kayles", "--width", "100000000"])
    assert r.exit_code == 2 and "--width must be from 1 to 1,000" in r.output
    from octal import format_table

    with pytest.raises(InvalidArgumentError):
        format_table(np.zeros(3, np.uint8), 100_000_000)


def test_an_unusable_numba_setting_is_one_line():
    env = {**os.environ, "NUMBA_NUM_THREADS": "0"}
    done = subprocess.run([sys.executable, "-m", "octal.front.cli", "run", "0.6", "--n", "100000"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "NUMBA_NUM_THREADS" in done.stderr


def test_a_value_past_an_unproven_end_is_a_resource_limit():
    r = nim_sequence("0.6", 100)
    with pytest.raises(ResourceLimitError, match="no period is proven"):
        r.value(10_000)


def test_a_site_publishes_each_game_once_under_a_readable_short_name(tmp_path):
    from octal.front.site import SiteGame, games_from_codes

    games = games_from_codes(["kayles", "0.77", ".77"], 1000)
    assert len(games) == 1
    long = "0." + "1" * 250 + "7"
    slug = SiteGame(nim_sequence(long, 50)).slug
    assert len(slug) <= 120 and slug.startswith("0.111")  # the code as written, cut short with a hash


def test_popcount_never_wraps():
    """The overflow warning seen with --kernel sparse came from the popcount's wrapping multiply (it could not change a
    value: numpy wraps as the compiled code does); the count now sums bytes by shifts, exactly, without wrapping."""
    import warnings

    from octal.engine.kernels.bits import popcount64

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for x in (0, 1, 2**63, 2**64 - 1, 0x5555555555555555, 0x0123456789ABCDEF):
            assert popcount64.py_func(np.uint64(x)) == bin(x).count("1")


def _forge_stream(directory, edit):
    """Edit a stream checkpoint and save it again, its checksum recomputed (a careful forger)."""
    from octal.engine.stream_state import read_stream, save_stream

    state = read_stream(directory)
    edit(state)
    save_stream(directory, state, in_chunks=state.stored)


def _move_count(state, to=None):
    """One heap counted under another value (the total unchanged); `to` a new largest value, when given."""
    v = to if to is not None else 2
    if v >= len(state.counts):
        state.counts = np.concatenate([state.counts, np.zeros(v + 1 - len(state.counts), np.int64)])
        state.max = v
    state.counts[1] -= 1
    state.counts[v] += 1


@pytest.mark.parametrize("edit", [_move_count, lambda s: _move_count(s, 400), lambda s: setattr(s, "max", 400)],
                         ids=["a count moved", "a count moved to a new largest value 400", "largest value 400"])
def test_stored_values_recount_a_forged_frequency_table(tmp_path, edit):
    """With --store-values the table rests on the values: any count or largest value edited is refused on resume and
    by read_frequencies (the truth: the run as computed)."""
    from octal import nim_stream, read_frequencies
    from octal.engine.stream_state import StreamStateError

    nim_stream("0.167", tmp_path, 100_000, window=4096, store_values=True)
    _forge_stream(tmp_path, edit)
    with pytest.raises(StreamStateError):
        nim_stream("0.167", tmp_path, 120_000)
    with pytest.raises(StreamStateError):
        read_frequencies(tmp_path)
    r = runner.invoke(app, ["run", "0.167", "--n", "120000", "--stream", str(tmp_path), "--quiet"])
    assert r.exit_code == 2 and "largest 4" not in r.output and len(r.output.strip().splitlines()) == 1


def test_without_stored_values_the_table_says_it_rests_on_the_file(tmp_path):
    """Without stored values, a count moved between values the window cannot see is not detectable: the result says
    the table is the checkpoint's; a largest value no count backs, or counts below the values held, are refused."""
    from octal import nim_stream
    from octal.engine.stream import COUNTED, FROM_FILE
    from octal.engine.stream_state import StreamStateError

    assert nim_stream("0.167", tmp_path / "a", 100_000, window=4096).counts_from == COUNTED
    _forge_stream(tmp_path / "a", _move_count)
    r = nim_stream("0.167", tmp_path / "a", 120_000)
    assert r.counts_from == FROM_FILE and r.to_dict()["stream"]["counts_from"] == FROM_FILE
    out = runner.invoke(app, ["run", "0.167", "--n", "130000", "--stream", str(tmp_path / "a"), "--quiet"]).output
    assert f"counts   {FROM_FILE}" in out
    nim_stream("0.167", tmp_path / "b", 100_000, window=4096)
    _forge_stream(tmp_path / "b", lambda s: setattr(s, "max", 400))
    with pytest.raises(StreamStateError, match="largest value 400"):
        nim_stream("0.167", tmp_path / "b", 120_000)
    nim_stream("0.167", tmp_path / "c", 3000, window=4096)  # every heap still held: the counts are checked exactly
    _forge_stream(tmp_path / "c", _move_count)
    with pytest.raises(StreamStateError, match="those of the values held"):
        nim_stream("0.167", tmp_path / "c", 4000)


def test_a_hand_edited_frequencies_json_is_refused(tmp_path):
    """frequencies.json is a copy: two counts moved (same total) differ from the checkpoint's records."""
    from octal import nim_stream, read_frequencies
    from octal.engine.stream_state import StreamStateError

    nim_stream("0.167", tmp_path, 50_000, window=4096)
    assert read_frequencies(tmp_path)["records"][-1]["n"] == 32768
    path = tmp_path / "frequencies.json"
    doc = json.loads(path.read_text())
    doc["records"][-1]["counts"][1] -= 1
    doc["records"][-1]["counts"][2] += 1
    path.write_text(json.dumps(doc))
    with pytest.raises(StreamStateError, match="differs from the records"):
        read_frequencies(tmp_path)


# --- each check of a file read back, guarded: switching it off makes one of these fail ---------------------------


def test_an_open_row_with_one_value_changed_is_refused(census_file, tmp_path):
    """0.6 (Officers) is open in the census file: one stored value changed, its largest value kept, is refused by the
    recurrence check of the row's values (the row is otherwise consistent)."""
    with sqlite3.connect(census_file) as con:
        vals, dtype, top = con.execute("SELECT vals, dtype, max_value FROM codes WHERE code = '0.6'").fetchone()
    values = np.frombuffer(zlib.decompress(vals), dtype=dtype).copy()
    h = 700
    values[h] = (int(values[h]) + 1) % (top + 1)  # another value no larger than the row's largest
    assert int(values.max()) == top
    db = _edited(census_file, tmp_path, "UPDATE codes SET vals = ? WHERE code = '0.6'",
                 (zlib.compress(values.tobytes()),))
    r = runner.invoke(app, ["census", "report", "--db", str(db)])
    assert r.exit_code == 2 and "G(700)" in r.output
    _refused(db)


def test_the_last_heaps_before_a_resume_are_rechecked(tmp_path):
    """A run goes on from the last heaps of its checkpoint: a value changed there (heap n − 3, which an even sample of
    the run would miss) is refused before any heap is computed from it."""
    n = 5000
    nim_sequence("0.6", n, checkpoint=tmp_path)
    _rewrite(tmp_path / "checkpoint.npz", values_edit=lambda v: v.__setitem__(n - 3, int(v[n - 3]) ^ 1))
    with pytest.raises(CheckpointError, match=f"G\\({n - 3:,}\\)"):
        nim_sequence("0.6", n + 1000, checkpoint=tmp_path)


def test_proven_games_are_one_class_only_when_their_values_agree(tmp_path):
    """0.75 and 0.05 are both proven with period 2 from heap 1, but 0.75 is 0 1 2 1 2 … and 0.05 is 0 0 1 0 1 …:
    two games, whatever their periods say."""
    rows = {r["code"]: r for r in run_census(2, "0", max_n=4096, workers=1, db=tmp_path / "c.sqlite")}
    a, b = rows["0.75"], rows["0.05"]
    assert (a["status"], a["preperiod"], a["period"]) == (b["status"], b["preperiod"], b["period"]) == ("proven", 1, 2)
    assert list(nim_sequence("0.75", 5).values) == [0, 1, 2, 1, 2]
    assert list(nim_sequence("0.05", 5).values) == [0, 0, 1, 0, 1]
    assert a["class"] != b["class"]


def test_a_stream_run_is_proven_only_at_the_guy_smith_bound(tmp_path):
    """Kayles' Guy–Smith bound is 168 heaps (0..167), as the whole-array run reports it (README): streamed to 167
    heaps its period is apparent, to 168 proven."""
    from octal import nim_stream

    short = nim_stream("0.77", tmp_path / "a", 167).periodicity
    assert short.status == "apparent" and short.proof_bound == 168
    enough = nim_stream("0.77", tmp_path / "b", 168).periodicity
    assert (enough.status, enough.period, enough.preperiod) == ("proven", 12, 71)


def test_a_census_stopped_before_grouping_still_reports(tmp_path):
    """A census stores each row as it finishes and groups games at its end: a row replaced in between (a resumed
    code, then Ctrl-C or a kill) withdraws the class and cousin claims that named it, so the file still reports."""
    from octal.census import CensusDB, verified_rows
    from octal.census.normal import compute_code

    db = tmp_path / "c.sqlite"
    rows = {r["code"]: r for r in run_census(2, "0", max_n=64, workers=1, db=db)}
    # a row whose class names another, open one: computed further, that one is another game (more heaps)
    named = next(c for c, r in rows.items() if r["class"] not in (None, c) and rows[r["class"]]["status"] == "open")
    other = rows[named]["class"]
    store = CensusDB(db)
    store.store(compute_code(other, 128))  # the row named is computed further; the census stops before grouping
    store.close()
    assert {r["code"]: r for r, _ in verified_rows(db)}[named]["class"] is None

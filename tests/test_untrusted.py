"""Issue #42's hostile cases: a file octal did not sign (edited, re-hashed with the project's own digest, or
another user's) is checked in full, never on a sample; a damaged census row is named and computed again, never
counted; every input read is bounded; every refusal is one line and exit 2."""

import sqlite3
import subprocess
import sys
import zlib

import numpy as np
import pytest
from test_damage import _npz, _write_npz  # a damage test's file surgery, shared

from octal import nim_sequence, nim_stream
from octal.census import CensusDB, merge_census, report, run_census
from octal.engine.checkpoint import digest as checkpoint_digest
from octal.engine.chunks import FOLDER
from octal.engine.chunks import digest as chunk_digest
from octal.engine.grundy import recheck_heaps
from octal.engine.periodicity import proof_bound
from octal.engine.sequence import load_checkpoint
from octal.engine.stream_state import digest as stream_digest
from octal.errors import DataFileError
from octal.rules.code import parse_code


def _cli(*args, cwd=None, timeout=120):
    return subprocess.run([sys.executable, "-c", "from octal.front.cli import main; main()", *args],
                          capture_output=True, text=True, timeout=timeout, cwd=cwd)


def test_a_checkpoint_edited_past_the_sample_and_re_hashed_is_refused(tmp_path):
    """0.6 to 5,000 heaps with G(3038) changed and the SHA-256 recomputed: without this user's signature every value
    is recomputed, and the run refuses it naming the heap (the sample check alone let it through)."""
    nim_sequence("0.6", 5000, checkpoint=tmp_path)
    path = tmp_path / "checkpoint.npz"
    header, arrays = _npz(path)
    assert load_checkpoint(tmp_path, parse_code("0.6")).n == 5000  # signed: resumed
    arrays["values"][3038] ^= 1
    header["sha256"] = checkpoint_digest(arrays["values"], arrays["rare"], header)
    _write_npz(path, header, arrays)
    with pytest.raises(DataFileError, match=r"G\(3,038\) = \d+ is not what they give"):
        load_checkpoint(tmp_path, parse_code("0.6"))
    r = _cli("run", "0.6", "--n", "6000", "--checkpoint", str(tmp_path))
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "G(3,038)" in r.stderr


def test_an_unsigned_true_checkpoint_is_checked_in_full_and_resumed(tmp_path):
    """Another user's checkpoint (no signature of this user's) with the right values resumes after the full check."""
    nim_sequence("0.6", 3000, checkpoint=tmp_path)
    header, arrays = _npz(tmp_path / "checkpoint.npz")
    header.pop("hmac")
    _write_npz(tmp_path / "checkpoint.npz", header, arrays)
    seq = load_checkpoint(tmp_path, parse_code("0.6"))
    assert seq.n == 3000 and seq.seeded == 0  # every heap recomputed: none rests on the file
    assert np.array_equal(seq.extend(4000), nim_sequence("0.6", 4000).values)


def test_a_stream_state_whose_records_are_a_string_is_one_line(tmp_path):
    nim_stream("0.144", tmp_path, 3000, window=1024)
    header, arrays = _npz(tmp_path / "stream.npz")
    header.pop("sha256"), header.pop("hmac")
    header["records"] = "not records"
    header["sha256"] = stream_digest(header, arrays)
    _write_npz(tmp_path / "stream.npz", header, arrays)
    r = _cli("run", "0.144", "--n", "4000", "--stream", str(tmp_path), "--window", "1024")
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1
    assert "records are 'not records', not a list of frequency records" in r.stderr


def test_graph_edges_from_dev_zero_is_refused_not_a_hang():
    r = _cli("graph", "--edges", "/dev/zero", timeout=60)
    assert r.returncode == 2 and r.stderr == ("error: cannot read /dev/zero: not a regular file (a pipe, a device or a "
                                              "socket), which octal does not read\n")


def test_a_missing_codes_file_is_named(tmp_path):
    r = _cli("census", "--codes", "/nonexistent", "--db", str(tmp_path / "c.sqlite"))
    assert r.returncode == 2
    assert r.stderr.strip() == ("error: no file of codes at /nonexistent (--codes takes a file of codes or codes like "
                                "0.1234,4.07)")


def test_until_proven_gets_the_memory_check_of_n():
    r = _cli("run", "0.77", "--until-proven", "--max-n", str(10 ** 20))
    assert r.returncode == 2 and "N = 100,000,000,000,000,000,000 for code 0.77 needs" in r.stderr


def _edit(db, sql, *args):
    con = sqlite3.connect(db)
    with con:
        con.execute(sql, args)
    con.close()


def test_a_census_re_run_names_a_damaged_proven_row_and_computes_it_again(tmp_path):
    """A proven row's period doubled and its bound recomputed (consistent, but not octal's): the re-run says so,
    counts it only once computed again, and the file then holds the true row."""
    db = tmp_path / "c.sqlite"
    rows = {r["code"]: r for r in run_census(0, codes=["0.07", "0.77"], max_n=1024, workers=1, db=db)}
    n0, p = rows["0.07"]["preperiod"], rows["0.07"]["period"]
    _edit(db, "UPDATE codes SET period = ?, proof_bound = ? WHERE code = '0.07'", 2 * p,
          proof_bound(parse_code("0.07").proof_criteria, 2 * p, n0))
    with pytest.raises(DataFileError, match="'0.07' is damaged: its period"):
        report(db)
    notes = []
    again = {r["code"]: r for r in run_census(0, codes=["0.07", "0.77"], max_n=1024, workers=1, db=db,
                                               notes=notes.append)}
    assert len(notes) == 1 and notes[0].startswith("census row '0.07' is damaged: its period")
    assert notes[0].endswith("computing it again")
    assert (again["0.07"]["period"], again["0.07"]["preperiod"]) == (p, n0)
    report(db)  # whole again
    r = _cli("census", "--codes", "0.07,0.77", "--max-n", "1024", "--db", str(db), "--quiet")
    assert r.returncode == 0 and r.stderr == ""  # nothing damaged now: nothing said


def test_an_open_row_edited_past_the_sample_is_refused(tmp_path):
    """0.6 open at 65,536 heaps with G(40,001) changed (zlib and all): not this user's signature, so every value is
    recomputed."""
    db = tmp_path / "c.sqlite"
    run_census(0, codes=["0.6"], max_n=65536, workers=1, db=db)
    con = sqlite3.connect(db)
    vals, dtype = con.execute("SELECT vals, dtype FROM codes WHERE code = '0.6'").fetchone()
    con.close()
    v = np.frombuffer(zlib.decompress(vals), dtype).copy()
    v[40001] = v[40001] ^ 1 if v[40001] ^ 1 <= v.max() else v[40001] ^ 2
    _edit(db, "UPDATE codes SET vals = ? WHERE code = '0.6'", zlib.compress(v.tobytes()))
    with pytest.raises(DataFileError, match=r"'0.6' is damaged: G\(40,001\) = \d+ is not what the rules of 0.6 give"):
        report(db)


def test_a_forged_open_row_with_its_largest_value_lowered_is_refused_by_report_and_merge(tmp_path):
    """An open row claiming 2¹⁷ heaps (its first 2,048 values kept, as a real one past 2¹⁶) whose largest value is
    lowered: the claim is checked by computing the 2¹⁷ heaps, in report and in merge."""
    db = tmp_path / "c.sqlite"
    run_census(0, codes=["0.6"], max_n=1 << 17, workers=1, db=db)
    con = sqlite3.connect(db)
    (top,) = con.execute("SELECT max_value FROM codes WHERE code = '0.6'").fetchone()
    con.close()
    report(db)
    _edit(db, "UPDATE codes SET max_value = ? WHERE code = '0.6'", top - 6)
    with pytest.raises(DataFileError, match=f"its largest value over 131,072 heaps is {top}, not {top - 6}"):
        report(db)
    with pytest.raises(DataFileError, match="'0.6' is damaged"):
        merge_census([db], tmp_path / "merged.sqlite")
    assert not CensusDB.read(tmp_path / "merged.sqlite", "") if (tmp_path / "merged.sqlite").exists() else True


def _stream_resigned(path, change):
    header, arrays = _npz(path)
    header.pop("hmac"), header.pop("sha256")
    change(header, arrays)
    header["sha256"] = stream_digest(header, arrays)  # the project's own digest, recomputed: no signature
    _write_npz(path, header, arrays)


def test_an_unsigned_stream_state_is_made_again_and_resumed_when_true(tmp_path):
    nim_stream("0.144", tmp_path, 3000, window=1024)
    _stream_resigned(tmp_path / "stream.npz", lambda h, a: None)
    r = nim_stream("0.144", tmp_path, 4000, window=1024)
    whole = nim_sequence("0.144", 4000)
    assert r.n == 4000 and np.array_equal(r.counts, np.bincount(whole.values[1:]))
    assert (r.periodicity.period, r.periodicity.preperiod) == (whole.periodicity.period, whole.periodicity.preperiod)


def test_an_edited_and_re_hashed_stream_state_is_refused_by_name(tmp_path):
    """A common heap of Officers past 2,500 (no sample looks there) changed to another value and the counts moved
    with it (every consistency check passes, the checksum recomputed): without this user's signature the run is made
    again and differs."""
    nim_stream("0.6", tmp_path, 3000, window=1024)

    def change(h, a):
        w, c = a["window"], a["counts"]
        assert h["base"] == 0 and len(w) == 3000
        x = next(x for x in range(2501, 2900) if x not in set(a["rare"].tolist()) | set(recheck_heaps(3000).tolist()))
        old = int(w[x])
        side = bin(old & h["mask"]).count("1") % 2  # rare or common: the edit keeps it, so the rare list holds
        new = next(v for v in range(len(c)) if v != old and c[v] > 0 and bin(v & h["mask"]).count("1") % 2 == side)
        w[x] = new
        c[old] -= 1
        c[new] += 1
    _stream_resigned(tmp_path / "stream.npz", change)
    with pytest.raises(DataFileError, match="its window differs from the run made again from heap 0"):
        nim_stream("0.6", tmp_path, 4000, window=1024)


def _stored_run(folder):
    nim_stream("0.6", folder, 40000, window=4096, store_values=True)  # values leave memory: only the chunks hold them


def test_an_unsigned_stored_stream_run_is_checked_chunk_by_chunk_and_resumed(tmp_path):
    _stored_run(tmp_path)
    _stream_resigned(tmp_path / "stream.npz", lambda h, a: None)
    r = nim_stream("0.6", tmp_path, 42000, window=4096, store_values=True)
    assert r.n == 42000 and np.array_equal(r.counts, np.bincount(nim_sequence("0.6", 42000).values[1:]))


def test_a_stored_chunk_edited_and_re_hashed_is_refused_by_heap(tmp_path):
    """Two values of a stored chunk past the head swapped (the counts unchanged), the chunk's checksum and the
    state's recomputed: the chunks are held against the run made again, one by one."""
    _stored_run(tmp_path)
    header, arrays = _npz(tmp_path / "stream.npz")
    j, (start, count, _) = next((j, c) for j, c in enumerate(header["chunks"]) if c[0] >= 4096 and c[1] > 1)
    path = tmp_path / FOLDER / f"{start:015d}.npy"
    v = np.load(path)
    rare = set(arrays["rare"].tolist())
    a, b = [x for x in range(count) if start + x not in rare][:1] * 2  # two common heaps with unequal values
    b = next(x for x in range(a + 1, count) if start + x not in rare and v[x] != v[a])
    v[a], v[b] = v[b], v[a]
    np.save(path, v)

    def rechunk(h, a):
        h["chunks"][j][2] = chunk_digest(v)
    _stream_resigned(tmp_path / "stream.npz", rechunk)
    with pytest.raises(DataFileError, match=f"its stored G\\({start + a:,}\\) differs from the run made again"):
        nim_stream("0.6", tmp_path, 42000, window=4096, store_values=True)

"""Generated damage to every file octal reads back — checkpoints, stream states, census rows, quotient files, values
files — including damage that keeps the checksum valid (the checksum recomputed, as a careful forger would): each is
refused in one line (a DataFileError), or it gives the answer the clean file gives. Never a traceback, never a value
or a "proven" the rules do not give. Each test also writes its file back undamaged, the same way, and requires it
accepted with the clean answer (as is an example whose damage changed nothing): a reader that refused every file
would pass the damage checks alone."""

import json
import shutil
import sqlite3
import zlib

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from octal import GrundySequence, MisereQuotient, misere_quotient, nim_sequence, nim_stream, parse_code
from octal.census import run_census, verified_rows
from octal.engine.checkpoint import SIGNED, save_checkpoint
from octal.engine.checkpoint import digest as checkpoint_digest
from octal.engine.sequence import load_checkpoint
from octal.engine.stream_state import digest as stream_digest
from octal.errors import DataFileError, OctalError
from octal.io import load_values, save_values

DAMAGE = settings(max_examples=40, deadline=None, derandomize=True,  # the same examples on every run
                  suppress_health_check=[HealthCheck.function_scoped_fixture])
JSON_ODDS = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(allow_nan=True),
                      st.text(max_size=8), st.lists(st.integers(0, 3), max_size=3))


def _npz(path):
    with np.load(path) as z:
        arrays = {k: z[k].copy() for k in z.files}
    return json.loads(bytes(arrays.pop("header")).decode()), arrays


def _write_npz(path, header, arrays):
    np.savez(path, **arrays, header=np.frombuffer(json.dumps(header).encode(), np.uint8))


def _working_copy(folder, tmp_path, name):
    """A fresh copy of a clean folder for one example, and the header and arrays of its .npz file `name`."""
    work = tmp_path / folder.name
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(folder, work)
    return work, work / name, *_npz(work / name)


def _damage(arrays, data, names):
    """Flip, zero or overwrite a few entries of the named arrays."""
    for name in names:
        a = arrays[name]
        if len(a) == 0:
            continue
        for _ in range(data.draw(st.integers(0, 3))):
            i = data.draw(st.integers(0, len(a) - 1))
            a[i] = data.draw(st.sampled_from([0, 1, int(a[i]) ^ 1, int(a[i]) ^ 2, np.iinfo(a.dtype).max]))


def _snapshot(header, arrays):
    """What a file says, to tell afterwards whether an example changed anything (JSON text: 1 and true differ)."""
    return json.dumps(header, sort_keys=True), {k: v.copy() for k, v in arrays.items()}


def _unchanged(snapshot, header, arrays) -> bool:
    text, before = snapshot
    return json.dumps(header, sort_keys=True) == text and all(np.array_equal(arrays[k], v) for k, v in before.items())


# ---- checkpoints -------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def clean_checkpoint(tmp_path_factory):
    folder = tmp_path_factory.mktemp("ck")
    seq = GrundySequence(parse_code("0.6"), kernel="sparse")
    seq.extend(1000)  # every heap below RECHECK_ALL is checked; past it the check is a sample (see first_wrong_value)
    save_checkpoint(folder, seq)
    return folder, nim_sequence("0.6", 2000, kernel="naive").values


def _resumed_checkpoint(work, truth):
    """The checkpoint in `work` resumed to 2,000 heaps: must be the truth (or None when there is none)."""
    seq = load_checkpoint(work, parse_code("0.6"))
    if seq is not None:
        seq.extend(2000)
        assert np.array_equal(seq.values, truth), "a damaged checkpoint gave wrong values"
    return seq


@DAMAGE
@given(data=st.data())
def test_damaged_checkpoints(clean_checkpoint, tmp_path, data):
    folder, truth = clean_checkpoint
    work, path, header, arrays = _working_copy(folder, tmp_path, "checkpoint.npz")
    _write_npz(path, header, arrays)  # written back undamaged: accepted, resumed where it stopped
    seq = _resumed_checkpoint(work, truth)
    assert seq is not None and seq.n == 2000
    clean = _snapshot(header, arrays)
    _damage(arrays, data, data.draw(st.sampled_from([["values"], ["rare"], ["values", "rare"], []])))
    for key in data.draw(st.lists(st.sampled_from(SIGNED), max_size=2)):
        header[key] = data.draw(JSON_ODDS)
    if data.draw(st.booleans()):  # keep the checksum valid
        try:
            header["sha256"] = checkpoint_digest(arrays["values"], arrays["rare"], header)
        except (TypeError, ValueError):  # a header json cannot write: the file is refused either way
            header["sha256"] = "x"
    _write_npz(path, header, arrays)
    try:
        seq = _resumed_checkpoint(work, truth)
    except DataFileError as exc:
        assert "\n" not in str(exc)
        assert not _unchanged(clean, header, arrays), "an undamaged checkpoint was refused"
        return
    assert seq is not None or not _unchanged(clean, header, arrays)


# ---- stream states -----------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def clean_stream(tmp_path_factory):
    folder = tmp_path_factory.mktemp("st")
    nim_stream("0.144", folder, 3000, window=1024)
    return folder, nim_sequence("0.144", 4000)


@DAMAGE
@given(data=st.data())
def test_damaged_stream_states(clean_stream, tmp_path, data):
    folder, whole = clean_stream
    truth = whole.periodicity
    work, path, header, arrays = _working_copy(folder, tmp_path, "stream.npz")
    _write_npz(path, header, arrays)  # written back undamaged: resumed from 3,000 to 4,000 heaps as the whole run
    again = nim_stream("0.144", work, 4000, window=1024)
    assert (again.n, again.periodicity) == (4000, truth) and np.array_equal(again.counts, np.bincount(whole.values[1:]))
    work, path, header, arrays = _working_copy(folder, tmp_path, "stream.npz")
    clean = _snapshot(header, arrays)
    header.pop("sha256")
    _damage(arrays, data, data.draw(st.sampled_from([["head"], ["window"], ["rare", "rval"], ["counts"], []])))
    for key in data.draw(st.lists(st.sampled_from(["n", "base", "size", "mask", "e", "k0", "max", "period",
                                                   "preperiod", "records"]), max_size=2)):
        header[key] = data.draw(JSON_ODDS)
    if data.draw(st.booleans()):
        try:
            header["sha256"] = stream_digest(header, arrays)
        except TypeError:  # a header json cannot sort: the file is refused either way
            header["sha256"] = "x"
    _write_npz(path, header, arrays)
    try:
        result = nim_stream("0.144", work, 4000, window=1024)
    except OctalError as exc:
        assert "\n" not in str(exc)
        assert not _unchanged(clean, header, arrays), "an undamaged stream state was refused"
        return
    p = result.periodicity
    assert p.status != "proven" or (p.period, p.preperiod) == (truth.period, truth.preperiod)


# ---- census rows ---------------------------------------------------------------------------------------

CENSUS_COLUMNS = ["status", "preperiod", "period", "proof_bound", "max_value", "n", "dtype", "vals", "code"]


@pytest.fixture(scope="module")
def clean_census(tmp_path_factory):
    db = tmp_path_factory.mktemp("cen") / "c.sqlite"
    codes = [row["code"] for row in run_census(1, "0", max_n=1024, workers=1, db=db)]
    return db, {code: nim_sequence(code, 1024) for code in codes}  # the truth, computed apart from the file


def _agrees(rows, truth) -> None:
    """Whatever rows were accepted are what the rules give: values, and any proven period."""
    for row, seq in rows:
        clean = truth.get(row["code"])
        if clean is not None:
            n = min(len(seq.values), len(clean.values))
            assert np.array_equal(seq.values[:n], clean.values[:n])
            if seq.periodicity.status == "proven":
                assert (seq.periodicity.period, seq.periodicity.preperiod) == (clean.periodicity.period,
                                                                                 clean.periodicity.preperiod)


@DAMAGE
@given(data=st.data())
def test_damaged_census_rows(clean_census, tmp_path, data):
    db, truth = clean_census
    work = tmp_path / "c.sqlite"
    shutil.copy(db, work)
    code = data.draw(st.sampled_from(sorted(truth)))
    column = data.draw(st.sampled_from(CENSUS_COLUMNS))
    with sqlite3.connect(work) as con:  # rewritten with its own value: every row accepted, each the truth
        con.execute(f"UPDATE codes SET {column} = {column} WHERE code = ?", (code,))
    con.close()
    rows = verified_rows(work)
    assert sorted(row["code"] for row, _ in rows) == sorted(truth) and all(len(seq.values) for _, seq in rows)
    _agrees(rows, truth)
    con = sqlite3.connect(work)
    (old,) = con.execute(f"SELECT {column} FROM codes WHERE code = ?", (code,)).fetchone()
    if column == "vals":
        vals = np.frombuffer(zlib.decompress(con.execute("SELECT vals FROM codes WHERE code = ?", (code,))
                                             .fetchone()[0]), np.uint8).copy()
        _damage({"v": vals}, data, ["v"])
        value = zlib.compress(vals.tobytes()) if data.draw(st.booleans()) else data.draw(st.binary(max_size=16))
    else:
        value = data.draw(st.one_of(st.none(), st.integers(-5, 5000), st.text(max_size=6), st.sampled_from(
            ["proven", "open", "uint8", "uint16", "object", "V3", "0.4", "0.9"])))
    try:
        with con:
            con.execute(f"UPDATE codes SET {column} = ? WHERE code = ?", (value, code))
    except sqlite3.IntegrityError:  # the schema itself refuses this edit (NULL status, a code already taken)
        return
    finally:
        con.close()
    try:
        rows = verified_rows(work)
    except DataFileError as exc:
        assert "\n" not in str(exc)
        assert not (type(value) is type(old) and value == old), "an undamaged census row was refused"
        return
    _agrees(rows, truth)


# ---- quotient files and values files ---------------------------------------------------------------------

@pytest.fixture(scope="module")
def clean_quotient(tmp_path_factory):
    q = misere_quotient("0.75")
    path = q.save(tmp_path_factory.mktemp("q") / "q.json")
    return path, q


@DAMAGE
@given(data=st.data())
def test_damaged_quotient_files(clean_quotient, tmp_path, data):
    path, q = clean_quotient
    doc = json.loads(path.read_text())
    work = tmp_path / "q.json"
    work.write_text(json.dumps(doc))  # written back undamaged: accepted, the same P-positions
    _same_p_positions(MisereQuotient.load(work), q)
    clean = json.dumps(doc, sort_keys=True)
    key = data.draw(st.sampled_from(["code", "table", "p", "phi", "period", "preperiod", "status", "version"]))
    if isinstance(doc[key], list) and doc[key] and data.draw(st.booleans()):
        flat = doc[key] if not isinstance(doc[key][0], list) else doc[key][data.draw(st.integers(0, len(doc[key]) - 1))]
        flat[data.draw(st.integers(0, len(flat) - 1))] = data.draw(st.one_of(st.integers(-1, 9), JSON_ODDS))
    else:
        doc[key] = data.draw(JSON_ODDS)
    work.write_text(json.dumps(doc))
    try:
        back = MisereQuotient.load(work)
    except DataFileError as exc:
        assert "\n" not in str(exc)
        assert json.dumps(doc, sort_keys=True) != clean, "an undamaged quotient file was refused"
        return
    _same_p_positions(back, q)


def _same_p_positions(back, q) -> None:
    for heaps in ([1], [2, 3], [4, 4, 1], [7, 2], [30, 5, 5], [100, 9]):
        assert back.is_p(heaps) == q.is_p(heaps)


VALID_TEXT = {('{"values": [0, 1, 2]}', ".json"): [0, 1, 2], ("heap,value\n0,0\n1,1\n", ".csv"): [0, 1]}


@DAMAGE
@given(text=st.one_of(st.text(max_size=40), st.sampled_from(['{"values": [0, 1, 2]}', 'heap,value\n0,0\n1,1\n'])),
       suffix=st.sampled_from([".json", ".csv", ".npy"]), clean=st.lists(st.integers(0, 2**32 - 1), max_size=30))
def test_damaged_values_files(tmp_path, text, suffix, clean):
    save_values(tmp_path / f"clean{suffix}", np.array(clean, np.uint64))  # undamaged: read back as written
    assert load_values(tmp_path / f"clean{suffix}").tolist() == clean
    path = tmp_path / f"v{suffix}"
    path.write_text(text)
    try:
        values = load_values(path)
    except DataFileError as exc:
        assert "\n" not in str(exc)
        assert (text, suffix) not in VALID_TEXT, "a valid values file was refused"
        return
    assert values.ndim == 1 and values.dtype.kind == "u"
    assert values.tolist() == VALID_TEXT.get((text, suffix), values.tolist())
    save_values(tmp_path / "again.json", values)
    assert np.array_equal(load_values(tmp_path / "again.json"), values)

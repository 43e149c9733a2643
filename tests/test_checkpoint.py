"""Checkpoints: atomic saves, resume to identical values, refusal of foreign or damaged state, SIGKILL."""

import json
import subprocess
import sys

import numpy as np
import pytest
from processes import kill_when_file
from typer.testing import CliRunner

from octal import GrundySequence, nim_sequence, parse_code
from octal.engine.checkpoint import FILE, CheckpointError, save_checkpoint
from octal.engine.sequence import load_checkpoint
from octal.front.cli import app


def test_save_and_load_round_trip(tmp_path):
    seq = GrundySequence(parse_code("0.6"), kernel="sparse")
    seq.extend(5000)
    save_checkpoint(tmp_path, seq)
    back = load_checkpoint(tmp_path, parse_code("0.6"))
    assert np.array_equal(back.values, seq.values)
    assert (back.mask, back.e) == (seq.mask, seq.e) and np.array_equal(back.rare, seq.rare)
    back.extend(9000)
    assert np.array_equal(back.values, nim_sequence("0.6", 9000, kernel="naive").values)


def test_no_checkpoint_means_none(tmp_path):
    assert load_checkpoint(tmp_path, parse_code("0.77")) is None


def test_checkpoint_of_another_code_is_refused(tmp_path):
    seq = GrundySequence(parse_code("0.77"))
    seq.extend(300)
    save_checkpoint(tmp_path, seq)
    with pytest.raises(CheckpointError, match="belongs to code 0.77, not 0.07"):
        load_checkpoint(tmp_path, parse_code("0.07"))


def test_damaged_checkpoint_is_refused(tmp_path):
    seq = GrundySequence(parse_code("0.77"))
    seq.extend(300)
    path = save_checkpoint(tmp_path, seq)
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(CheckpointError):
        load_checkpoint(tmp_path, parse_code("0.77"))
    path.write_bytes(b"not a zip file")
    with pytest.raises(CheckpointError, match="damaged"):
        load_checkpoint(tmp_path, parse_code("0.77"))


def test_tampered_values_fail_the_checksum(tmp_path):
    seq = GrundySequence(parse_code("0.77"))
    seq.extend(300)
    path = save_checkpoint(tmp_path, seq)
    with np.load(path) as z:
        arrays = {k: z[k].copy() for k in z.files}
    arrays["values"][100] ^= 1
    np.savez(path, **arrays)
    with pytest.raises(CheckpointError, match="checksum"):
        load_checkpoint(tmp_path, parse_code("0.77"))


def test_cli_refuses_foreign_checkpoint_with_one_line(tmp_path):
    runner = CliRunner()
    assert runner.invoke(app, ["run", "0.77", "--n", "500", "--checkpoint", str(tmp_path), "--quiet"]).exit_code == 0
    r = runner.invoke(app, ["run", "0.07", "--n", "500", "--checkpoint", str(tmp_path)])
    assert r.exit_code == 2 and "belongs to code 0.77" in r.output


@pytest.mark.slow
def test_sigkill_mid_run_then_resume_gives_identical_values(tmp_path):
    ck = tmp_path / "ck"
    out = tmp_path / "values.npy"
    n = 150_000  # 5 s of the naive kernel on 2 cores: the kill lands well inside it
    cmd = [sys.executable, "-m", "octal.front.cli", "run", "0.6", "--n", str(n), "--kernel", "naive", "--quiet",
           "--checkpoint", str(ck), "--checkpoint-every", "0.2", "--out", str(out), "--json"]
    kill_when_file(cmd, ck / FILE, settle=0.5)
    partial = load_checkpoint(ck, parse_code("0.6"))
    assert 0 < partial.n < n
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["n"] == n
    full = nim_sequence("0.6", n, kernel="sparse").values
    assert np.array_equal(np.load(out), full)


def test_a_resumed_run_says_where_it_starts_and_an_interrupt_carries_the_values(tmp_path, monkeypatch):
    from octal.engine import sequence as seqmod
    from octal.front.cli import app

    ck = tmp_path / "ck"
    runner = CliRunner()
    assert runner.invoke(app, ["run", "0.6", "--n", "3000", "--checkpoint", str(ck), "--quiet"]).exit_code == 0
    r = runner.invoke(app, ["run", "0.6", "--n", "5000", "--checkpoint", str(ck)])
    assert r.exit_code == 0 and f"resuming from {ck} at heap 3,000" in r.output

    def interrupted(seq, *args):  # Ctrl-C after some values: the API hands them back, and saves what was asked
        seq.extend(700)
        raise KeyboardInterrupt

    monkeypatch.setattr(seqmod, "_compute", interrupted)
    out = tmp_path / "v.npy"
    with pytest.raises(KeyboardInterrupt) as info:
        nim_sequence("0.6", 5000, out=out)
    assert info.value.partial.n == 700 and list(info.value.partial.values[:6]) == [0, 0, 1, 2, 0, 1]
    assert np.load(out).shape == (700,)

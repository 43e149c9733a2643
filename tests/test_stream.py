"""Stream runs: same values, counts and verdict as a whole-array run, in bounded memory; files verified; kill -9."""

import dataclasses
import json
import subprocess
import sys
import tracemalloc

import numpy as np
import pytest
from processes import kill_when_file
from typer.testing import CliRunner

from octal import nim_sequence
from octal.engine import stream
from octal.engine.kernels import ahead
from octal.engine.moves import kernel_moves
from octal.engine.stream import StreamGapError, nim_stream, read_values
from octal.engine.stream_state import FILE, StreamStateError, read_frequencies
from octal.errors import DataFileError, InvalidArgumentError
from octal.front.cli import app
from octal.outcomes import PROVEN


def _check_records(records, values):
    """Every power-of-two record counts heaps 1..2^k of the whole-array run."""
    for r in records:
        want = np.bincount(values[1 : r["n"] + 1], minlength=r["max"] + 1)
        assert r["counts"] == want.tolist() and r["max"] == int(values[: r["n"] + 1].max())


@pytest.mark.slow
@pytest.mark.parametrize("code, n, window", [
    ("0.77", 5000, 256),      # Kayles: period 12 proven while streaming
    ("0.137", 5000, 256),     # Dawson's Kayles: period 34 proven
    ("0.6", 120_000, 256),    # Officers: scans reach past a small head, so head and window widen from disk
    ("0.167", 200_000, 2048),
    ("0.007", 30_000, 1024),  # Treblecross
    ("4.07", 20_000, 512),    # a whole-heap digit
    ("0.354", 40_000, 512),
])
def test_stream_matches_whole_array_run(tmp_path, code, n, window):
    full = nim_sequence(code, n)
    r = nim_stream(code, tmp_path, n, window=window, store_values=True)
    assert np.array_equal(read_values(tmp_path), full.values)
    assert np.array_equal(r.counts, np.bincount(full.values[1:]))
    assert (r.periodicity, r.max, r.n) == (full.periodicity, full.max, n)
    _check_records(read_frequencies(tmp_path)["records"], full.values)
    assert [rec["n"] for rec in r.records] == [1 << k for k in range((n - 1).bit_length())]


def _short_periods():
    """Every 3-digit code with splits whose period (at most 64) is proven within 3,000 heaps."""
    from octal.census import enumerate_codes

    out = []
    for c in enumerate_codes(3):
        r = nim_sequence(c, 3000)
        if r.code.tier == "octal" and len(kernel_moves(r.code, 8).two) and r.periodicity.status == "proven" \
                and r.periodicity.period <= 64:
            out.append(c)
    return out


@pytest.mark.slow
def test_short_periods_are_found_with_small_windows(tmp_path):
    """The stream's online search finds every short period the whole-array run proves, with windows of 256 and
    1,024 heaps (0.144, 0.145 and 0.154 among them: a candidate in hand is no longer pushed out by a few equal
    values at the end of a window)."""
    codes = _short_periods()
    named = {"0.144", "0.145", "0.154"}
    assert named <= set(codes) and len(codes) > 200
    for i, code in enumerate(sorted(set(codes[::3]) | named)):
        whole = nim_sequence(code, 5000).periodicity
        window = (256, 1024)[i % 2]
        got = nim_stream(code, tmp_path / code, 5000, window=window, store_values=True).periodicity
        assert (got.status, got.period, got.preperiod) == (whole.status, whole.period, whole.preperiod), (code, window)
    # proven at 1,000 heaps, still proven when resumed to 5,000
    first = nim_stream("0.144", tmp_path / "resumed", 1000, window=256).periodicity
    again = nim_stream("0.144", tmp_path / "resumed", 5000, window=256).periodicity
    assert first.status == again.status == "proven"
    assert (first.period, first.preperiod) == (again.period, again.preperiod)


def test_stream_matches_naive_on_grundys_game(tmp_path):
    """Unequal splits only (4!.0): the (m/2, m/2) pair is skipped in the windowed rare loop too."""
    r = nim_stream("4!.0", tmp_path, 6000, window=256, store_values=True)
    assert np.array_equal(read_values(tmp_path), nim_sequence("4!.0", 6000, kernel="naive").values)
    assert r.n == 6000


def _traced_peaks(run):
    """(what run(progress) returns, the most memory Python allocations held at once while it started — the state read
    back and rechecked, the first stretch — and while it went on from there), both above what was held before."""
    started = []

    def progress(*_):
        if not started:
            started.append(tracemalloc.get_traced_memory()[1])
            tracemalloc.reset_peak()

    tracemalloc.start()
    try:
        out = run(progress)
        return out, started[0], tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.slow
def test_a_few_million_heaps_in_bounded_memory(tmp_path, monkeypatch):
    """0.167 to 3·10⁶ heaps in resumed stretches, each within 1 MiB (a whole run holds 2 bytes per heap), and flat:
    going on over 1.5·10⁶ heaps holds about what going on over 4·10⁵ did (a resume's start, rechecking what it read
    back, would hide up to a megabyte gathered later in one peak, so the two are measured apart). What happens once per
    process (numba compiling or loading the kernels, first-call imports) is paid before measuring, by a first run
    and a first resume: the peaks are the same whichever tests ran before, or none. Values, counts, records and
    verdict are the whole run's."""
    n, window = 3_000_000, 1 << 13
    monkeypatch.setattr(ahead, "IN_THE_CALLERS_THREAD", True)  # the parallel entry compiled (or loaded) when first
    # asked for, in the runs before measuring: not in a thread beside the runs measured

    def stream(stop, progress=None):
        return nim_stream("0.167", tmp_path, stop, window=window, store_values=True, progress=progress)

    stream(1_000_000)
    stream(1_100_000)  # a first resume, not measured
    _, start_short, short = _traced_peaks(lambda progress: stream(1_500_000, progress))  # 4·10⁵ heaps
    r, start_long, long = _traced_peaks(lambda progress: stream(n, progress))  # 1.5·10⁶ heaps
    peaks = (start_short, short, start_long, long)
    assert r.memory_bytes < 8 * window + 4096
    assert max(peaks) < 1 << 20, peaks  # against 2 · 1.5·10⁶ bytes more for a whole run
    # 1.1·10⁶ heaps more cost less than 1/8 byte each: only the list of stored chunks grows (about 0.06 byte a heap:
    # a few hundred bytes for each chunk of 8,192 heaps), against 1 to 2 bytes a heap for values held in memory
    assert long - short < 1_100_000 // 8, peaks
    full = nim_sequence("0.167", n)
    assert np.array_equal(read_values(tmp_path, 1_000_000, 1_000_100), full.values[1_000_000:1_000_100])
    assert np.array_equal(read_values(tmp_path), full.values)
    assert np.array_equal(r.counts, np.bincount(full.values[1:]))
    assert r.periodicity == full.periodicity
    _check_records(r.records, full.values)


@pytest.mark.slow
def test_0354_streams_millions_of_heaps_in_bounded_memory(tmp_path):
    """0.354 to 2²² heaps with a 65,536-heap window holds under 1 MB against 4 M values. Its proof (preperiod
    10,061,916, period 1,180, Guy–Smith at 20,126,195 heaps) is docs/long-runs.md's example, which the tests run."""
    nim_stream("0.354", tmp_path / "warm", 100_000, window=8192, threads=1)  # its kernels loaded before measuring (on
    # one thread, as the run measured: no parallel entry is left compiling beside it, kernels.ahead)
    tracemalloc.start()  # one thread: a parallel entry compiled beside the run would count numba's own allocations
    r = nim_stream("0.354", tmp_path / "run", (1 << 22) + 1, window=1 << 16, threads=1)  # heaps 0 … 2²²
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert r.n == (1 << 22) + 1 and r.periodicity.status != "proven"  # its period starts at heap 10,061,916
    assert r.memory_bytes < 1 << 20 and peak < 2 << 20
    assert sum(r.records[-1]["counts"]) == r.records[-1]["n"] == 1 << 22


def test_resume_goes_on_from_the_checkpoint(tmp_path):
    first = nim_stream("0.6", tmp_path, 50_000, window=1024, store_values=True)
    again = nim_stream("0.6", tmp_path, 90_000, window=1024, store_values=True)
    assert first.n == 50_000 and again.n == 90_000
    assert np.array_equal(read_values(tmp_path), nim_sequence("0.6", 90_000).values)


@pytest.mark.parametrize("window", [4096, 1 << 20])
def test_where_a_run_until_proven_stops_does_not_depend_on_how_long_its_stretches_took(tmp_path, monkeypatch, window):
    """The period is looked for at heap counts fixed in heaps (stream._next_check), so a stretch cut short for progress
    (a slow machine: here stretches of 256 heaps) stops the run at the same heap, with the same verdict, as stretches
    that run whole (0.156 stopped at 7,659 with the first and 8,193 with the second before)."""
    ends = []
    for seconds in (1e-9, 1e9):
        monkeypatch.setattr(stream, "STRETCH_SECONDS", seconds)
        r = nim_stream("0.156", tmp_path / f"{seconds}", 1 << 17, until_proven=True, window=window, store_values=True)
        ends.append((r.n, r.periodicity))
    verdict = ends[0][1]
    assert ends[0] == ends[1] and (verdict.status, verdict.period, verdict.preperiod) == (PROVEN, 349, 3479), ends


@pytest.mark.slow
def test_many_resumes_keep_memory_flat(tmp_path):
    """Each resume restores the window into a buffer of the window's size, not twice the last one."""
    held = [nim_stream("0.167", tmp_path, 2**k, window=4096).memory_bytes for k in range(13, 20)]
    assert max(held) < 8 * 4096 + 4096 and held[-1] - held[1] < 512, held  # only the counts may grow
    assert np.array_equal(read_values(tmp_path, 0, 4096), nim_sequence("0.167", 4096).values)


def test_gap_without_stored_values_is_one_clear_error(tmp_path):
    with pytest.raises(StreamGapError, match="larger --window"):
        nim_stream("0.6", tmp_path, 120_000, window=256)


def test_damaged_or_foreign_state_is_refused(tmp_path):
    nim_stream("0.77", tmp_path, 20_000, window=256, store_values=True)
    with pytest.raises(StreamStateError, match="belongs to code 0.77"):
        nim_stream("0.6", tmp_path, 30_000)
    assert np.array_equal(read_values(tmp_path, 1000, 5000), nim_sequence("0.77", 5000).values[1000:])
    chunk = max(f for f in (tmp_path / "values").iterdir() if int(f.stem) <= 1000)  # the chunk holding heap 1000
    data = bytearray(chunk.read_bytes())
    data[-1] ^= 1
    chunk.write_bytes(bytes(data))
    with pytest.raises(DataFileError, match="checksum"):
        read_values(tmp_path, 1000, 5000)
    state = tmp_path / FILE
    data = bytearray(state.read_bytes())
    data[len(data) // 2] ^= 0xFF
    state.write_bytes(bytes(data))
    with pytest.raises(StreamStateError):
        nim_stream("0.77", tmp_path, 30_000)


def test_a_run_that_stores_its_values_checkpoints_by_naming_its_chunks(tmp_path):
    """With --store-values every heap done is in the chunks at each checkpoint, so stream.npz holds neither head nor
    window (a record run's window of 10⁸ heaps is not rewritten every few seconds); a resume reads them back from
    the chunks, verified, and a chunk it names that is gone or changed is refused in one line."""
    import zipfile

    n, window = 300_000, 1 << 16
    nim_stream("0.167", tmp_path, n // 2, window=window, store_values=True)
    nim_stream("0.167", tmp_path, n, window=window, store_values=True)
    with zipfile.ZipFile(tmp_path / FILE) as z:
        sizes = {info.filename: info.file_size for info in z.infolist()}
    assert sizes["head.npy"] < 200 and sizes["window.npy"] < 200, sizes  # an empty array's header only
    header = json.loads(bytes(np.load(tmp_path / FILE)["header"]).decode())
    assert header["in_chunks"] is True and header["chunks"][-1][0] + header["chunks"][-1][1] == n
    full = nim_sequence("0.167", n + 50_000).values
    assert np.array_equal(read_values(tmp_path), full[:n])
    again = nim_stream("0.167", tmp_path, n + 50_000, window=window, store_values=True)  # resumed from the chunks
    assert np.array_equal(read_values(tmp_path), full) and np.array_equal(again.counts, np.bincount(full[1:]))
    newest = json.loads(bytes(np.load(tmp_path / FILE)["header"]).decode())["chunks"][-1]
    (tmp_path / "values" / f"{newest[0]:015d}.npy").unlink()  # the chunk holding the newest heaps is gone
    with pytest.raises(StreamStateError, match="cannot be read back"):
        nim_stream("0.167", tmp_path, n + 60_000, window=window, store_values=True)


def test_values_that_were_not_stored_cannot_be_read(tmp_path):
    nim_stream("0.77", tmp_path, 20_000, window=256)
    assert np.array_equal(read_values(tmp_path, 0, 100), nim_sequence("0.77", 100).values)  # the head
    with pytest.raises(InvalidArgumentError, match="not stored"):
        read_values(tmp_path, 1000, 2000)


def test_cli_stream_run_and_its_usage_errors(tmp_path):
    runner = CliRunner()
    res = runner.invoke(app, ["run", "kayles", "--n", "10000", "--stream", str(tmp_path), "--window", "512", "--json",
                              "--quiet"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert (out["period"], out["preperiod"], out["status"], out["n"]) == (12, 71, "proven", 10000)
    assert out["stream"]["records"] == 14 and out["stream"]["window"] == 512
    res = runner.invoke(app, ["run", "kayles", "--n", "10000", "--stream", str(tmp_path / "t"), "--quiet"])
    assert "in stream mode" in res.stdout and "proven" in res.stdout
    for args, message in ((["--out", "x.npy"], "--out"), (["--values", "--json"], "--values"),
                          (["--window", "100"], "at least")):
        res = runner.invoke(app, ["run", "0.6", "--stream", str(tmp_path / "u")] + args)
        assert res.exit_code == 2 and message in res.stderr and res.stderr.count("\n") == 1
    res = runner.invoke(app, ["run", "0.6", "--window", "4096"])
    assert res.exit_code == 2 and "--stream" in res.stderr
    res = runner.invoke(app, ["run", "0.[3]", "--stream", str(tmp_path / "v")])
    assert res.exit_code == 2 and "finite octal codes" in res.stderr


@pytest.mark.slow
def test_sigkill_mid_stream_then_resume_gives_identical_results(tmp_path):
    d = tmp_path / "s"
    n = 1_000_000  # long enough to be killed mid-run (the kernels got faster: 400,000 was not)
    cmd = [sys.executable, "-m", "octal.front.cli", "run", "0.6", "--n", str(n), "--stream", str(d),
           "--window", "65536", "--store-values", "--checkpoint-every", "0.2", "--quiet", "--json"]
    kill_when_file(cmd, d / FILE, settle=0.8)
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    resumed = json.loads(done.stdout)
    whole = nim_stream("0.6", tmp_path / "whole", n, window=65536, store_values=True).to_dict()
    for out in (resumed, whole):  # where the files are and how large the buffers grew may differ
        for key in ("directory", "frequencies", "memory_bytes"):
            del out["stream"][key]
    assert resumed == whole
    assert np.array_equal(read_values(d), read_values(tmp_path / "whole"))
    assert read_frequencies(d)["records"] == read_frequencies(tmp_path / "whole")["records"]


def test_a_stream_run_keeps_uint8_for_the_stamp_kernel_and_a_uint16_checkpoint_resumes(tmp_path):
    """Grundy's game to 34,000 has values 64–255, which a stream run's stamp kernel reads in uint8 (a compact store:
    bounded memory is what it exists for), so its window and stored chunks are uint8; a checkpoint whose window is
    uint16 (as the versions that widened for the stamp kernel wrote) is checked by recomputing its window (heaps
    29,993… here) and resumed to the whole-array run's values."""
    from octal.engine.stream_state import read_stream, save_stream

    nim_stream("4!.0", tmp_path, 30_000, window=1024, store_values=True)
    assert {np.load(f).dtype for f in (tmp_path / "values").iterdir()} == {np.dtype(np.uint8)}
    s = read_stream(tmp_path, "4!.0")
    assert s.max >= 64 and s.window.dtype == np.uint8
    save_stream(tmp_path, dataclasses.replace(s, head=s.head.astype(np.uint16), window=s.window.astype(np.uint16)))
    r = nim_stream("4!.0", tmp_path, 34_000, window=1024, store_values=True)
    full = nim_sequence("4!.0", 34_000)
    assert np.array_equal(read_values(tmp_path), full.values) and (r.max, r.n) == (full.max, 34_000)

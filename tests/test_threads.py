"""Threads share a run's work, never change its values: the same sequence for 1, 2, 3 and 4 threads, equal to the
numpy kernel's (which the brute-force reference checks in test_kernel.py) and to the reference itself; checkpoints
and stream runs resume with another count; --threads is checked like every number."""

import functools
import hashlib
import json
import os
import subprocess
import sys

import numpy as np
import pytest
from pieces import random_pieces
from reference import reference_code, reference_values
from typer.testing import CliRunner

from octal import GrundySequence, InvalidArgumentError, nim_sequence, nim_stream, parse_code, read_values
from octal.engine import kernels
from octal.engine.kernels import small
from octal.engine.kernels.reasons import NEW_RARE
from octal.engine.kernels.sparse import PARALLEL_RARE, super_block
from octal.engine.moves import kernel_moves
from octal.engine.sparse_run import RareList
from octal.engine.threads import (
    available_threads,
    check_threads,
    current_choice,
    current_threads,
    thread_limit,
    using_threads,
)
from octal.front.cli import app

N = 20_000
# (code, kernel): Officers, Treblecross and Grundy's game pass PARALLEL_RARE rare positions well before N (their far
# rare pairs are shared out), 0.167 keeps 60 (one thread marks them); the naive kernel on Officers and Treblecross
# (values past 64: stamps) and Kayles (values below 64: words)
CASES = [("0.6", "sparse"), ("0.007", "sparse"), ("4!.0", "sparse"), ("0.167", "sparse"), ("0.6", "naive"),
         ("0.007", "naive"), ("0.77", "naive")]


@functools.lru_cache(maxsize=None)
def numpy_values(text: str, n: int) -> np.ndarray:
    """G(0..n−1) by the numpy kernel: one heap at a time, nothing compiled, nothing shared out (1–2 s a code here:
    each code's computed once for this file's tests)."""
    moves = kernel_moves(parse_code(text), n)
    two, tie2, eq = moves.octal_split()
    G = np.zeros(n, np.int64)
    small.fill_octal(G, 0, n, 0, moves.whole, moves.one, two, tie2, eq, 1 << 40)
    G.flags.writeable = False  # shared by the tests that ask again
    return G


def digest(values) -> str:
    return hashlib.sha256(np.asarray(values, np.int64).tobytes()).hexdigest()


@pytest.mark.parametrize("text, kernel", CASES)
def test_two_threads_give_the_numpy_kernels_values(text, kernel):
    """Pieces of random length, each on one thread or two at random: every boundary and switch gives the values."""
    seq = GrundySequence(text, kernel=kernel)
    two = min(2, thread_limit())
    with random_pieces(), using_threads(two):
        got = seq.extend(N)
        ran = current_choice().heaps
    assert np.array_equal(got.astype(np.int64), numpy_values(text, N))
    assert ran.get(two, 0) > 1000 and ran.get(1, 0) > 1000, ran  # both counts ran (in the compiled kernels)
    if kernel == "sparse" and text != "0.167":
        assert len(seq.rare) >= PARALLEL_RARE  # the shared-out pass ran


def test_two_threads_give_the_brute_force_values():
    """Treblecross to 3,000 heaps against the reference's own mex of every option."""
    digits, tail, marks = reference_code("0.007")
    want = list(reference_values(digits, 3000, tail, marks))
    for kernel in ("naive", "sparse"):
        assert nim_sequence("0.007", 3000, kernel=kernel, threads=min(2, available_threads())).values.tolist() == want


SCRIPT = """
import hashlib, json, sys
import numpy as np
from octal import GrundySequence
from octal.engine.threads import current_choice, using_threads
from pieces import random_pieces
out = {}
for text, kernel in json.loads(sys.argv[1]):
    for threads in (1, 2, 3, 4):
        with random_pieces(), using_threads(threads):
            v = GrundySequence(text, kernel=kernel).extend(int(sys.argv[2]))
            assert current_choice().heaps.get(threads, 0) > 1000, (text, kernel, threads, current_choice())
        out[f"{text} {kernel} {threads}"] = hashlib.sha256(np.asarray(v, np.int64).tobytes()).hexdigest()
print(json.dumps(out))
"""


@pytest.mark.slow  # 4–8 s; the fast set keeps two threads against numpy and the brute force
def test_one_to_four_threads_give_one_sequence():
    """NUMBA_NUM_THREADS=4 lets any machine, one CPU included, run 2, 3 and 4 threads: every count, in pieces of
    random length on one thread or all of them, gives the numpy kernel's hash."""
    env = {**os.environ, "NUMBA_NUM_THREADS": "4", "PYTHONPATH": os.path.dirname(__file__)}
    r = subprocess.run([sys.executable, "-c", SCRIPT, json.dumps(CASES), str(N)], capture_output=True, text=True,
                       env=env, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    hashes = json.loads(r.stdout)
    for text, kernel in CASES:
        want = digest(numpy_values(text, N))
        assert [hashes[f"{text} {kernel} {t}"] for t in (1, 2, 3, 4)] == [want] * 4, (text, kernel)


def test_a_checkpoint_written_with_two_threads_resumes_with_one_and_back(tmp_path):
    want = nim_sequence("0.6", 60_000, threads=1).values
    two = min(2, available_threads())
    nim_sequence("0.6", 20_000, checkpoint=tmp_path / "a", threads=two)
    assert np.array_equal(nim_sequence("0.6", 60_000, checkpoint=tmp_path / "a", threads=1).values, want)
    nim_sequence("0.6", 20_000, checkpoint=tmp_path / "b", threads=1)
    assert np.array_equal(nim_sequence("0.6", 60_000, checkpoint=tmp_path / "b", threads=two).values, want)


def test_a_stream_run_resumes_with_another_thread_count(tmp_path):
    want = nim_sequence("0.007", 40_000, threads=1).values
    two = min(2, available_threads())
    first = nim_stream("0.007", tmp_path, 15_000, window=4096, store_values=True, threads=two)
    assert first.threads == two and first.to_dict()["threads"] == two
    again = nim_stream("0.007", tmp_path, 40_000, window=4096, store_values=True, threads=1)
    assert again.threads == 1
    assert np.array_equal(read_values(tmp_path), want)


def test_the_thread_count_is_checked_and_restored():
    assert check_threads(None) == current_threads() == available_threads()
    with using_threads(1):
        assert current_threads() == 1 and check_threads(None) == 1  # a census worker's runs stay on one thread
    assert current_threads() == available_threads()
    for bad in (0, -1, 1.5, "two"):
        with pytest.raises(InvalidArgumentError):
            check_threads(bad)
    with pytest.raises(InvalidArgumentError, match="NUMBA_NUM_THREADS"):
        check_threads(10_000)


def test_the_command_line_takes_and_reports_threads(tmp_path):
    runner = CliRunner()
    doc = json.loads(runner.invoke(app, ["run", "0.6", "--n", "5000", "--json", "--threads", "1"]).output)
    assert doc["threads"] == 1
    doc = json.loads(runner.invoke(app, ["stats", "0.6", "--n", "5000", "--json", "--threads", "1"]).output)
    assert doc["threads"] == 1
    r = subprocess.run([sys.executable, "-m", "octal.front.cli", "run", "0.6", "--threads", "0"], capture_output=True,
                       text=True)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "--threads" in r.stderr
    r = subprocess.run([sys.executable, "-m", "octal.front.cli", "census", "--digits", "1", "--misere", "--threads",
                        "2", "--db", str(tmp_path / "m.sqlite")], capture_output=True, text=True)
    assert r.returncode == 2 and "one thread" in r.stderr


def test_solve_plot_and_site_take_threads_and_solve_reports_them(tmp_path):
    """solve's nim values come from the same kernels: the same winning moves on 1 and 2 threads, and --json names the
    count; a bad count is one line and status 2 on every command that takes it."""
    runner = CliRunner()
    two = min(2, thread_limit())  # one on a one-CPU machine: more is refused there (below)
    docs = [json.loads(runner.invoke(app, ["solve", "0.6", "30000", "7", "--json", "--threads", str(t)]).output)
            for t in (1, two)]
    assert [d.pop("threads") for d in docs] == [1, two] and docs[0] == docs[1] and docs[0]["winning_moves"]
    for argv in (["solve", "0.6", "5"], ["plot", "0.6", "-o", str(tmp_path / "p.svg")], ["site", "kayles", "--out",
                                                                                          str(tmp_path / "site")]):
        r = subprocess.run([sys.executable, "-m", "octal.front.cli", *argv, "--threads", "0"], capture_output=True,
                           text=True)
        assert r.returncode == 2 and r.stderr.count("\n") == 1 and "--threads" in r.stderr, (argv, r.stderr)


def one_cpu() -> None:
    """A child process's affinity: one CPU, as `taskset -c 0` or a container's CPU set gives it."""
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def test_on_one_cpu_the_limit_is_one_and_more_is_one_line_and_status_2(tmp_path):
    """numba's pool follows the CPU affinity: so does the limit, and asking for more is refused, never a traceback,
    by the command line and the API alike (NUMBA_NUM_THREADS, when set, is the limit instead)."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_NUM_THREADS"}
    probe = ("from octal.engine.threads import thread_limit, available_threads; from octal import nim_sequence, "
             "InvalidArgumentError\nprint(thread_limit(), available_threads())\ntry:\n nim_sequence('0.6', 100, "
             "threads=2)\nexcept InvalidArgumentError as e:\n print('refused', e)")
    r = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, preexec_fn=one_cpu)
    assert r.returncode == 0 and r.stdout.splitlines()[0] == "1 1" and "refused --threads 2" in r.stdout, r
    for argv in (["run", "0.6", "--n", "100000"], ["solve", "0.6", "5"], ["census", "--digits", "1", "--db",
                                                                          str(tmp_path / "c.sqlite")]):
        r = subprocess.run([sys.executable, "-m", "octal.front.cli", *argv, "--threads", "2"], capture_output=True,
                           text=True, env=env, preexec_fn=one_cpu)
        assert r.returncode == 2 and r.stderr.count("\n") == 1 and "at most 1" in r.stderr, (argv, r.stderr)


def test_a_census_never_runs_more_threads_than_the_cores_it_may_use():
    """Workers × threads per worker stay within the cores (the census's own process verifies on one thread); a
    remote Dask cluster's cores are its own business."""
    from octal.census.jobs import worker_threads

    cores = available_threads()
    assert worker_threads(8, 2, None) == max(1, min(8, cores // 2))
    assert worker_threads(8, 2, "local") == max(1, min(8, cores // 2))
    assert worker_threads(8, cores + 1, None) == 1
    assert worker_threads(3, 2, "tcp://scheduler:8786") == 3


S2 = super_block(2)  # heaps a parallel pass's turn takes in one call, on two threads


def _new_rare_heap(text: str, G: np.ndarray) -> tuple[int, int, list[bool], RareList]:
    """(start, h, rare, split): a heap `start` with at least PARALLEL_RARE rare positions under the mask chosen there
    (`split`), the first heap h < start + S2 whose value is rare and never seen at a rare position before, and which
    heaps to start + 4·S2 are rare: after h, one in h's super-block and one in a later one. Every value to
    start + 4·S2 is below 64 and below P, so no other stop comes first."""
    code = parse_code(text)
    for start in range(1000, len(G) - 4 * S2, 97):
        stop = start + 4 * S2
        split = RareList.choose(G[:start], code)
        m, e, k0 = split.mask, split.e, split.k0
        rare = [(int(G[x] & m).bit_count() + e * ((x - k0) & 1)) % 2 == 0 for x in range(stop)]
        known = {int(G[x]) for x in range(start) if rare[x]}
        h = next((x for x in range(start, start + S2) if rare[x] and int(G[x]) not in known), None)
        top = min(64, 1 << int(G[:start].max()).bit_length())
        if h is None or split.count < PARALLEL_RARE or G[start:stop].max() >= top:
            continue
        if any(rare[h + 1 : start + S2]) and any(rare[start + S2 : stop]):
            return start, h, rare, split
    raise AssertionError(f"no new rare value in {text} to {len(G)}")


@pytest.mark.parametrize("text, words", [("0.007", False), ("0.6", True)])  # the stamp kernel, the word kernel
def test_a_parallel_pass_goes_on_past_a_new_rare_value_and_says_so_where_it_stops(text, words):
    """Any mask gives the same values, so a parallel pass keeps its far work past a rare value never seen before,
    in either kernel: it reaches the heap it was asked for, with the values one thread gives, and says NEW_RARE there
    for the driver to re-choose the mask; one thread stops right after that heap. A later stop of another kind (a rare
    list full at the next rare position, in the same super-block's turn or a later one's) says NEW_RARE too, so the
    re-choice is not lost. (On one CPU the pass's two shares run one after the other: the same values.)"""
    G = numpy_values(text, N)
    start, h, rare_at, split = _new_rare_heap(text, G)
    stop = start + 4 * S2
    h2 = rare_at.index(True, h + 1)  # the next rare position: in h's super-block
    h3 = rare_at.index(True, start + S2)  # and the first in a later one
    moves = kernel_moves(parse_code(text), stop)
    two, tie2, eq = moves.octal_split()
    ends = {}
    for threads, full in ((1, None), (2, None), (2, h2), (2, h3)):
        room = 1024 if full is None else sum(rare_at[start:full])  # full once the rare positions before `full` came
        W = G[:stop].astype(np.uint8 if words else np.uint16)
        W[start:] = 0
        rare, rval = np.zeros(split.count + room, np.int64), np.zeros(split.count + room, np.int64)
        rare[: split.count], rval[: split.count] = split.positions[: split.count], split.values[: split.count]
        args = (W, 0, W, start, stop, int(G[:start].max()), moves.whole, moves.one, two, tie2, eq, rare, split.count,
                rval, split.mask, split.e, split.k0)
        kernels.set_threads(min(threads, thread_limit()))
        if words:
            fill = kernels.fill_sparse_small if threads == 1 else kernels.fill_sparse_small_parallel
            reached, _, _, why = fill(*args, threads)
        else:
            fill = kernels.fill_sparse if threads == 1 else kernels.fill_sparse_parallel
            reached, _, _, why = fill(*args, np.iinfo(np.uint16).max, threads)
        assert np.array_equal(W[start:reached], G[start:reached]), threads
        ends[threads, full] = (int(reached), int(why))
    kernels.set_threads(available_threads())
    assert ends == {(1, None): (h + 1, NEW_RARE), (2, None): (stop, NEW_RARE), (2, h2): (h2, NEW_RARE),
                    (2, h3): (h3, NEW_RARE)}

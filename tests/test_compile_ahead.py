"""A kernel called at its address from another (kernels/native_call.py), and parallel entries compiled in a thread
beside the run (kernels/ahead.py): what the first run on several cores no longer waits for."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import numpy as np
import pytest
from numba import njit
from pieces import random_pieces

from octal import GrundySequence
from octal.engine import kernels
from octal.engine.kernels import ahead
from octal.engine.kernels.native_call import call_at, native_address
from octal.engine.threads import current_choice, thread_limit, using_threads


@njit
def _sum_times(out, x, k):
    """out[k] = k·Σx; returns (Σx, k)."""
    s = 0
    for i in range(x.shape[0]):
        s += x[i]
    out[k] = s * k
    return s, k


@njit
def _bump(out, k):
    out[k] += 1


@njit
def _refuse(k):
    if k > 2:
        raise ValueError("k is too large")


@njit
def _by_address(sum_at, bump_at, out, x):
    total = 0
    for k in range(out.shape[0]):
        s, kk = call_at(sum_at, (out, x, k), (0, 0))
        call_at(bump_at, (out, k), None)
        total += s + kk
    return total


@njit
def _refused_by_address(refuse_at, k):
    call_at(refuse_at, (k,), None)
    return k


def test_a_kernel_called_at_its_address_gets_its_arguments_and_gives_its_result():
    out, x = np.zeros(5, np.int64), np.arange(10, dtype=np.int64)
    sum_at = native_address(_sum_times, (out, x, 0), (0, 0))
    bump_at = native_address(_bump, (out, 0))
    assert _by_address(sum_at, bump_at, out, x) == 5 * 45 + sum(range(5))
    assert out.tolist() == [45 * k + 1 for k in range(5)]


def test_an_error_raised_at_the_address_is_raised_in_the_caller():
    refuse_at = native_address(_refuse, (0,))
    assert _refused_by_address(refuse_at, 1) == 1
    with pytest.raises(ValueError, match="too large"):
        _refused_by_address(refuse_at, 3)


def test_an_address_is_refused_for_a_result_of_another_type():
    out, x = np.zeros(5, np.int64), np.arange(10, dtype=np.int64)
    with pytest.raises(TypeError, match="returns"):
        native_address(_sum_times, (out, x, 0))  # call_at would read nothing where a pair is returned
    with pytest.raises(TypeError, match="returns"):
        native_address(_bump, (out, 0), (0, 0))


@pytest.fixture
def fresh_jobs(monkeypatch):
    """ahead's record of jobs, empty for one test, compiling in threads of their own."""
    monkeypatch.setattr(ahead, "_jobs", {})
    monkeypatch.setattr(ahead, "IN_THE_CALLERS_THREAD", False)


def test_an_entry_compiling_ahead_is_not_ready_until_its_thread_ends(fresh_jobs):
    go, calls = threading.Event(), []

    def compile_entry(*args):
        calls.append(args)
        go.wait(10)

    assert not ahead.parallel_ready("k", compile_entry, (1, 2), (3,))
    assert not ahead.parallel_ready("k", compile_entry, (1, 2), (3,))  # still compiling: not started twice
    go.set()
    ahead._jobs["k"].join(10)
    assert ahead.parallel_ready("k", compile_entry, (1, 2), (3,))
    assert calls == [(1, 2, 3)]


def test_an_entry_whose_compiling_fails_is_ready_for_the_run_to_meet_the_error(fresh_jobs, capsys):
    def compile_entry():
        raise MemoryError("no room to compile")

    ahead.parallel_ready("bad", compile_entry, ())
    ahead._jobs["bad"].join(10)
    assert ahead.parallel_ready("bad", compile_entry, ())
    assert capsys.readouterr().err == ""  # nothing printed from the thread


def test_the_switch_interval_is_short_while_compiling_and_restored_after(fresh_jobs):
    """Two entries compiling at once: both see ahead.SWITCH, and the interval is the run's own again once both end
    (not the short one the second saw when it started)."""
    before, go, seen = sys.getswitchinterval(), threading.Event(), []

    def compile_entry():
        seen.append(sys.getswitchinterval())
        go.wait(10)

    ahead.parallel_ready("a", compile_entry, ())
    ahead.parallel_ready("b", compile_entry, ())
    for _ in range(1000):
        if len(seen) == 2:
            break
        time.sleep(0.01)
    go.set()
    ahead._jobs["a"].join(10)
    ahead._jobs["b"].join(10)
    assert seen == [ahead.SWITCH, ahead.SWITCH] and sys.getswitchinterval() == before


def test_in_the_callers_thread_an_entry_is_compiled_at_once(fresh_jobs, monkeypatch):
    monkeypatch.setattr(ahead, "IN_THE_CALLERS_THREAD", True)
    calls = []
    assert ahead.parallel_ready("now", lambda: calls.append(threading.current_thread()), ())
    assert calls == [threading.current_thread()]


@pytest.mark.parametrize("ready", [False, True])
def test_a_sparse_run_goes_parallel_only_once_its_entry_is_ready(monkeypatch, ready):
    """Officers in random pieces on two threads: with the parallel entries never ready, every heap is on one thread;
    ready, some are on two (the values the same: test_threads). Kills: the run not asking whether the entry is
    compiled (`and ready(…)` dropped in sparse_run.sparse_step)."""
    two = min(2, thread_limit())
    if ready and two < 2:
        pytest.skip("this process may start one thread only: no second one to go parallel on")
    for name in ("fill_sparse_parallel_ready", "fill_sparse_small_parallel_ready"):
        monkeypatch.setattr(kernels, name, lambda *args: ready, raising=False)
    with random_pieces(), using_threads(two):
        GrundySequence("0.6", kernel="sparse").extend(30_000)
        ran = dict(current_choice().heaps)
    assert (ran.get(2, 0) > 0) == ready, ran


ONE_THREAD = """
import sys
from octal import GrundySequence
from octal.engine.threads import using_threads
with using_threads(1):
    GrundySequence("0.6", kernel="sparse").extend(40_000)
print(sorted(m for m in sys.modules if m.endswith("_parallel")))
"""


def test_a_run_on_one_thread_never_loads_a_parallel_entry():
    """Officers on one thread, in a fresh process: neither sparse kernel's parallel module is imported (its first
    import says "compiling kernels" when it was never compiled, which on one thread would be untrue). Kills: the
    driver looking up kernels.fill_sparse_parallel_ready before it asks."""
    done = subprocess.run([sys.executable, "-c", ONE_THREAD], capture_output=True, text=True, timeout=300,
                          cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "[]", done.stdout

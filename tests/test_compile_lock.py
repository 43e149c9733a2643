"""Processes that share numba's cache compile each kernel once (engine/compile_lock.py): two processes asking for the
same uncompiled function at once — one compiles it, the other waits and loads it — and every cached kernel of octal
takes the lock."""

import fcntl
import importlib
import json
import os
import pkgutil
import subprocess
import sys
import time

from numba.core.dispatcher import Dispatcher

import octal
from octal.engine import compile_lock
from octal.engine.compile_lock import SHARED

MODULE = """
from numba import njit
from octal.engine.compile_lock import share_compiles


@njit(cache=True)
def work(n):
    total = 0
    for i in range(n):
        total += i * i % 7
    return total


share_compiles(globals())
"""

CALLER = """
import json, os, sys, time
import fresh_kernel
while not os.path.exists(sys.argv[1]):
    time.sleep(0.005)
fresh_kernel.work(1000)
stats = fresh_kernel.work.stats
print(json.dumps([sum(stats.cache_misses.values()), sum(stats.cache_hits.values())]))
"""


def test_two_processes_asking_at_once_compile_once(tmp_path):
    (tmp_path / "fresh_kernel.py").write_text(MODULE)
    go = tmp_path / "go"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    procs = [subprocess.Popen([sys.executable, "-c", CALLER, str(go)], stdout=subprocess.PIPE, text=True, env=env)
             for _ in range(2)]
    time.sleep(1.0)  # both imported and waiting (the imports take about 0.5 s), then both call at once
    go.write_text("")
    counts = [json.loads(p.communicate(timeout=120)[0]) for p in procs]
    assert sorted(counts) == [[0, 1], [1, 0]]  # (compiled, loaded from the cache): one each
    assert any(f.suffix == ".lock" for f in (tmp_path / "__pycache__").iterdir())


def test_every_cached_kernel_of_octal_takes_the_lock():
    missing, shared = [], 0
    for info in pkgutil.walk_packages(octal.__path__, "octal."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if isinstance(value, Dispatcher) and value.__module__ == info.name and value._cache.__class__.__name__ \
                    == "FunctionCache":  # njit(cache=True); numba's NullCache otherwise
                shared += 1
                if not getattr(value, SHARED, False):
                    missing.append(f"{info.name}.{name}")
    assert missing == [] and shared > 40


RECURSIVE = """
from numba import njit
from octal.engine.compile_lock import share_compiles


@njit(cache=True)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


share_compiles(globals())
"""


def _fresh_module(tmp_path, monkeypatch, name: str, text: str):
    (tmp_path / f"{name}.py").write_text(text)
    monkeypatch.syspath_prepend(str(tmp_path))
    return importlib.import_module(name)


def test_a_recursive_function_takes_its_own_lock_once(tmp_path, monkeypatch):
    """Its compile asks for itself again (typing the recursive call): the lock is this process's already."""
    monkeypatch.setattr(compile_lock, "WAIT", 30.0)
    monkeypatch.setattr(compile_lock, "_alone", [False])
    started = time.monotonic()
    assert _fresh_module(tmp_path, monkeypatch, "fresh_recursive", RECURSIVE).fib(20) == 6765
    assert not compile_lock._alone[0] and time.monotonic() - started < 30


def test_a_lock_held_past_the_wait_is_passed_by(tmp_path, monkeypatch):
    """A process stopped while it holds a lock (Ctrl-Z) delays the others by WAIT once; then they compile alone."""
    module = _fresh_module(tmp_path, monkeypatch, "fresh_held", MODULE.replace("work", "held"))
    holder = os.open(module.held._cache._cache_file._index_path + ".lock", os.O_RDWR | os.O_CREAT)
    fcntl.flock(holder, fcntl.LOCK_EX)
    monkeypatch.setattr(compile_lock, "WAIT", 0.3)
    monkeypatch.setattr(compile_lock, "_alone", [False])
    try:
        started = time.monotonic()
        assert module.held(10) == sum(i * i % 7 for i in range(10))
        assert compile_lock._alone[0] and time.monotonic() - started >= 0.3
    finally:
        os.close(holder)

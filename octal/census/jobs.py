"""Running a census's jobs: the codes to enumerate, a local process pool or a Dask cluster (workers that die with
their parent), and the progress the front shows. The same results whichever runs them."""

from __future__ import annotations

import ctypes
import itertools
import logging
import multiprocessing
import os
import re
import signal
import threading
import time
from collections.abc import Iterable
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable

from ..engine.threads import usable_cores, using_threads
from ..errors import InvalidArgumentError, OctalError
from ..rules.code import HEXADECIMAL, OCTAL, parse_code
from ..validate import whole_number

PR_SET_PDEATHSIG = 1  # prctl option: the signal a process gets when its parent dies
OCTAL_DIGITS, HEX_DIGITS = "01234567", "0123456789ABCDEF"


MAX_DIGITS = 6  # 8⁶ codes (262,143 of each prefix) at most
MAX_HEX_DIGITS = 5  # 16⁵ codes (about a million): 16⁶ would be listed, with their rows, in gigabytes before any work


def enumerate_codes(digits: int, prefix: str = "0", hexadecimal: bool = False) -> list[str]:
    """Every code d0.d1…dD (octal digits, D = `digits`), d0 in {0} / {4} / both, except 0.000…; `hexadecimal`: the
    codes with hexadecimal digits of which at least one is 8 or more (the rest are octal codes)."""
    most = MAX_HEX_DIGITS if hexadecimal else MAX_DIGITS
    if not 1 <= digits <= most:
        raise InvalidArgumentError(f"--digits must be between 1 and {most}{' with --hex' if hexadecimal else ''}, not "
                                   f"{digits}")
    heads = {"0": ["0"], "4": ["4"], "both": ["0", "4"]}.get(prefix)
    if heads is None:
        raise InvalidArgumentError(f"--prefix must be 0, 4 or both, not {prefix!r}")
    out = []
    for head in heads:
        for ds in itertools.product(HEX_DIGITS if hexadecimal else OCTAL_DIGITS, repeat=digits):
            body = "".join(ds)
            if (head == "0" and set(body) == {"0"}) or (hexadecimal and set(body) <= set(OCTAL_DIGITS)):
                continue
            out.append(f"{head}.{body}")
    return out


def exit_with_parent(census: int) -> None:
    """Pool worker start-up: end this process when the census (process `census`) dies, so a kill -9 of it leaves no
    orphans. A worker forked by the census itself asks Linux (prctl); one started by the forkserver has the server as
    its parent, which lives as long as its workers do, so a watchdog thread looks for the census every second."""
    if os.getppid() == census:
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL) == 0 and os.getppid() == census:
                return
        except (OSError, AttributeError):
            pass

    def watch() -> None:
        while _running(census):
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def _running(pid: int) -> bool:
    """Whether process `pid` is alive (a zombie, killed and not yet reaped, is not)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False
    except OSError:  # no /proc: ask the kernel
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            pass
        return True


@dataclass
class CensusProgress:
    """What the progress display shows."""

    done: int
    total: int
    proven: int
    open: int
    slowest: str
    budget: int = 0  # the heaps budget of the stage running (see normal.stages)


SCHEDULER = re.compile(r"^((tcp|tls)://)?([A-Za-z0-9_.\-]+|\[[0-9A-Fa-f:]+\]):\d{1,5}$")


def check_scheduler(dask: str | None) -> None:
    """--dask takes 'local' or a scheduler address tcp://host:port (refused before any work starts)."""
    if dask is not None and dask != "local" and not SCHEDULER.match(dask):
        raise InvalidArgumentError(f"--dask takes 'local' or a scheduler address like tcp://host:8786, not {dask!r}")


def _worker_start() -> multiprocessing.context.BaseContext:
    """How pool workers start: forked from a clean server process that has imported the census (forkserver), not
    from this one: a process whose kernels have run threads (OpenMP) cannot fork safely, and a fresh interpreter
    per worker (spawn) would import numpy and numba again each time."""
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(["octal.census.normal", "octal.census.misere"])
    return ctx


def _executor(workers: int, dask: str | None):
    """A concurrent.futures-style executor: a process pool, or a Dask client (LocalCluster or remote)."""
    if dask is None:
        return ProcessPoolExecutor(max_workers=workers, initializer=exit_with_parent, initargs=(os.getpid(),),
                                   mp_context=_worker_start()), None
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise OctalError("--dask needs Dask: in the octal folder, pip install '.[dask]'") from None
    if dask == "local":
        # its workers log nothing below critical: a task's error reaches the census as an exception, and what a stop
        # on Ctrl-C cancels (tasks, heartbeats) is not news: the census says "interrupted". Its scheduler's web server
        # listens on a free port (":0"): None means Dask's 8787, and a warning on stderr when a notebook holds it
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0",
                               silence_logs=logging.CRITICAL)
        client = Client(cluster)
        return client.get_executor(), (client, cluster)
    try:
        client = Client(dask, timeout=10)
    except (OSError, ValueError, TypeError) as exc:  # unreachable, timed out, or a malformed address
        raise OctalError(f"cannot reach the Dask scheduler at {dask}: {exc}") from None
    return client.get_executor(), (client, None)


@contextmanager
def _interrupt_flag():
    """Ctrl-C while jobs run only raises a flag that the loop waiting on them reads: a KeyboardInterrupt raised at
    an arbitrary point could land inside a cluster's finaliser (Future.__del__), be printed there and then lost."""
    hit = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield hit.is_set
        return
    previous = signal.signal(signal.SIGINT, lambda *_: hit.set())
    try:
        yield hit.is_set
    finally:
        signal.signal(signal.SIGINT, previous)


def in_threads(threads: int, fn: Callable, *task):
    """fn(*task) with `threads` kernel threads: what a worker runs (a plain function, so Dask can ship it too)."""
    with using_threads(threads):
        return fn(*task)


class TaskPool:
    """A census's workers for all its stages: a process pool or a Dask client, started at the first tasks that need
    one (one worker and no Dask: this process runs them) and closed however the census ends. Kept from stage to stage,
    its workers load each compiled kernel once, not once a stage."""

    def __init__(self, workers: int, dask: str | None):
        self.workers, self.dask = workers, dask
        self.executor = self.owned = None

    def __enter__(self) -> TaskPool:
        return self

    def __exit__(self, *exc) -> None:
        if self.executor is None:
            return
        if self.owned is None:
            self.executor.shutdown(cancel_futures=True)
        else:
            client, cluster = self.owned
            client.close()
            if cluster is not None:
                cluster.close()
        self.executor = self.owned = None

    def run(self, fn: Callable, tasks: list[tuple], on_result: Callable[[dict], None], threads: int = 1) -> None:
        """fn(*task) for every task, each worker with `threads` kernel threads (1: the workers already share the
        cores), each result handed to `on_result` as it completes (in the calling process, so the results can be
        committed one by one)."""
        if not tasks:
            return
        if self.workers == 1 and self.dask is None:  # one worker: this process is it (no pool, nothing to ship)
            for task in tasks:
                on_result(in_threads(threads, fn, *task))
            return
        if self.executor is None:
            self.executor, self.owned = _executor(self.workers, self.dask)
        with _interrupt_flag() as interrupted:
            pending = {self.executor.submit(in_threads, threads, fn, *task) for task in tasks}
            while pending:
                done, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
                for fut in done:
                    on_result(fut.result())
                if interrupted():
                    raise KeyboardInterrupt


def check_workers(workers: int | None) -> int:
    """--workers: a whole number of processes, at least 1 (default: the cores this process may use)."""
    if workers is not None:
        return whole_number(workers, "--workers (processes)", 1)
    return usable_cores()


def worker_threads(threads: int, workers: int, dask: str | None) -> int:
    """The kernel threads each worker of a pool on this machine may run: `threads`, at most the cores this process
    may use shared among its workers (workers × threads never above them; a remote Dask cluster's own cores are its
    business). The census's own process verifies and groups rows on one thread."""
    if dask is not None and dask != "local":
        return threads
    return max(1, min(threads, usable_cores() // workers))


def census_plan(digits: int, prefix: str, codes: Iterable[str] | None, workers: int | None,
                dask: str | None, shard: str | None = None, hexadecimal: bool = False) -> tuple[list[str], int]:
    """(the codes a census computes: those named, or every code of `digits` digits under `prefix`, then this shard's
    share of them; its worker count), the scheduler checked first: every argument is refused before any work
    starts."""
    check_scheduler(dask)
    workers = check_workers(workers)
    todo = named_codes(codes) if codes is not None else enumerate_codes(digits, prefix, hexadecimal)
    return shard_of(todo, shard), workers


def named_codes(codes: Iterable[str]) -> list[str]:
    """The codes a user named, each a plain octal or hexadecimal code (what the census's theorems can prove), written
    0.ddd, once each."""
    if isinstance(codes, str) or not hasattr(codes, "__iter__"):
        raise InvalidArgumentError(f"codes must be a list of octal codes, not {type(codes).__name__}")
    out: dict[str, None] = {}
    for text in codes:
        if not isinstance(text, str):
            raise InvalidArgumentError(f"a census code must be text like 0.1234, not {text!r}"[:120])
        text = text.strip().upper()  # 0.f8 is the census's 0.F8
        text = "0" + text if text.startswith(".") else text
        if text in out:  # named again: counted once, parsed once (a file of two million copies took 77 s)
            continue
        code = parse_code(text)  # InvalidCodeError names what is wrong
        if code.tier not in (OCTAL, HEXADECIMAL) or not code.is_plain or "." not in text:
            raise InvalidArgumentError(f"the census takes plain octal or hexadecimal codes (d.ddd, digits 0–F, no "
                                       f"marks), not {text!r}")
        out[text] = None
    if not out:
        raise InvalidArgumentError("no codes named")
    return list(out)


SHARD = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$")


def shard_of(codes: list[str], shard: str | None) -> list[str]:
    """Shard 'i/k' (1 ≤ i ≤ k) takes every k-th code from the i-th: k shards cover every code once, each in its own
    file, and `census merge` joins the files into one."""
    if shard is None:
        return codes
    m = SHARD.match(shard) if isinstance(shard, str) else None
    if m is None or not 1 <= int(m[1]) <= int(m[2]):
        raise InvalidArgumentError(f"--shard takes i/k with 1 ≤ i ≤ k (2/4: the second of four shares), not {shard!r}")
    return codes[int(m[1]) - 1 :: int(m[2])]

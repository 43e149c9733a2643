"""How fast this machine's cores are when all of them work at once: the same one-thread run (0.167 to 2²² heaps,
the word kernel) on one core alone, then on every core at once (a process pinned to each), in rounds that
alternate. A two-thread run cannot beat one thread by more than what its two cores give together: when each core
slows down beside the other (a shared physical core, a lower all-core clock, noisy neighbours on a virtual
machine), 0.5 × one thread's wall is out of reach whatever the kernel does.

    python benchmarks/cores.py                 # 3 rounds of 3 runs each way (about 1 minute, 2 cores)
    python benchmarks/cores.py --rounds 5 --n 8388608

Prints each run's seconds, the medians, and "together ÷ alone": about 1 on a machine whose cores do not disturb
each other. Each process computes its kernels once, untimed, before the first round.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import statistics
import time

from octal import GrundySequence
from octal.engine.threads import using_threads


def _worker(core: int, n: int, runs: int, start: mp.Barrier, done: mp.Barrier, out: mp.Queue, rounds: int,
            alone_core: int) -> None:
    """Pinned to `core`: one untimed run, then per round `runs` timed runs alone (the alone core only, the others
    wait) and `runs` together (every worker at once)."""
    os.sched_setaffinity(0, {core})
    with using_threads(1):
        GrundySequence("0.167").extend(n)
        for _ in range(rounds):
            for together in (False, True):
                start.wait()
                if together or core == alone_core:
                    for _ in range(runs):
                        t0 = time.perf_counter()
                        GrundySequence("0.167").extend(n)
                        out.put((together, core, time.perf_counter() - t0))
                done.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=1 << 22, help="heaps of each run (default 2²²)")
    parser.add_argument("--runs", type=int, default=3, help="runs each way per round")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    cores = sorted(os.sched_getaffinity(0))
    if len(cores) < 2:
        raise SystemExit("cores.py needs at least two cores to compare")
    ctx = mp.get_context("spawn")
    start, done, out = ctx.Barrier(len(cores)), ctx.Barrier(len(cores)), ctx.Queue()
    procs = [ctx.Process(target=_worker, args=(c, args.n, args.runs, start, done, out, args.rounds, cores[0]))
             for c in cores]
    for p in procs:
        p.start()
    expected = args.rounds * args.runs * (1 + len(cores))
    times: dict[bool, list[float]] = {False: [], True: []}
    for _ in range(expected):
        together, core, seconds = out.get()
        times[together].append(seconds)
    for p in procs:
        p.join()
    print(f"0.167 to {args.n:,} heaps on one thread; {len(cores)} cores; {args.rounds} rounds of {args.runs} runs")
    for together in (False, True):
        label = f"on all {len(cores)} at once" if together else f"on core {cores[0]} alone"
        print(f"  {label:<18} median {statistics.median(times[together]):.3f} s   "
              + " ".join(f"{t:.3f}" for t in times[together]))
    ratio = statistics.median(times[True]) / statistics.median(times[False])
    print(f"together ÷ alone: {ratio:.2f} (a two-thread run's wall is at best {ratio / 2:.2f} of one thread's)")


if __name__ == "__main__":
    main()

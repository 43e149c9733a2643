"""What a new user waits for: a fresh virtual environment, `pip install .`, then each command run twice.

The first run of a command compiles the numba kernels it needs (numba keeps them in its cache next to the installed
package); the second run is warm. The difference is the compile cost the first run pays. Each command gets a numba
cache of its own, empty before its first run: every row is that command as the first one after an install. Each run
is in a folder of its own (a census writes its file there; the second run starts from an empty folder again).

    python benchmarks/first_run.py              # every command below (about 3 minutes, the install included)
    python benchmarks/first_run.py --quick      # without Officers 2^21 and the census shard
    python benchmarks/first_run.py --venv DIR   # keep the environment in DIR (made anew: DIR is emptied first)
    python benchmarks/first_run.py --source DIR # install another checkout (an older commit, side by side)

Wall seconds of each whole command, as the user sees them, and its CPU seconds (user + system; on Linux the whole
machine's during the command, so that a census's pool workers count: run it on a quiet machine; timing.py). The
census shard's target is in CPU seconds, the others' in wall seconds.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from timing import spent_cpu_seconds  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SHARD = "octal census --digits 4 --prefix both --shard 3/16 --max-n 4096 --workers 1"
SHARD2 = SHARD.replace("--workers 1", "--workers 2")  # two workers sharing one cache: each kernel compiled once
# (command, target): a number is a first run's wall seconds; "+W s" is the first run at most W s above the second
# (wall), "+C s CPU" the same in CPU seconds; None: measured, no target
COMMANDS = [
    ("octal run kayles", None),
    ("octal run 0.77 --n 10000", 2.5),
    ("octal solve kayles 5 4 1 1 --misere", None),
    ("octal graph petersen", None),
    ("octal graph interval:500:1", None),
    ("octal run 0.6 --n 2097152 --quiet --threads 1", None),  # Officers 2^21 on one thread: no parallel pass
    ("octal run 0.6 --n 2097152 --quiet", "+5"),  # Officers 2^21, every core: first run ≤ warm + 5 s
    (SHARD, "+15 CPU"),  # a census shard on one worker: first run ≤ warm + 15 s of CPU
    (SHARD2, None),
]
LONG = {"octal run 0.6 --n 2097152 --quiet --threads 1", "octal run 0.6 --n 2097152 --quiet", SHARD, SHARD2}


def run(venv: Path, command: str, cache: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one command run from the venv's bin in an empty folder of its own, with numba's
    cache in `cache`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_CACHE")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["NUMBA_CACHE_DIR"] = str(cache)
    folder = Path(tempfile.mkdtemp(dir=venv.parent))
    cpu0, t0 = spent_cpu_seconds(), time.perf_counter()
    done = subprocess.run(command.split(), capture_output=True, text=True, env=env, cwd=folder)
    wall, cpu = time.perf_counter() - t0, spent_cpu_seconds() - cpu0
    shutil.rmtree(folder, ignore_errors=True)
    if done.returncode != 0:
        raise SystemExit(f"{command} failed: {done.stderr.strip()[-300:]}")
    return wall, cpu


def verdict(target, first: tuple[float, float], second: tuple[float, float]) -> str:
    """The target's words and whether the first run met it."""
    if target is None:
        return ""
    if isinstance(target, float):
        return f"first ≤ {target:g} s: {'met' if first[0] <= target else 'missed'}"
    cpu = target.endswith("CPU")
    extra = float(target.split()[0])
    over = first[1] - second[1] if cpu else first[0] - second[0]
    return f"first ≤ second + {extra:g} s{' of CPU' if cpu else ''}: {'met' if over <= extra else 'missed'}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--venv", type=Path, default=None)
    ap.add_argument("--source", type=Path, default=ROOT, help="the checkout to install (default: this one)")
    args = ap.parse_args()
    venv = args.venv or Path(tempfile.mkdtemp()) / "venv"
    shutil.rmtree(venv, ignore_errors=True)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", str(args.source)], check=True)
    print(f"fresh venv and pip install . : {time.perf_counter() - t0:.1f} s wall ({venv})")
    commands = [c for c in COMMANDS if not (args.quick and c[0] in LONG)]
    print(f"{'command':78} {'first':>7} {'second':>7} {'compile':>7} {'CPU 1st':>7} {'CPU 2nd':>7}  target")
    for command, target in commands:
        cache = Path(tempfile.mkdtemp(dir=venv.parent))  # each command as the first after an install: nothing cached
        first = run(venv, command, cache)
        second = run(venv, command, cache)
        print(f"{command:78} {first[0]:6.2f}s {second[0]:6.2f}s {first[0] - second[0]:6.2f}s {first[1]:6.2f}s "
              f"{second[1]:6.2f}s  {verdict(target, first, second)}", flush=True)
    if args.venv is None:
        shutil.rmtree(venv.parent, ignore_errors=True)


if __name__ == "__main__":
    main()

"""What a new user waits for: a fresh virtual environment, `pip install .`, then the README's commands run twice each.

The first run of a command compiles the numba kernels it needs (numba keeps them in its cache next to the installed
package); the second run is warm. The difference is the compile cost the first run pays.

    python benchmarks/first_run.py              # the README's commands (about 3 minutes, the install included)
    python benchmarks/first_run.py --quick      # without Officers 2^21
    python benchmarks/first_run.py --venv DIR   # keep the environment in DIR (made anew: DIR is emptied first)

Wall seconds of each whole command, as the user sees them (numba compiles on one core: wall ≈ CPU here).
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

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = [
    ("octal run kayles", None),
    ("octal run 0.77 --n 10000", 2.5),
    ("octal solve kayles 5 4 1 1 --misere", None),
    ("octal graph petersen", None),
    ("octal graph interval:500:1", None),
    ("octal run 0.6 --n 2097152 --quiet", None),  # Officers 2^21: target, first run ≤ warm + 3 s
]


def run(venv: Path, command: str) -> tuple[float, str]:
    """Wall seconds of one command run from the venv's bin (outside the repository), and its last line."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_CACHE")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    t0 = time.perf_counter()
    done = subprocess.run(command.split(), capture_output=True, text=True, env=env, cwd=venv)
    dt = time.perf_counter() - t0
    if done.returncode != 0:
        raise SystemExit(f"{command} failed: {done.stderr.strip()[-300:]}")
    return dt, (done.stdout.strip().splitlines() or [""])[-1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--venv", type=Path, default=None)
    args = ap.parse_args()
    venv = args.venv or Path(tempfile.mkdtemp()) / "venv"
    shutil.rmtree(venv, ignore_errors=True)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", str(ROOT)], check=True)
    print(f"fresh venv and pip install . : {time.perf_counter() - t0:.1f} s wall ({venv})")
    commands = COMMANDS[:-1] if args.quick else COMMANDS
    print(f"{'command':42} {'first':>8} {'second':>8} {'compile':>8}  target")
    for command, target in commands:
        first, _ = run(venv, command)
        second, _ = run(venv, command)
        if target is not None:
            verdict = f"first ≤ {target:g} s: {'met' if first <= target else 'missed'}"
        elif "2097152" in command:
            verdict = f"first ≤ second + 3 s: {'met' if first - second <= 3 else 'missed'}"
        else:
            verdict = ""
        print(f"{command:42} {first:7.2f}s {second:7.2f}s {first - second:7.2f}s  {verdict}")
    if args.venv is None:
        shutil.rmtree(venv.parent, ignore_errors=True)


if __name__ == "__main__":
    main()

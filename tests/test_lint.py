"""The linter runs with the tests: `ruff check` (its rules and why are in pyproject.toml) is clean, so CI, which runs
the README's test command, fails on a lint error like on any other."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_check_is_clean():
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--quiet", "--no-cache", str(ROOT)],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-1000:]

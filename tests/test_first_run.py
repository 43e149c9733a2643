"""The first run after an install: the same answers as any later run (budgets count work, not seconds), and one line
saying that kernels compile. Each case runs in a fresh process with an empty numba cache, as a new user's would."""

import os
import subprocess
import sys

import pytest


def fresh(tmp_path, *args: str, code: str | None = None) -> subprocess.CompletedProcess:
    """`octal ARGS` (or python -c CODE) in a new process whose numba cache is the empty folder tmp_path/cache."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    cmd = [sys.executable, "-c", code] if code else [sys.executable, "-m", "octal.front.cli", *args]
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)


@pytest.mark.slow
def test_the_first_misere_solve_answers_by_the_quotient(tmp_path):
    """Compiling the misère kernels takes seconds on a first run; the method is chosen by work, so it is the same."""
    first = fresh(tmp_path, "solve", "kayles", "5", "4", "1", "1", "--misere")
    second = fresh(tmp_path, "solve", "kayles", "5", "4", "1", "1", "--misere")
    assert first.returncode == 0, first.stderr
    assert "method   misère quotient (order 12, heaps ≤ 5)" in first.stdout
    assert first.stdout == second.stdout


NOTICE_PROBE = """
from octal.engine import compile_notice
heard = []
compile_notice.listen(heard.append)
from octal.engine.kernels import period
import numpy as np
period.periodic_from(np.zeros(8, np.uint8), 8, 1, 7)
print(heard)
"""


def test_a_module_that_never_ran_says_it_compiles_once(tmp_path):
    first = fresh(tmp_path, code=NOTICE_PROBE)
    second = fresh(tmp_path, code=NOTICE_PROBE)
    assert first.stdout.strip() == "['compiling kernels, first run only: about 2 to 15 s…']", first.stderr
    assert second.stdout.strip() == "[]", second.stderr


@pytest.mark.parametrize("argv", [["run", "0.77", "--n", "10000"], ["run", "0.6", "--n", "16384"]])
def test_runs_of_up_to_16384_heaps_need_no_compiler(tmp_path, argv):
    """Short runs use the numpy kernels (held to the compiled ones' answers by test_startup): nothing to compile."""
    probe = ("import sys\nfrom octal.front.cli import main\n"
             "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
             "print('NUMBA' if 'numba' in sys.modules else 'CLEAN')")
    out = subprocess.run([sys.executable, "-c", probe, *argv], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")})
    assert out.stdout.strip().splitlines()[-1] == "CLEAN", out.stderr
    assert "verdict" in out.stdout

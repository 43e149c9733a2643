"""Short commands never import numba; the numpy kernels for short runs agree with the compiled ones."""

import subprocess
import sys

import numpy as np
import pytest

from octal import parse_code
from octal.engine import kernels
from octal.engine.kernels import small
from octal.engine.moves import kernel_moves

PROBE = """
import sys
from octal.front.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print("NUMBA" if "numba" in sys.modules else "CLEAN", "NUMPY" if "numpy" in sys.modules else "")
"""


@pytest.mark.parametrize("argv, numpy_loaded, says", [
    (["--help"], False, "Usage: octal"),
    (["presets"], True, "Kayles"),
    (["run", "kayles"], True, "period 12 from heap 71"),
    (["run", "0.6", "--n", "3000", "--json"], True, '"n": 3000'),
])
def test_short_commands_do_not_import_numba(argv, numpy_loaded, says):
    """Each command did its work (`says` is in its output) without numba; numpy is loaded exactly when it computes."""
    out = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, timeout=120)
    *printed, last = out.stdout.strip().splitlines()
    assert says in "\n".join(printed), out.stdout[-300:] + out.stderr[-300:]
    assert last.startswith("CLEAN"), out.stdout[-300:] + out.stderr[-300:]
    assert ("NUMPY" in last) == numpy_loaded, last


@pytest.mark.parametrize("code", ["0.77", "0.137", "0.6", "0.007", "4.07", "4!.0", "0.[3]", "0.4!4"])
def test_numpy_kernel_matches_the_compiled_one(code):
    c = parse_code(code)
    n = 3000
    moves = kernel_moves(c, n)
    two, tie2, eq = moves.octal_split()
    G = np.zeros(n, np.uint16)
    reached, top = small.fill_octal(G, 0, n, 0, moves.whole, moves.one, two, tie2, eq, 65535)
    assert reached == n
    G2, R = np.zeros(n, np.uint16), np.zeros(n, np.uint16)  # the numba kernel, with its reversed copy
    reached2, top2 = kernels.fill_octal(G2, R, 0, n, 0, moves.whole, moves.one, two, tie2, eq, 65535, 1)
    assert np.array_equal(G, G2) and (reached, top) == (reached2, top2)


def test_numpy_period_search_matches_the_compiled_one():
    rng = np.random.default_rng(7)
    for _ in range(60):
        pre, p = rng.integers(0, 200), rng.integers(1, 40)
        head = rng.integers(0, 6, pre)
        cycle = rng.integers(0, 6, p)
        N = int(rng.integers(50, 1500))
        G = np.concatenate([head, np.resize(cycle, max(N - pre, 0))])[:N].astype(np.uint8)
        for provable, r, t in ((True, 2, 3), (False, 2, 0), (True, 3, 5)):
            args = (G, len(G), r, t, provable, 3, 0, 1.0)
            assert tuple(map(int, small.scan_periods(*args))) == tuple(map(int, kernels.scan_periods(*args)))
        s = int(rng.integers(1, 4))
        A = (G.astype(np.int64) + s * (np.arange(len(G)) // p)).astype(np.uint16)
        assert small.arithmetic_from(A, len(A), int(p), s) == kernels.arithmetic_from(A, len(A), int(p), s)


def test_using_a_name_imports_no_display_and_no_numba():
    """Notebook displays are registered by type name when first shown: using octal.X loads only what X needs."""
    probe = ("import sys, octal; r = octal.nim_sequence('0.77', 200); s = octal.parse_code('0.07'); "
             "print(sorted(m for m in ('numba', 'octal.front.notebook', 'octal.census', 'octal.graphs', "
             "'octal.misere') if m in sys.modules)); r._repr_html_(); print('octal.front.notebook' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\n")[:2] == ["[]", "True"]

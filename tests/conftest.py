import atexit
import csv
import os
import shutil
import tempfile
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"

# the tests' own signing key (octal.trust), made in a folder of their own: never the user's, shared by the test
# process and the commands it starts (the environment is inherited), and removed when that process ends
os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="octal-test-config-")
atexit.register(shutil.rmtree, os.environ["XDG_CONFIG_HOME"], ignore_errors=True)

# the commands the tests start run the octal the tests import (this checkout's), whatever folder they start in, not a
# copy installed beside it: one numba cache for both, so CI compiles each kernel once, not once for each copy (the
# installed copy's files are test_packaging's: the wheel holds every preset and table)
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(Path(__file__).resolve().parent.parent),
                                                         os.environ.get("PYTHONPATH")]))


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config) -> int:
    """`-n auto`: one test process per CPU this process may use (a `taskset` or a container's CPU set counts, as it
    does for octal's own threads), not the machine's count that pytest-xdist reads from psutil."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


@pytest.fixture(scope="session")
def oeis_rows() -> dict[str, dict]:
    """OEIS first values (heaps 0..99) by code, copied from the shared reference data."""
    with open(DATA / "oeis_first_values.csv", newline="") as f:
        return {r["code"]: {**r, "values": [int(x) for x in r["values_heap_0_to_99"].split()]}
                for r in csv.DictReader(f)}


@pytest.fixture(scope="session")
def kayles_table_lines() -> list[str]:
    """The classical Kayles table as printed (header row and rows 0+ .. 72+)."""
    lines = (DATA / "kayles_table.txt").read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip().startswith("0  1  2"))
    return [line for line in lines[start:] if line.strip()]

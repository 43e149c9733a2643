"""Ready to ship and to cite: the version is written once (octal/version.py) and CITATION.cff quotes the same; the
wheel and the sdist build from a clean copy of the repository and pass `twine check`."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import octal

ROOT = Path(__file__).resolve().parent.parent


def test_the_version_is_written_once_and_cited_as_it_is():
    assert octal.__version__ == re.search(r'__version__ = "([^"]+)"', (ROOT / "octal" / "version.py").read_text())[1]
    assert 'dynamic = ["version"]' in (ROOT / "pyproject.toml").read_text()
    cff = (ROOT / "CITATION.cff").read_text()
    assert re.search(r'^version: "([^"]+)"$', cff, re.M)[1] == octal.__version__
    assert re.search(r"^cff-version: 1\.2\.0$", cff, re.M) and re.search(r"^title: ", cff, re.M)


@pytest.mark.slow
def test_wheel_and_sdist_build_and_pass_twine_check(tmp_path):
    src = tmp_path / "src"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(".git", ".venv*", "__pycache__", "*.egg-info", "build",
                                                            "dist", "site", ".pytest_cache", ".hypothesis", "*.sqlite"))
    dist = tmp_path / "dist"
    done = subprocess.run([sys.executable, "-m", "build", "--outdir", str(dist), str(src)], capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    wheels, sdists = list(dist.glob("*.whl")), list(dist.glob("*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1 and f"-{octal.__version__}" in wheels[0].name
    # every module, preset and table of the checkout: the tests' commands run the checkout (conftest.py), so this is
    # where a file left out of the installed package is caught
    names = set(zipfile.ZipFile(wheels[0]).namelist())
    want = {p.relative_to(ROOT).as_posix() for p in (ROOT / "octal").rglob("*.py")}
    want |= {f"octal/preset_files/{p.name}" for p in (ROOT / "presets").glob("*.toml")}
    want |= {f"octal/table_files/{p.name}" for p in (ROOT / "data").iterdir() if p.suffix in (".csv", ".xz")}
    assert "octal/preset_files/kayles.toml" in want and "octal/table_files/census-4digit.csv" in want
    assert want <= names, sorted(want - names)
    check = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", *map(str, wheels + sdists)],
                           capture_output=True, text=True, timeout=300)
    assert check.returncode == 0, check.stdout[-3000:] + check.stderr[-2000:]


def test_the_commands_the_tests_start_run_this_checkout(tmp_path):
    """A command started in a folder of its own imports the checkout's octal, as the tests do (conftest.py), not a
    copy installed beside it: one numba cache for both."""
    r = subprocess.run([sys.executable, "-c", "import octal; print(octal.__file__)"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and Path(r.stdout.strip()) == ROOT / "octal" / "__init__.py", r.stdout + r.stderr

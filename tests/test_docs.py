"""The docs: the MkDocs site builds with --strict (a broken link or a missing page fails), and the README is short,
links only to pages that exist, and every `$ octal …` example in it prints what it shows."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def test_the_docs_build_strictly(tmp_path):
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    r = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                       cwd=ROOT, capture_output=True, text=True, timeout=300, env=env)
    assert r.returncode == 0, r.stderr[-3000:]
    api = (tmp_path / "site" / "api" / "index.html").read_text()
    assert "Compute G(0..n−1) of a code or preset" in api  # the reference is generated from the docstrings
    assert "partizan_node_kayles" in api


def test_the_readme_is_short_and_links_to_pages_that_exist():
    assert len(README.splitlines()) < 200
    links = re.findall(r"\]\((docs/[^)#]+)", README)
    assert len(links) >= 10 and all((ROOT / link).is_file() for link in links)


def examples(text: str) -> list[tuple[list[str], str]]:
    """(arguments, expected output) of every '$ octal …' line in the text's code blocks."""
    out: list[tuple[list[str], list[str]]] = []
    inside = False
    for line in text.splitlines():
        if line.startswith("```"):
            inside = not inside
            current = None
        elif inside and line.startswith("$ octal "):
            current = (line[2:].split()[1:], [])
            out.append(current)
        elif inside and current is not None:
            current[1].append(line)
    return [(args, "\n".join(lines).strip("\n")) for args, lines in out]


EXAMPLES = examples(README)


def test_the_readme_shows_examples():
    assert len(EXAMPLES) >= 5


@pytest.mark.parametrize("args, expected", EXAMPLES, ids=[" ".join(a) for a, _ in EXAMPLES])
def test_every_readme_example_prints_what_it_shows(args, expected):
    r = subprocess.run([sys.executable, "-c", "from octal.front.cli import main; main()", *args],
                       capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert [line.rstrip() for line in r.stdout.strip("\n").splitlines()] == expected.splitlines()

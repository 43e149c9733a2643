"""Every `$ octal …` example in the docs pages (docs/*.md) prints what it shows.

Each example runs as a subprocess of this Python's octal, and its stdout is compared with the lines the page shows
under it: `…` (or `...`) stands for any number of lines, timings and temporary paths are normalised, every other line
must be equal; an example that shows nothing must print nothing. The examples of one page run in order in
one temporary folder, because later ones read what earlier ones wrote (a census, then its report). The parser and
the comparison are benchmarks/docs_examples.py's, so the test and the benchmark script judge alike.

A code block marked `<!-- benchmark-only: REASON -->` (minutes of work: the 3-digit censuses, Grundy's game to 2²⁴
heaps) is skipped here with its reason and run by `python benchmarks/docs_examples.py`. README.md's examples are
tests/test_docs.py's.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
from docs_examples import DOCS, Example, Outcome, differences, examples, normalise, pages, run  # noqa: E402

EXAMPLES = [e for page in pages() for e in examples(page)]

# Examples of 5 to 20 s wall here (2-core EPYC, 2026-11-26 and -27), which CI runs and `pytest -m "not slow"`
# leaves out: (page, command) → seconds measured, on a quiet machine (a busy one took up to 1.7 times as long);
# longer ones are marked benchmark-only in the page instead
SLOW = {
    ("census.md", "octal census --digits 2"): 7.5,
    ("census.md", "octal census --hex --digits 1 --max-n 4096 --db hex1.sqlite"): 6.5,
    ("census.md", "octal census report --db hex1.sqlite --format csv --columns code,status,preperiod,period,saltus,"
                  "theorem"): 9.6,  # its census (above) runs first
    ("graphs.md", "octal graph path:40 --game partizan --owners alternate"): 8.0,
    ("long-runs.md", "octal stats officers --n 2097152"): 9.2,
    ("long-runs.md", "octal run 0.354 --until-proven --max-n 30000000 --stream runs/354 --window 65536 --quiet"): 11.6,
    ("site.md", "octal census --digits 2 && octal site --out site/"): 7.0,
    ("site.md", "octal site kayles dawsons-kayles 0.137 --out teaching/"): 7.5,
}


class PageRun:
    """One page's examples, run in page order in one folder: asking for an example first runs those before it (even
    one that `-m "not slow"` deselected: a later example may read its files), each once."""

    def __init__(self, page: str, folder: Path):
        self.folder = folder
        self.todo = [e for e in EXAMPLES if e.page == page and not e.benchmark]
        self.done: dict[int, Outcome] = {}

    def outcome(self, example: Example) -> Outcome:
        while example.line not in self.done:
            nxt = self.todo.pop(0)
            self.done[nxt.line] = run(nxt, self.folder, timeout=300)
        return self.done[example.line]


@pytest.fixture(scope="module")
def page_runs(tmp_path_factory):
    """The PageRun of a page, by its file name, each in a folder of its own."""
    runs: dict[str, PageRun] = {}

    def get(page: str) -> PageRun:
        if page not in runs:
            runs[page] = PageRun(page, tmp_path_factory.mktemp(Path(page).stem))
        return runs[page]

    return get


def _param(example: Example):
    marks = [pytest.mark.slow] if (example.page, example.command) in SLOW else []
    return pytest.param(example, marks=marks, id=example.id)


@pytest.mark.parametrize("example", [_param(e) for e in EXAMPLES])
def test_every_docs_example_prints_what_it_shows(example, page_runs):
    """The example exits with 0 and prints what the page shows under it (a benchmark-only one is skipped, saying
    why)."""
    if example.benchmark:
        pytest.skip(f"benchmark-only ({example.benchmark}): python benchmarks/docs_examples.py runs it")
    outcome = page_runs(example.page).outcome(example)
    assert outcome.failure is None, f"{example.id}\n{outcome.failure}"


def test_the_docs_pages_show_examples():
    """The parser finds the examples (a change of the docs' layout must not quietly leave nothing to test), and every
    benchmark-only marker sits on a code block that holds some; the slow list names examples that exist."""
    assert len(EXAMPLES) >= 20
    assert {e.page for e in EXAMPLES} >= {"codes.md", "graphs.md", "misere.md", "positions.md", "site.md"}
    markers = sum(p.read_text().count("<!-- benchmark-only:") for p in DOCS.glob("*.md"))
    assert markers == len({(e.page, e.block) for e in EXAMPLES if e.benchmark})
    commands = {(e.page, e.command) for e in EXAMPLES}
    assert set(SLOW) <= commands, set(SLOW) - commands


def test_the_comparison_rules():
    """What a page may show: `…` for any lines, timings and temporary paths normalised, a comment or `&&` in the
    command; anything else must be printed as shown."""
    assert differences(["a", "…", "d"], ["a", "b", "c", "d"]) is None
    assert differences(["a", "...", "b"], ["a", "b"]) is None  # `…` may stand for no line
    assert differences(["a", "…"], ["b"]) is not None
    assert differences(["a"], ["a", "b"]) is not None  # a line printed but not shown is a difference
    assert differences([], ["a"]) is not None and differences([], []) is None  # showing nothing: printing nothing
    assert differences(["status  finite (0.45 s)", "took 1,234.5 s", "(12 ms)"],
                       ["status  finite (3.26 s)", "took 3 s", "(7 ms)"]) is None
    assert differences(["3 steps, 2 states"], ["4 steps, 2 states"]) is not None  # counts are not timings
    assert normalise("written to /tmp/pytest-1/x/q.json") == "written to <tmp>"
    example = Example("p.md", 1, "octal census --digits 2 && octal site --out 'site dir/'")
    assert example.parts == [["census", "--digits", "2"], ["site", "--out", "site dir/"]]


def test_the_parser_reads_a_page(tmp_path):
    """Commands lose their trailing comment, blank lines around the output go, and a marked block says why."""
    page = tmp_path / "page.md"
    page.write_text("text\n\n<!-- benchmark-only: about 2 min -->\n```\n$ octal run '4!.0' --n 10   # a comment\n"
                    "line 1\n\n$ octal show kayles\n```\n\n```\n$ ls\n$ octal presets\nx\n\n```\n")
    found = examples(page)
    assert [(e.command, e.expected, e.benchmark) for e in found] == [
        ("octal run '4!.0' --n 10", ["line 1"], "about 2 min"), ("octal show kayles", [], "about 2 min"),
        ("octal presets", ["x"], None)]
    assert found[0].parts == [["run", "4!.0", "--n", "10"]]

"""The `$ octal …` examples of the docs pages, run and compared with what they show; the runs too long for the tests.

    python benchmarks/docs_examples.py              # the examples marked benchmark-only (minutes: censuses, records)
    python benchmarks/docs_examples.py --all        # every example of every page
    python benchmarks/docs_examples.py --all --page site.md --page codes.md

An example is a line `$ octal …` in a fenced code block of a page under docs/; the lines after it, up to the next `$`
line or the end of the block, are what it prints (stdout). A line that is exactly `…` or `...` stands for any number
of lines (none included); timings (`3.26 s`, `(12 ms)`, `25 min`) and temporary paths are normalised on both sides;
every other line must equal the output's line, right-stripped. An example that shows no output must print none. A
trailing shell comment (`  # …`) is dropped and `a && b` runs a, then b, their outputs joined.

A code block whose line just before is `<!-- benchmark-only: REASON -->` is too long for the tests
(tests/test_docs_examples.py skips it, saying REASON): this script runs it. The examples of one page run in order in
one temporary folder (a census, then its report), so with --all a page's benchmark-only blocks run with the others
and without it they run, in order, by themselves. For each example the script prints PASS or FAIL, its wall seconds
and its CPU seconds (on Linux the whole machine's, so a census's pool workers count: run it on a quiet machine;
timing.py), and the differences of a failure; it exits 1 if any failed.

This file is also the parser and the comparison the test imports, so the two can never disagree.
"""

from __future__ import annotations

import argparse
import difflib
import re
import shlex
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from timing import spent_cpu_seconds  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
OCTAL = [sys.executable, "-c", "from octal.front.cli import main; main()"]  # the CLI of the octal imported here
ANY_LINES = ("…", "...")  # an expected line that matches any number of output lines
MARKER = re.compile(r"^\s*<!--\s*benchmark-only:\s*(.*?)\s*-->\s*$")
# a duration: a number (digits, thousands commas, a decimal point) then a unit of time; "3.26 s", "(12 ms)", "25 min"
TIMING = re.compile(r"(?<![\w.,])\d[\d,]*(?:\.\d+)?\s?(?:ms|µs|us|min|s|h)\b")
TEMP = re.compile(re.escape(tempfile.gettempdir().rstrip("/")) + r"/[^\s'\")]*")


@dataclass
class Example:
    """One `$ octal …` line of a page: its command, the output it shows, and the block's benchmark-only reason."""

    page: str  # the page's file name, "census.md"
    line: int  # the `$` line's number in the page, from 1
    command: str  # the command as written, without "$ " and without its trailing comment
    expected: list[str] = field(default_factory=list)  # the lines shown after it (blank lines at either end dropped)
    benchmark: str | None = None  # the reason when its code block is marked benchmark-only
    block: int = 0  # which code block of the page holds it, from 0

    @property
    def parts(self) -> list[list[str]]:
        """The command's arguments, one list per `&&`-joined part, each without its leading `octal`."""
        out: list[list[str]] = [[]]
        for token in shlex.split(self.command):
            if token == "&&":
                out.append([])
            else:
                out[-1].append(token)
        for part in out:
            if not part or part[0] != "octal":
                raise ValueError(f"{self.page}:{self.line}: every part of {self.command!r} must be an octal command")
        return [part[1:] for part in out]

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line} {self.command}"


def examples(path: Path) -> list[Example]:
    """Every `$ octal …` example in the fenced code blocks of a Markdown page, in page order."""
    out: list[Example] = []
    inside, current, benchmark, previous, block = False, None, None, "", -1
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if line.startswith("```"):
            if not inside:
                marked = MARKER.match(previous)
                benchmark = marked.group(1) if marked else None
                block += 1
            inside, current = not inside, None
        elif inside and line.startswith("$ "):
            current = None
            if line.startswith("$ octal "):
                command = re.sub(r"\s+#(\s.*)?$", "", line[2:]).strip()  # a trailing shell comment
                current = Example(path.name, number, command, benchmark=benchmark, block=block)
                out.append(current)
        elif inside and current is not None:
            current.expected.append(line.rstrip())
        if line.strip():
            previous = line
    for example in out:
        while example.expected and not example.expected[-1].strip():
            example.expected.pop()
        while example.expected and not example.expected[0].strip():
            example.expected.pop(0)
    return out


def pages() -> list[Path]:
    """The docs pages that hold at least one example."""
    return [p for p in sorted(DOCS.glob("*.md")) if examples(p)]


def normalise(line: str, folder: Path | None = None) -> str:
    """A line with its timings and temporary paths replaced by placeholders, and its right end stripped."""
    if folder is not None:
        line = line.replace(str(folder), "<tmp>")
    line = TEMP.sub("<tmp>", line)
    return TIMING.sub("<time>", line).rstrip()


def differences(expected: list[str], actual: list[str], folder: Path | None = None) -> str | None:
    """None when the output matches the expected lines (`…` matching any run of lines), else a readable account."""
    want = [e if e.strip() in ANY_LINES else normalise(e) for e in expected]
    got = [normalise(a, folder) for a in actual]
    # match[i][j]: want[i:] matches got[j:]
    match = [[False] * (len(got) + 1) for _ in range(len(want) + 1)]
    match[len(want)][len(got)] = True
    for i in range(len(want) - 1, -1, -1):
        for j in range(len(got), -1, -1):
            if want[i].strip() in ANY_LINES:
                match[i][j] = match[i + 1][j] or (j < len(got) and match[i][j + 1])
            else:
                match[i][j] = j < len(got) and want[i] == got[j] and match[i + 1][j + 1]
    if match[0][0]:
        return None
    diff = difflib.unified_diff(want, got, "shown", "printed", n=2, lineterm="")
    return "the output differs from what the page shows (a `…` line stands for any lines):\n" + "\n".join(diff)


@dataclass
class Outcome:
    """What running an example gave: its exit status, its output, the failure (None: it passed), its seconds."""

    returncode: int
    stdout: str
    stderr: str
    failure: str | None
    wall: float
    cpu: float


def run(example: Example, folder: Path, timeout: float | None = None) -> Outcome:
    """Run each part of the example in the folder, in order, then compare the joined stdout with what it shows."""
    stdout, stderr, code = [], [], 0
    cpu0, t0 = spent_cpu_seconds(), time.perf_counter()
    for args in example.parts:
        r = subprocess.run([*OCTAL, *args], cwd=folder, capture_output=True, text=True, timeout=timeout)
        stdout.append(r.stdout.strip("\n"))
        stderr.append(r.stderr)
        code = r.returncode
        if code != 0:
            break
    wall, cpu = time.perf_counter() - t0, spent_cpu_seconds() - cpu0
    out, err = "\n".join(s for s in stdout if s), "".join(stderr)
    if code != 0:
        failure = f"exit status {code}:\n{err[-3000:]}"
    else:  # an example that shows nothing must print nothing (`…` shows output left out)
        failure = differences(example.expected, out.splitlines(), folder)
    return Outcome(code, out, err, failure, wall, cpu)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--all", action="store_true", help="every example, not only the benchmark-only ones")
    ap.add_argument("--page", action="append", help="only this page (a file name under docs/; may repeat)")
    args = ap.parse_args()
    failed = ran = 0
    for page in pages():
        if args.page and page.name not in args.page:
            continue
        chosen = [e for e in examples(page) if args.all or e.benchmark]
        if not chosen:
            continue
        with tempfile.TemporaryDirectory(prefix=f"docs-{page.stem}-") as tmp:
            for example in chosen:
                outcome = run(example, Path(tmp))
                ran += 1
                failed += outcome.failure is not None
                verdict = "PASS" if outcome.failure is None else "FAIL"
                print(f"{verdict}  {outcome.wall:8.1f} s wall {outcome.cpu:8.1f} s CPU  {example.id}", flush=True)
                if outcome.failure:
                    print("      " + outcome.failure.replace("\n", "\n      "), flush=True)
    print(f"{ran} examples, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

"""`octal census` and its commands: compute every small code into SQLite, report it, show a stored quotient."""

from __future__ import annotations

import re
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Optional

import typer

from .. import defaults as D
from ..errors import DataFileError, InvalidArgumentError
from ..reading import NOT_REGULAR, is_special, read_text
from .exits import friendly
from .help_layout import PlainHelp, PlainHelpGroup

# the census, the engine and numpy load inside the commands that use them: `octal --help` stays quick

census_app = typer.Typer(help="Every octal code of up to D digits, computed until proven, in SQLite.",
                         rich_markup_mode=None, cls=PlainHelpGroup)
Db = Annotated[str, typer.Option("--db", metavar="FILE", help="SQLite file.")]


@census_app.callback(invoke_without_command=True)
@friendly
def census(
    ctx: typer.Context,
    digits: Annotated[int, typer.Option("--digits", metavar="D", help="Digits after the point (3: 0.001 … 0.777).")] = D.CENSUS_DIGITS,
    prefix: Annotated[str, typer.Option("--prefix", metavar="P", help="0, 4 or both.")] = "0",
    hexadecimal: Annotated[bool, typer.Option("--hex", help="The hexadecimal codes instead: digits 0–F, at least one of them 8 or more (3,584 at 3 digits); --max-n 4,096 unless given.")] = False,
    max_n: Annotated[Optional[int], typer.Option("--max-n", metavar="N", help="Heaps budget per code (default 65,536, or 1,048,576 with --until-proven). Codes whose proof needs more stay open: at 2 digits 0.16 and 0.56, which octal's 4-digit table proves with 509,622 and 653,570 heaps; the run names such codes at its end.")] = None,
    until_proven: Annotated[bool, typer.Option("--until-proven", help="Escalate every open code until proven or the --max-n budget is spent (default 1,048,576 heaps).")] = False,
    workers: Annotated[Optional[int], typer.Option("--workers", metavar="N", help="Processes (default: CPU count).")] = None,
    dask: Annotated[Optional[str], typer.Option("--dask", metavar="ADDRESS", help="'local' or a scheduler tcp://host:8786.")] = None,
    db: Db = D.CENSUS_DB,
    misere: Annotated[bool, typer.Option("--misere", help="The misère quotient of every code instead.")] = False,
    max_heap: Annotated[int, typer.Option("--max-heap", metavar="H", help="With --misere: heaps per code.")] = D.CENSUS_MAX_HEAP,
    max_order: Annotated[int, typer.Option("--max-order", metavar="K", help="With --misere: 'growing' past |Q| = K.")] = D.CENSUS_MAX_ORDER,
    max_work: Annotated[int, typer.Option("--max-work", metavar="STEPS", help="With --misere: steps of work per code.")] = D.CENSUS_MAX_WORK,
    codes: Annotated[Optional[str], typer.Option("--codes", metavar="LIST|FILE", help="Only these codes: 0.1234,4.07 or a file of codes (one or more a line, # comments).")] = None,
    shard: Annotated[Optional[str], typer.Option("--shard", metavar="I/K", help="Every K-th code from the I-th: K shards, merged by 'census merge'.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress line on stderr.")] = False,
    threads: Annotated[int, typer.Option("--threads", metavar="N", help="Kernel threads per worker (default 1: the workers share the cores already).")] = 1,
) -> None:
    """Compute every code (skipping proven ones, extending open ones), then print the counts."""
    if ctx.invoked_subcommand is not None:
        return
    if misere and hexadecimal:
        raise InvalidArgumentError("--hex goes with the normal-play census: the misère census takes octal codes")
    if misere and threads != 1:
        raise InvalidArgumentError("--threads goes with the normal-play census: a misère quotient's search runs on "
                                   "one thread")
    from ..census import run_census, run_misere_census
    from ..census.jobs import check_workers, worker_threads
    from ..engine.threads import check_threads
    from .progress import ProgressLine
    from .report import census_text, misere_census_text

    if max_n is None:
        max_n = D.CENSUS_UNTIL_PROVEN if until_proven else D.CENSUS_HEX_MAX_N if hexadecimal else D.CENSUS_MAX_N
    named = None if codes is None else read_codes(codes)
    line = ProgressLine.unless(quiet, label="codes", delay=0.0)
    if misere:
        rows = run_misere_census(digits, prefix, max_heap, max_order, max_work, workers, dask, db, progress=lambda p: line(
            p.done, p.total, 0, " · ".join(f"{k} {v}" for k, v in p.counts.items())), codes=named, shard=shard)
        line.close()
        typer.echo(misere_census_text(rows, db))
        return
    pool, granted = check_workers(workers), worker_threads(check_threads(threads), check_workers(workers), dask)
    if granted < threads:
        typer.echo(f"note: {pool} workers × {threads} threads is more than the cores this process may use: "
                   f"{granted} thread{'s' if granted > 1 else ''} per worker", err=True)
    stage = {"budget": None, "line": line}

    def show(p) -> None:  # one progress line per stage: its rate and time left are the stage's own
        if p.budget != stage["budget"]:
            stage["line"].close()
            stage["budget"] = p.budget
            stage["line"] = ProgressLine.unless(quiet, label=f"codes to {p.budget:,} heaps", delay=0.0)
        stage["line"](p.done, p.total, 0, f"proven {p.proven} · open {p.open} · slowest {p.slowest}")

    with checking_strangers(db):
        rows = run_census(digits, prefix, max_n, workers, dask, db, progress=show, codes=named, shard=shard,
                          threads=threads, notes=lambda why: typer.echo(f"note: {why}", err=True),
                          hexadecimal=hexadecimal)
    stage["line"].close()
    typer.echo(census_text(rows, db))


@contextmanager
def checking_strangers(*dbs: str):
    """On a terminal, a progress line while rows without this user's signature are checked in full (as costly as
    computing them), cleared when done; nothing elsewhere (a refusal stays one line)."""
    from ..census.store import strangers

    count = sum(strangers(db) for db in dbs) if sys.stderr.isatty() else 0
    if count:
        rows = "1 row carries" if count == 1 else f"{count:,} rows carry"
        sys.stderr.write(f"\r{rows} no signature of this user's: checking in full (as costly as computing it) …")
        sys.stderr.flush()
    try:
        yield
    finally:
        if count:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


WORDS = re.compile(r"#[^\n]*|[^\s,#]+")  # a comment to the end of its line, or a code


def read_codes(text: str) -> list[str]:
    """--codes: a file of codes (whitespace or commas between them, '#' to the end of a line a comment), or the
    codes themselves, comma separated."""
    path = Path(text)
    try:
        is_file = "," not in text and path.is_file()  # a comma list is codes, however long (no file name check)
    except (OSError, ValueError):  # a name too long for a file, or with a NUL byte: codes
        is_file = False
    if "," not in text and is_special(path):
        raise DataFileError(f"cannot read the codes in {text}: {NOT_REGULAR}")
    if not is_file and "," not in text and ("/" in text or path.suffix.lower() in (".txt", ".csv", ".list")):
        raise DataFileError(f"no file of codes at {text} (--codes takes a file of codes or codes like 0.1234,4.07)")
    if is_file:
        try:
            text = read_text(path)
        except (OSError, UnicodeDecodeError) as exc:
            raise DataFileError(f"cannot read the codes in {path}: {getattr(exc, 'strerror', None) or exc}") from None
    # one word at a time, each kept once: a file of millions of copies holds its distinct codes, not a list of them
    return list(dict.fromkeys(m.group() for m in WORDS.finditer(text) if m.group()[0] != "#"))


@census_app.command("merge", cls=PlainHelp)
@friendly
def census_merge(
    files: Annotated[list[str], typer.Argument(metavar="FILE...", help="Census files (shards) to merge.")],
    db: Db = D.CENSUS_DB,
) -> None:
    """Merge census files (shards computed apart) into --db: rows verified, the further-computed row kept."""
    from ..census import checked_rows, merge_census
    from .report import census_text

    with checking_strangers(*files):
        taken = merge_census(files, db)
    typer.echo(f"merged     {taken:,} rows from {len(files)} files")
    typer.echo(census_text(checked_rows(db), db))


@census_app.command("report", cls=PlainHelp)
@friendly
def census_report(
    fmt: Annotated[str, typer.Option("--format", metavar="FORMAT", help="table, csv, markdown or json.")] = "table",
    db: Db = D.CENSUS_DB,
    misere: Annotated[bool, typer.Option("--misere", help="The misère census table.")] = False,
    columns: Annotated[Optional[str], typer.Option("--columns", metavar="LIST", help="csv and json: only these columns, e.g. code,status,period.")] = None,
) -> None:
    """Print the census table sorted by code, with the counts and the open games (--misere: the misère table)."""
    from ..census import misere_report, report

    with checking_strangers(*([] if misere else [db])):
        text = misere_report(db, fmt) if misere else report(db, fmt, None if columns is None else columns.split(","))
    typer.echo(text)


@census_app.command("quotient", cls=PlainHelp)
@friendly
def census_quotient(
    game: Annotated[str, typer.Argument(metavar="GAME", help="A code of the misère census.")],
    db: Db = D.CENSUS_DB,
    out: Annotated[Optional[str], typer.Option("--out", metavar="FILE", help="Save it (.json) for solve --quotient.")] = None,
    full: Annotated[bool, typer.Option("--full", help="Print Φ for every heap computed.")] = False,
) -> None:
    """Show (or save) the misère quotient the census stored for GAME, verified again as it is read."""
    from ..census import load_quotient
    from ..rules.presets import resolve
    from .report import quotient_text

    code, preset = resolve(game)
    q = load_quotient(db, game if preset is None else str(code), out=out)
    typer.echo(quotient_text(q, preset, full))
    if out:
        typer.echo(f"saved      {out}")


@census_app.command("certificates", cls=PlainHelp)
@friendly
def census_certificates(
    out: Annotated[str, typer.Option("--out", metavar="FILE", help="The certificate file to write (xz).")],
    db: Db = D.CENSUS_DB,
) -> None:
    """Write the periodicity certificate of every proven row (rows verified first); re-prove them with
    'python -m octal.certify FILE'."""
    from ..census.certificates import write_certificates

    rows, blocks = write_certificates(out, db)
    typer.echo(f"certified  {rows:,} proven rows ({blocks:,} blocks of values) in {out}")
    typer.echo(f"check      python -m octal.certify {out}")

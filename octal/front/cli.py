"""The `octal` command line: a thin typer layer over the Python API (every command has an API twin)."""

from __future__ import annotations

import functools
import json
import re
import sys
from typing import Annotated, Optional

import typer
from typer.core import TyperCommand, TyperGroup

from ..engine import compile_notice
from ..errors import OctalError

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    rich_markup_mode=None,  # plain help: flags without types, text as written
    pretty_exceptions_enable=False,
    help="Nim sequences, periods, positions and misère play of octal games.",
)

_TYPE_LABEL = re.compile(r" <(str|int|float|bool|list\[str\]|list\[int\])>")


def _plain_options(command, ctx, formatter) -> None:
    """Arguments and options as click lays them out, without typer's type labels (the metavars say it)."""
    sections: dict[str, list] = {"argument": [], "option": []}
    for param in command.get_params(ctx):
        rv = param.get_help_record(ctx)
        if rv is not None and param.param_type_name in sections:
            sections[param.param_type_name].append((_TYPE_LABEL.sub("", rv[0]), rv[1]))
    for title, key in (("Arguments", "argument"), ("Options", "option")):
        if sections[key]:
            with formatter.section(title):
                formatter.write_dl(sections[key])


class PlainHelp(TyperCommand):
    """A command whose help shows `GAME` and `HEAP...`, not `GAME <str>` and `{HEAP...} <list[str]>`."""

    def format_options(self, ctx, formatter) -> None:
        _plain_options(self, ctx, formatter)

    def collect_usage_pieces(self, ctx) -> list[str]:
        return [piece.strip("{}").replace("}...", "") for piece in super().collect_usage_pieces(ctx)]


class PlainHelpGroup(TyperGroup):
    """The same for a command group (census), with its commands listed."""

    def format_options(self, ctx, formatter) -> None:
        _plain_options(self, ctx, formatter)
        self.format_commands(ctx, formatter)


EXIT_USAGE = 2
EXIT_INTERRUPTED = 130

Game = Annotated[str, typer.Argument(metavar="GAME", help="An octal code (0.77, .07, 4.7, 0.[3]), a subtraction set "
                                     "(S(1,2,5), allbut(1,3)) or a preset name (kayles).")]  # every command's GAME


def _print_version(asked: bool) -> None:
    if asked:
        from .. import __version__

        typer.echo(f"octal {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", callback=_print_version, is_eager=True,
                                          help="Print octal's version and exit.")] = False,
) -> None:
    """Nim sequences, periods, positions and misère play of octal games."""


def _fail(message: str, code: int = EXIT_USAGE) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def friendly(command):
    """Turn the API's OctalError into one line on stderr and exit status 2; Ctrl-C into status 130."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except OctalError as exc:
            _fail(str(exc))
        except MemoryError:
            _fail("out of memory: ask for fewer heaps (--n, --max-n) or a smaller search")
        except OSError as exc:  # a file or folder the user named
            where = f": {exc.filename}" if exc.filename else ""
            _fail(f"{exc.strerror or exc}{where}")
        except KeyboardInterrupt:
            typer.echo("interrupted", err=True)
            raise typer.Exit(EXIT_INTERRUPTED)

    return wrapper


def _on_interrupt(progress, *notes: str | None) -> None:
    """Ctrl-C during a computation: close its progress line and say what the API kept (it saved it already)."""
    progress.close()
    for note in notes:
        if note:
            typer.echo(note, err=True)


def _echo_json(doc: dict) -> None:
    typer.echo(json.dumps(doc))


@app.command(cls=PlainHelp)
@friendly
def run(
    game: Game,
    n: Annotated[Optional[int], typer.Option("--n", metavar="N", help="Compute heaps 0..N-1 (default 1000).")] = None,
    until_proven: Annotated[bool, typer.Option("--until-proven", help="Grow N until the period is proven.")] = False,
    max_n: Annotated[int, typer.Option("--max-n", metavar="N", help="Budget for --until-proven.")] = 2**24,
    width: Annotated[int, typer.Option("--width", metavar="W", help="Values per table row.")] = 12,
    full: Annotated[bool, typer.Option("--full", help="Print every value, not just the useful rows.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    values: Annotated[bool, typer.Option("--values", help="With --json: include the values.")] = False,
    out: Annotated[Optional[str], typer.Option("--out", metavar="FILE", help="Save the values: .npy, .csv or .json.")] = None,
    kernel: Annotated[str, typer.Option("--kernel", metavar="KERNEL", help="naive, sparse or auto (by measured cost).")] = "auto",
    checkpoint: Annotated[Optional[str], typer.Option("--checkpoint", metavar="DIR", help="Folder to save and resume state.")] = None,
    checkpoint_every: Annotated[float, typer.Option("--checkpoint-every", metavar="SECONDS", help="Seconds between saves.")] = 5.0,
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress line.")] = False,
    stream: Annotated[Optional[str], typer.Option("--stream", metavar="DIR", help="Bounded memory: keep a window of values, record frequencies at powers of two, checkpoint and resume in DIR.")] = None,
    window: Annotated[Optional[int], typer.Option("--window", metavar="HEAPS", help="With --stream: heaps kept at the start and at the end (default 1,048,576).")] = None,
    store_values: Annotated[bool, typer.Option("--store-values", help="With --stream: write every value to DIR/values (checksummed chunks).")] = False,
) -> None:
    """Compute the nim sequence of GAME, print it as rows of WIDTH and state its period."""
    from ..engine.sequence import nim_sequence
    from .progress import ProgressLine
    from .report import run_text
    from .table import MAX_WIDTH

    if not 0 < width <= MAX_WIDTH:
        _fail(f"--width must be from 1 to {MAX_WIDTH:,} values a row, not {width:,}")
    if values and not as_json:
        _fail("--values adds the values to the JSON object: use it with --json (or save them with --out FILE)")
    if stream is not None:
        clash = [flag for flag, given in (("--out", out), ("--values", values), ("--checkpoint", checkpoint),
                                          ("--full", full), ("--kernel naive", kernel == "naive")) if given]
        if clash:
            _fail(f"--stream keeps no whole sequence in memory: it cannot be used with {', '.join(clash)} "
                  "(read stored values with octal.read_values)")
        return _run_stream(game, n, until_proven, max_n, stream, window, store_values, checkpoint_every, as_json,
                           quiet)
    elif window is not None or store_values:
        _fail("--window and --store-values go with --stream DIR")
    progress = ProgressLine(enabled=False if quiet else None)
    if checkpoint and not quiet:
        progress = _saying_resumed(progress, checkpoint)
    try:
        result = nim_sequence(game, n, until_proven=until_proven, max_n=max_n, kernel=kernel, progress=progress,
                              checkpoint=checkpoint, checkpoint_every=checkpoint_every, out=out)
    except KeyboardInterrupt as e:
        done = getattr(e, "partial", None)
        _on_interrupt(progress,
                      done is not None and out and done.n
                      and f"interrupted at heap {done.n:,}: saved the {done.n:,} values computed to {out}",
                      done is not None and checkpoint
                      and f"interrupted at heap {done.n:,}: state saved in {checkpoint}; run again to resume")
        raise
    progress.close()
    if as_json:
        _echo_json(result.to_dict(values=values))
        return
    typer.echo(run_text(result, width, full, out))


def _saying_resumed(progress, checkpoint: str):
    """The progress line, saying where a run resumed from the checkpoint starts (its first report)."""
    from ..engine.values import RESUMED

    def report(done, total, largest, state=""):
        if state == RESUMED:
            typer.echo(f"resuming from {checkpoint} at heap {done:,}", err=True)
        progress(done, total, largest, state)

    report.close = progress.close
    return report


def _run_stream(game, n, until_proven, max_n, directory, window, store_values, checkpoint_every, as_json, quiet):
    """`octal run --stream DIR`: the bounded-memory run, its summary or JSON."""
    from ..engine.stream import nim_stream
    from .progress import ProgressLine
    from .report import stream_text

    progress = ProgressLine(enabled=False if quiet else None)
    try:
        result = nim_stream(game, directory, n, until_proven=until_proven, max_n=max_n, window=window,
                            store_values=store_values, progress=progress, checkpoint_every=checkpoint_every)
    except KeyboardInterrupt:
        _on_interrupt(progress, f"interrupted: state saved in {directory}; run again to resume")
        raise
    progress.close()
    if as_json:
        _echo_json(result.to_dict())
        return
    for note in result.notes:
        typer.echo(f"note: {note}", err=True)
    typer.echo(stream_text(result))


@app.command(cls=PlainHelp)
@friendly
def stats(
    game: Game,
    n: Annotated[int, typer.Option("--n", metavar="N", help="Compute heaps 0..N-1.")] = 2**16,
    kernel: Annotated[str, typer.Option("--kernel", metavar="KERNEL", help="naive, sparse or auto (by measured cost).")] = "auto",
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress line on stderr.")] = False,
) -> None:
    """The rare/common split (mask, rare positions, rare values), value histogram and largest value."""
    from ..engine.sequence import nim_sequence
    from ..engine.stats import sequence_stats
    from .progress import ProgressLine
    from .report import stats_text

    progress = ProgressLine(enabled=False if quiet else None)
    result = nim_sequence(game, n, kernel=kernel, progress=progress)
    progress.close()
    st = sequence_stats(result.values, result.code)
    if as_json:
        _echo_json(st.to_dict())
        return
    typer.echo(stats_text(st, result.name))


@app.command(cls=PlainHelp)
@friendly
def plot(
    game: Game,
    n: Annotated[int, typer.Option("--n", metavar="N", help="Compute heaps 0..N-1.")] = 2**14,
    output: Annotated[str, typer.Option("-o", "--output", metavar="FILE", help="Image file: .png, .svg or .pdf.")] = "octal.png",
    kind: Annotated[str, typer.Option("--kind", metavar="KIND", help="values (log heap axis, rare panel), rare, or frequencies (at powers of two).")] = "values",
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress line on stderr.")] = False,
) -> None:
    """Draw G(n) against n with the rare positions marked (needs matplotlib: in the octal folder, pip install
    '.[plot]')."""
    from ..engine.sequence import nim_sequence
    from .plot import check_image_path, check_kind, plot_sequence
    from .progress import ProgressLine

    check_kind(kind)
    check_image_path(output)
    progress = ProgressLine(enabled=False if quiet else None)
    result = nim_sequence(game, n, progress=progress)
    progress.close()
    typer.echo(f"saved {plot_sequence(result, output, kind)}")


def _heap_args(heaps: list[str]) -> tuple[int, ...]:
    from ..errors import InvalidArgumentError
    from ..positions.position import parse_heaps

    out = []
    for text in heaps:
        try:
            out.append(int(text))
        except ValueError:
            raise InvalidArgumentError(f"heap sizes are whole numbers, not {text!r}") from None
    return parse_heaps(out)


HEAPS_CONTEXT = {"ignore_unknown_options": True}  # so that '-5' reaches our own message


@app.command(cls=PlainHelp, context_settings=HEAPS_CONTEXT)
@friendly
def solve(
    game: Game,
    heaps: Annotated[list[str], typer.Argument(metavar="HEAP...", help="Heap sizes, e.g. 5 7 9.")],
    misere: Annotated[bool, typer.Option("--misere", help="Misère play: the last player to move loses.")] = False,
    quotient: Annotated[Optional[str], typer.Option(
        "--quotient", metavar="FILE", help="With --misere: a quotient saved by 'octal misere --out'.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Who wins the position GAME HEAP…, and every winning move (or the best try when every move loses)."""
    from ..errors import InvalidArgumentError
    from ..solve import normal_outcome, solve_position
    from ..rules.presets import resolve
    from .report import solve_text

    code, preset = resolve(game)
    q = None
    if quotient is not None:
        if not misere:
            raise InvalidArgumentError("--quotient answers misère play: add --misere")
        from ..misere.quotient import MisereQuotient

        q = MisereQuotient.load(quotient)
    sol = solve_position(code, _heap_args(heaps), misere=misere, quotient=q)
    if as_json:
        _echo_json(sol.to_dict())
        return
    normal = None if sol.values else normal_outcome(code, sol.heaps)
    typer.echo(solve_text(sol, code, preset, misere, normal))


@app.command(cls=PlainHelp)
@friendly
def genus(
    game: Game,
    n: Annotated[int, typer.Option("--n", metavar="N", help="Heaps 0..N-1 (exhaustive misère search; N up to 48).")] = 20,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Conway's genus g^γ of each heap, as Winning Ways prints it, and where tameness ends."""
    from ..misere.genus import genus_sequence
    from ..rules.presets import resolve
    from .report import genus_text

    code, preset = resolve(game)
    gs = genus_sequence(code, n)
    if as_json:
        _echo_json({"code": str(code), "genus": [str(g) for g in gs], "tame_heaps": [g.heap for g in gs if g.tame],
                    "first_wild_heap": next((g.heap for g in gs if not g.tame), None)})
        return
    typer.echo(genus_text(gs, code, preset))


@app.command(cls=PlainHelp)
@friendly
def misere(
    game: Annotated[Optional[str], typer.Argument(metavar="[GAME]", help="An octal code or a preset name.")] = None,
    max_heap: Annotated[Optional[int], typer.Option("--max-heap", metavar="H", help="Quotient of heaps ≤ H only.")] = None,
    max_order: Annotated[int, typer.Option("--max-order", metavar="N", help="Report 'growing' past this order.")] = 600,
    max_work: Annotated[int, typer.Option("--max-work", metavar="STEPS", help="Report 'growing' past this much work (steps of verification).")] = 1_000_000_000,
    time_limit: Annotated[Optional[float], typer.Option("--time-limit", metavar="SECONDS", help="Outer cap: stop after this many seconds, reported as 'stopped'.")] = None,
    out: Annotated[Optional[str], typer.Option("--out", metavar="FILE", help="Save the quotient (.json) for solve --quotient.")] = None,
    load: Annotated[Optional[str], typer.Option("--load", metavar="FILE", help="Show a saved quotient instead of computing.")] = None,
    full: Annotated[bool, typer.Option("--full", help="Print Φ for every heap computed.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress line.")] = False,
) -> None:
    """The misère quotient of GAME: |Q|, |P|, presentation, pretending function Φ, tameness, period."""
    from ..errors import InvalidArgumentError
    from ..misere.quotient import MisereQuotient, misere_quotient
    from ..rules.presets import resolve
    from .progress import ProgressLine
    from .report import quotient_text

    if load is None and game is None:
        raise InvalidArgumentError("name a game (an octal code or a preset) or --load a saved quotient")
    if out is not None and not out.lower().endswith(".json"):
        raise InvalidArgumentError(f"a quotient is saved as .json, not {out}")
    if out:
        from ..io import check_writable

        check_writable(out)
    preset = None
    if load is not None:
        q = MisereQuotient.load(load)
        if game is not None:
            code, preset = resolve(game)
            if str(code) != str(q.code):
                raise InvalidArgumentError(f"{load} holds the quotient of {q.code}, not of {code}")
    else:
        code, preset = resolve(game)
        progress = ProgressLine(enabled=False if quiet else None)
        try:
            q = misere_quotient(code, max_heap=max_heap, max_order=max_order, max_work=max_work, time_limit=time_limit,
                                progress=progress, out=out)
        except KeyboardInterrupt as e:
            partial = getattr(e, "partial", None)
            _on_interrupt(progress, out and partial is not None
                          and f"interrupted at heap {partial.max_heap:,}: saved the quotient so far to {out}")
            raise
        progress.close()
    if out and load is not None:
        q.save(out)
    if as_json:
        _echo_json(q.to_dict())
        return
    typer.echo(quotient_text(q, preset, full))
    if out:
        typer.echo(f"saved      {out}")


@app.command(cls=PlainHelp, context_settings=HEAPS_CONTEXT)
@friendly
def play(
    game: Game,
    heaps: Annotated[list[str], typer.Argument(metavar="HEAP...", help="Heap sizes to start from.")],
    misere: Annotated[bool, typer.Option("--misere", help="Misère play: the last player to move loses.")] = False,
    first: Annotated[str, typer.Option("--first", metavar="WHO", help="Who moves first: me or engine.")] = "me",
) -> None:
    """Play GAME against the engine in the terminal."""
    from ..errors import InvalidArgumentError
    from ..rules.presets import resolve
    from .play import play_game

    if first not in ("me", "engine"):
        raise InvalidArgumentError(f"--first must be 'me' or 'engine', not {first!r}")
    code, _ = resolve(game)
    start = list(_heap_args(heaps))

    def ask(prompt: str) -> str:
        typer.echo(prompt, nl=False)
        line = sys.stdin.readline() if sys.stdin is not None else ""  # no stdin at all reads as its end
        if not line:
            raise EOFError
        return line.rstrip("\n")

    play_game(code, start, misere=misere, engine_first=first == "engine", ask=ask, say=typer.echo)


@app.command(cls=PlainHelp)
@friendly
def graph(
    family: Annotated[Optional[str], typer.Argument(
        metavar="[GRAPH]",
        help="path:N, cycle:N, star:N, complete:N, grid:WxH, clique-path:K:S, interval:N:SEED, unit-interval:N:SEED, permutation:N:SEED, tree:N:SEED, caterpillar:S:L, cograph:N:SEED, petersen or random:N:P:SEED.")] = None,
    edges: Annotated[Optional[str], typer.Option("--edges", metavar="FILE", help="An edge-list file: one 'u v' per line.")] = None,
    graph6: Annotated[Optional[str], typer.Option("--graph6", metavar="STRING", help="A graph6 string.")] = None,
    game: Annotated[str, typer.Option("--game", metavar="GAME", help="node-kayles, clique or partisan (partisan Node Kayles: needs --owners).")] = "node-kayles",
    owners: Annotated[Optional[str], typer.Option("--owners", metavar="SPEC", help="Partisan play: who may choose each vertex, L, R or B — a string with one letter per vertex (LRB…), alternate, random:SEED, or column (the edge list's 'v: L' lines).")] = None,
    max_states: Annotated[Optional[int], typer.Option("--max-states", metavar="N", help="Budget of component states for the exact search (default: 8·10⁸ / n² for a prime piece of n > 64 vertices).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress line on stderr.")] = False,
) -> None:
    """Node Kayles, the clique-forming game or partisan Node Kayles on a graph: value, outcome, every winning
    vertex."""
    from ..errors import InvalidArgumentError
    from ..graphs import (
        MAX_STATES,
        graph_from_graph6,
        named_graph,
        parse_owners,
        partisan_node_kayles,
        read_edge_list,
        solve_graph,
    )
    from ..graphs.partisan import GAME as PARTISAN, MAX_STATES as PARTISAN_STATES
    from .progress import ProgressLine
    from .report import graph_text, partisan_text

    game = game.lower()
    if game == "partisan":
        game = PARTISAN
    if (owners is None) != (game != PARTISAN):
        raise InvalidArgumentError("--owners goes with --game partisan, and partisan play needs --owners "
                                   "(a string of L/R/B, alternate, random:SEED or column)")

    given = [x for x in (family, edges, graph6) if x is not None]
    if len(given) != 1:
        raise InvalidArgumentError("name exactly one graph: a family (path:10), --edges FILE or --graph6 STRING")
    g = named_graph(family) if family else read_edge_list(edges) if edges else graph_from_graph6(graph6)
    if g.duplicate_edges:
        typer.echo(f"note: {edges} names {g.duplicate_edges:,} edges more than once; each is kept once", err=True)
    if max_states is not None and max_states <= 0:
        raise InvalidArgumentError("--max-states must be at least 1")
    line = ProgressLine(label="states", enabled=False if quiet else None)
    label = family or edges or "graph6 " + graph6
    if game == PARTISAN:
        result = partisan_node_kayles(g, parse_owners(owners, g), max_states,
                                      progress=lambda states: line(states, max_states or PARTISAN_STATES, 0))
        line.close()
        _echo_json(result.to_dict()) if as_json else typer.echo(partisan_text(result, label))
        return
    result = solve_graph(g, game, progress=lambda states: line(states, max_states or MAX_STATES, 0), max_states=max_states)
    line.close()
    if as_json:
        _echo_json(result.to_dict())
        return
    typer.echo(graph_text(result, g, label, game))


census_app = typer.Typer(help="Every octal code of up to D digits, computed until proven, in SQLite.",
                         rich_markup_mode=None, cls=PlainHelpGroup)
app.add_typer(census_app, name="census")


@census_app.callback(invoke_without_command=True)
@friendly
def census(
    ctx: typer.Context,
    digits: Annotated[int, typer.Option("--digits", metavar="D", help="Digits after the point (3: 0.001 … 0.777).")] = 2,
    prefix: Annotated[str, typer.Option("--prefix", metavar="P", help="0, 4 or both.")] = "0",
    max_n: Annotated[int, typer.Option("--max-n", metavar="N", help="Heaps budget per code.")] = 2**16,
    workers: Annotated[Optional[int], typer.Option("--workers", metavar="N", help="Processes (default: CPU count).")] = None,
    dask: Annotated[Optional[str], typer.Option("--dask", metavar="ADDRESS", help="'local' or a scheduler tcp://host:8786.")] = None,
    db: Annotated[str, typer.Option("--db", metavar="FILE", help="SQLite file.")] = "octal-census.sqlite",
    misere: Annotated[bool, typer.Option("--misere", help="The misère quotient of every code instead.")] = False,
    max_heap: Annotated[int, typer.Option("--max-heap", metavar="H", help="With --misere: heaps per code.")] = 200,
    max_order: Annotated[int, typer.Option("--max-order", metavar="K", help="With --misere: 'growing' past |Q| = K.")] = 150,
    max_work: Annotated[int, typer.Option("--max-work", metavar="STEPS", help="With --misere: steps of work per code.")] = 60_000_000,
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress line on stderr.")] = False,
) -> None:
    """Compute every code (skipping proven ones, extending open ones), then print the counts."""
    if ctx.invoked_subcommand is not None:
        return
    from ..census import run_census
    from .progress import ProgressLine
    from .report import census_text, misere_census_text

    line = ProgressLine(label="codes", enabled=False if quiet else None, delay=0.0)
    if misere:
        from ..census import run_misere_census

        rows = run_misere_census(digits, prefix, max_heap, max_order, max_work, workers, dask, db,
                                 progress=lambda p: line(p.done, p.total, 0, " · ".join(f"{k} {v}" for k, v in p.counts.items())))
        line.close()
        typer.echo(misere_census_text(rows, db))
        return
    rows = run_census(digits, prefix, max_n, workers, dask, db,
                      progress=lambda p: line(p.done, p.total, 0, f"proven {p.proven} · open {p.open} · slowest {p.slowest}"))
    line.close()
    typer.echo(census_text(rows, db))


@census_app.command("report", cls=PlainHelp)
@friendly
def census_report(
    fmt: Annotated[str, typer.Option("--format", metavar="FORMAT", help="table, csv, markdown or json.")] = "table",
    db: Annotated[str, typer.Option("--db", metavar="FILE", help="SQLite file.")] = "octal-census.sqlite",
    misere: Annotated[bool, typer.Option("--misere", help="The misère census table.")] = False,
) -> None:
    """Print the census table sorted by code, with the counts and the open games (--misere: the misère table)."""
    from ..census import report
    from ..census import misere_report

    typer.echo(misere_report(db, fmt) if misere else report(db, fmt))


@census_app.command("quotient", cls=PlainHelp)
@friendly
def census_quotient(
    game: Annotated[str, typer.Argument(metavar="GAME", help="A code of the misère census.")],
    db: Annotated[str, typer.Option("--db", metavar="FILE", help="SQLite file.")] = "octal-census.sqlite",
    out: Annotated[Optional[str], typer.Option("--out", metavar="FILE", help="Save it (.json) for solve --quotient.")] = None,
    full: Annotated[bool, typer.Option("--full", help="Print Φ for every heap computed.")] = False,
) -> None:
    """Show (or save) the misère quotient the census stored for GAME, verified again as it is read."""
    from ..errors import InvalidArgumentError
    from ..io import check_writable
    from ..census import load_quotient
    from ..rules.presets import resolve
    from .report import quotient_text

    code, preset = resolve(game)
    if out is not None:
        if not out.lower().endswith(".json"):
            raise InvalidArgumentError(f"a quotient is saved as .json, not {out}")
        check_writable(out)
    q = load_quotient(db, game if preset is None else str(code))
    typer.echo(quotient_text(q, preset, full))
    if out:
        q.save(out)
        typer.echo(f"saved      {out}")


@app.command(cls=PlainHelp)
@friendly
def site(
    games: Annotated[Optional[list[str]], typer.Argument(metavar="[GAME]...", help="Codes or preset names (default: every game of --db).")] = None,
    db: Annotated[str, typer.Option("--db", metavar="FILE", help="Census file to publish when no games are named.")] = "octal-census.sqlite",
    out: Annotated[str, typer.Option("--out", metavar="DIR", help="Folder for index.html and games/.")] = "site",
    max_n: Annotated[int, typer.Option("--max-n", metavar="N", help="Heaps budget per named game.")] = 2**16,
) -> None:
    """Write a static website of games: a sortable index, a page per game, a board to play (no server needed)."""
    from ..validate import whole_number
    from .site import build_site, check_out_dir, games_from_codes, games_from_db

    whole_number(max_n, "--max-n", 1)
    check_out_dir(out)
    found = games_from_codes(games, max_n) if games else games_from_db(db)
    index = build_site(found, out)
    typer.echo(f"{len(found):,} games; open {index}")


@app.command(cls=PlainHelp)
@friendly
def show(game: Game) -> None:
    """Print the rules of GAME in words, its digits and what is known about it."""
    from ..rules.presets import resolve
    from .report import show_text

    code, preset = resolve(game)
    typer.echo(show_text(code, preset))


@app.command("presets", cls=PlainHelp)
@friendly
def list_presets(as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False) -> None:
    """List the named games that any command accepts in place of a code."""
    from ..rules.presets import presets
    from .report import presets_doc, presets_text

    rows = list(presets().values())
    if as_json:
        _echo_json(presets_doc(rows))
        return
    typer.echo(presets_text(rows))


def _click_class(name: str) -> type:
    """click's exception class `name`, found through typer (which may vendor its own click)."""
    return next(c for c in typer.BadParameter.__mro__ if c.__name__ == name)


def main(argv: list[str] | None = None) -> None:
    """Entry point of the `octal` executable: usage errors become one line on stderr and exit status 2."""
    usage_error, click_error = _click_class("UsageError"), _click_class("ClickException")
    if sys.stderr.isatty():  # on a terminal, a first run says why it waits (scripts and pipes hear nothing)
        compile_notice.listen(lambda text: typer.echo(text, err=True))
    try:
        rv = app(args=argv, standalone_mode=False, prog_name="octal")
    except usage_error as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":  # plain `octal`: the help is the answer
            if exc.ctx is not None:
                typer.echo(exc.ctx.get_help())
            sys.exit(0)
        where = f" (octal {exc.ctx.command_path.partition(' ')[2]} --help)" if exc.ctx and " " in exc.ctx.command_path else ""
        typer.echo(f"error: {_usage_text(exc)}{where}", err=True)
        sys.exit(EXIT_USAGE)
    except click_error as exc:
        typer.echo(f"error: {exc.format_message()}", err=True)
        sys.exit(exc.exit_code or 1)
    except typer.Abort:
        typer.echo("interrupted", err=True)
        sys.exit(EXIT_INTERRUPTED)
    sys.exit(rv if isinstance(rv, int) else 0)


def _usage_text(exc) -> str:
    """click's usage message on one line, with pydantic's wording of a bad number made plain."""
    text = " ".join(exc.format_message().split())
    text = text.replace("Input should be a valid integer, unable to parse string as an integer", "not a whole number")
    text = text.replace("Input should be a valid number, unable to parse string as a number", "not a number")
    return text


if __name__ == "__main__":
    main()

"""The `octal` command line: argument handling only. Each command parses its arguments, calls one API function and
prints its result (report.py's text, or the result's own `to_dict` as JSON); defaults come from octal.defaults."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Optional

import typer

from .. import defaults as D
from ..errors import InvalidArgumentError
from ..version import __version__
from .cli_census import census_app
from .cli_options import AsJson, Quiet
from .cli_partizan import partizan_heaps, short_game
from .exits import fail, friendly, on_interrupt, run_app
from .help_layout import PlainHelp

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    rich_markup_mode=None,  # plain help: flags without types, text as written
    pretty_exceptions_enable=False,
    help="Nim sequences, periods, positions and misère play of octal games.",
)
HEAPS_CONTEXT = {"ignore_unknown_options": True}  # so that '-5' (or a game '-3/8') reaches our own message
app.add_typer(census_app, name="census")
app.command("game", cls=PlainHelp, context_settings=HEAPS_CONTEXT)(friendly(short_game))
app.command("partizan", cls=PlainHelp)(friendly(partizan_heaps))

Game = Annotated[str, typer.Argument(metavar="GAME", help="An octal code (0.77, .07, 4.7, 0.[3]), a subtraction set "
                                     "(S(1,2,5), allbut(1,3)) or a preset name (kayles).")]  # every command's GAME
Heaps = Annotated[list[str], typer.Argument(metavar="HEAP...", help="Heap sizes, e.g. 5 7 9.")]
Kernel = Annotated[str, typer.Option("--kernel", metavar="KERNEL", help="naive, sparse or auto (by measured cost).")]
Misere = Annotated[bool, typer.Option("--misere", help="Misère play: the last player to move loses.")]
Full = Annotated[bool, typer.Option("--full", help="Print every value (or Φ for every heap), not just the useful rows (of values: through the preperiod and two periods, at most 100 rows).")]
Threads = Annotated[Optional[int], typer.Option("--threads", metavar="N", help="At most N kernel threads (default: every core this process may use; one while more are slower, as on a busy machine; the values are the same for any N).")]


def _print_version(asked: bool) -> None:
    if asked:
        typer.echo(f"octal {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", callback=_print_version, is_eager=True,
                                          help="Print octal's version and exit.")] = False,
) -> None:
    """Nim sequences, periods, positions and misère play of octal games."""


def _progress(quiet: bool, note: str = "", **kw):
    """The progress line of a command that computes; a command whose kernels run threads notes the count
    (_threads_note)."""
    from .progress import ProgressLine  # loaded by the commands that compute, not by --help

    return ProgressLine.unless(quiet, note=note, **kw)


def _threads_note(threads: int | None) -> str:
    """The progress line's note of the thread count in force (`threads`, checked, or the default)."""
    from ..engine.threads import check_threads

    n = check_threads(threads)
    return f"{n} thread{'s' if n != 1 else ''}"


@contextmanager
def _in_threads(threads: int | None) -> Iterator[int]:
    """A command whose work runs through the nim-sequence kernels (solve, plot, site) runs it with `threads` (the
    import waits until then: the engine's validation loads numpy, which `octal --help` must not)."""
    from ..engine.threads import using_threads

    with using_threads(threads) as n:
        yield n


def _echo_json(doc: dict) -> None:
    typer.echo(json.dumps(doc))


@app.command(cls=PlainHelp)
@friendly
def run(
    game: Game,
    n: Annotated[Optional[int], typer.Option("--n", metavar="N", help=f"Compute heaps 0..N-1 (default {D.RUN_N}).")] = None,
    until_proven: Annotated[bool, typer.Option("--until-proven", help="Grow N until the period is proven.")] = False,
    max_n: Annotated[Optional[int], typer.Option("--max-n", metavar="N", help=f"Budget for --until-proven (default {D.RUN_MAX_N:,} heaps; {D.HEX_MAX_N:,} for a code whose moves may leave three heaps, whose kernel's cost grows as the cube of the heaps).")] = None,
    width: Annotated[int, typer.Option("--width", metavar="W", help="Values per table row.")] = D.ROW_WIDTH,
    full: Full = False,
    as_json: AsJson = False,
    values: Annotated[bool, typer.Option("--values", help="With --json: include the values.")] = False,
    out: Annotated[Optional[str], typer.Option("--out", metavar="FILE", help="Save the values: .npy, .csv or .json.")] = None,
    bfile: Annotated[Optional[str], typer.Option("--bfile", metavar="FILE", help="Save an OEIS b-file (.txt): lines 'n a(n)' from n = 0.")] = None,
    kernel: Kernel = "auto",
    checkpoint: Annotated[Optional[str], typer.Option("--checkpoint", metavar="DIR", help="Folder to save and resume state.")] = None,
    checkpoint_every: Annotated[float, typer.Option("--checkpoint-every", metavar="SECONDS", help="Seconds between saves.")] = D.CHECKPOINT_EVERY,
    quiet: Quiet = False,
    stream: Annotated[Optional[str], typer.Option("--stream", metavar="DIR", help="Bounded memory: keep a window of values, record frequencies at powers of two, checkpoint and resume in DIR.")] = None,
    window: Annotated[Optional[int], typer.Option("--window", metavar="HEAPS", help=f"With --stream: heaps kept at the start and at the end (default {D.STREAM_WINDOW:,}).")] = None,
    store_values: Annotated[bool, typer.Option("--store-values", help="With --stream: write every value to DIR/values (checksummed chunks).")] = False,
    threads: Threads = None,
) -> None:
    """Compute the nim sequence of GAME, print it as rows of WIDTH and state its period."""
    from .report import run_text
    from .table import MAX_WIDTH

    if not 0 < width <= MAX_WIDTH:
        fail(f"--width must be from 1 to {MAX_WIDTH:,} values a row, not {width:,}")
    if values and not as_json:
        fail("--values adds the values to the JSON object: use it with --json (or save them with --out FILE)")
    if stream is not None:
        clash = [flag for flag, given in (("--out", out), ("--bfile", bfile), ("--values", values), ("--checkpoint", checkpoint),
                                          ("--full", full), ("--kernel naive", kernel == "naive")) if given]
        if clash:
            fail(f"--stream keeps no whole sequence in memory: it cannot be used with {', '.join(clash)} "
                 "(read stored values with octal.read_values)")
        return _run_stream(game, n, until_proven, max_n, stream, window, store_values, checkpoint_every, as_json,
                           quiet, threads)
    if window is not None or store_values:
        fail("--window and --store-values go with --stream DIR")
    from ..engine.periodicity import PROVEN
    from ..engine.sequence import default_max_n, nim_sequence
    from ..engine.values import RESUMED

    line = _progress(quiet, _threads_note(threads))

    def progress(done, total, largest, state=""):
        if state == RESUMED and not quiet:
            typer.echo(f"resuming from {checkpoint} at heap {done:,}", err=True)
        line(done, total, largest, state)

    try:
        result = nim_sequence(game, n, until_proven=until_proven, max_n=max_n, kernel=kernel, progress=progress,
                              checkpoint=checkpoint, checkpoint_every=checkpoint_every, out=out, bfile=bfile,
                              threads=threads)
    except KeyboardInterrupt as e:
        done = getattr(e, "partial", None)
        on_interrupt(line, done is not None and out and done.n
                     and f"interrupted at heap {done.n:,}: saved the {done.n:,} values computed to {out}",
                     done is not None and checkpoint
                     and f"interrupted at heap {done.n:,}: state saved in {checkpoint}; run again to resume")
        raise
    line.close()
    budget = default_max_n(result.code)
    if until_proven and max_n is None and budget < D.RUN_MAX_N and result.n >= budget and result.periodicity.status != PROVEN:
        typer.echo(f"note: {result.code}'s moves may leave three heaps, whose kernel's cost grows as the cube of the heaps: --until-proven stopped at {budget:,} heaps (--max-n N goes further)", err=True)
    typer.echo(json.dumps(result.to_dict(values=values)) if as_json else run_text(result, width, full, out))
    if bfile and not as_json:
        typer.echo(f"b-file   {bfile}")


def _run_stream(game, n, until_proven, max_n, directory, window, store_values, checkpoint_every, as_json, quiet,
                threads):
    """`octal run --stream DIR`: the bounded-memory run, its summary or JSON."""
    from ..engine.stream import nim_stream
    from .report import stream_text

    line = _progress(quiet, _threads_note(threads))
    try:
        result = nim_stream(game, directory, n, until_proven=until_proven, max_n=D.RUN_MAX_N if max_n is None else max_n, window=window,
                            store_values=store_values, progress=line, checkpoint_every=checkpoint_every,
                            threads=threads)
    except KeyboardInterrupt:
        on_interrupt(line, f"interrupted: state saved in {directory}; run again to resume")
        raise
    line.close()
    if as_json:
        return _echo_json(result.to_dict())
    for note in result.notes:
        typer.echo(f"note: {note}", err=True)
    typer.echo(stream_text(result))


@app.command(cls=PlainHelp)
@friendly
def stats(
    game: Game,
    n: Annotated[int, typer.Option("--n", metavar="N", help="Compute heaps 0..N-1.")] = D.STATS_N,
    kernel: Kernel = "auto",
    as_json: AsJson = False,
    quiet: Quiet = False,
    threads: Threads = None,
) -> None:
    """The rare/common split (mask, rare positions, rare values), value histogram and largest value."""
    from ..engine.stats import game_stats
    from .report import stats_text

    line = _progress(quiet, _threads_note(threads))
    st = game_stats(game, n, kernel=kernel, progress=line, threads=threads)
    line.close()
    typer.echo(json.dumps(st.to_dict()) if as_json else stats_text(st, st.name))


@app.command(cls=PlainHelp)
@friendly
def plot(
    game: Game,
    n: Annotated[int, typer.Option("--n", metavar="N", help="Compute heaps 0..N-1.")] = D.PLOT_N,
    output: Annotated[str, typer.Option("-o", "--output", metavar="FILE", help="Image file: .png, .svg or .pdf.")] = D.PLOT_FILE,
    kind: Annotated[str, typer.Option("--kind", metavar="KIND", help="values (log heap axis, rare panel), rare, or frequencies (at powers of two).")] = "values",
    quiet: Quiet = False,
    threads: Threads = None,
) -> None:
    """Draw G(n) against n with the rare positions marked (needs matplotlib: in the octal folder, pip install
    '.[plot]')."""
    from .plot import plot_game

    line = _progress(quiet, _threads_note(threads))
    with _in_threads(threads):
        saved = plot_game(game, n, output, kind, progress=line)
    line.close()
    typer.echo(f"saved {saved}")


def _heap_args(heaps: list[str]) -> tuple[int, ...]:
    """Heap sizes as typed: whole numbers, then checked as every position's heaps are."""
    from ..positions.position import parse_heaps

    out = []
    for text in heaps:
        try:
            out.append(int(text))
        except ValueError:
            raise InvalidArgumentError(f"heap sizes are whole numbers, not {text!r}") from None
    return parse_heaps(out)


@app.command(cls=PlainHelp, context_settings=HEAPS_CONTEXT)
@friendly
def solve(
    game: Game,
    heaps: Heaps,
    misere: Misere = False,
    quotient: Annotated[Optional[str], typer.Option(
        "--quotient", metavar="FILE", help="With --misere: a quotient saved by 'octal misere --out'.")] = None,
    as_json: AsJson = False,
    threads: Threads = None,
) -> None:
    """Who wins the position GAME HEAP…, and every winning move (or the best try when every move loses)."""
    from ..rules.presets import resolve
    from ..solve import solve_position
    from .report import solve_text

    if quotient is not None and not misere:
        raise InvalidArgumentError("--quotient answers misère play: add --misere")
    code, preset = resolve(game)
    with _in_threads(threads) as n:
        sol = solve_position(code, _heap_args(heaps), misere=misere, quotient=quotient)
    typer.echo(json.dumps({**sol.to_dict(), "threads": n}) if as_json
               else solve_text(sol, code, preset, misere, sol.normal_outcome))


@app.command(cls=PlainHelp)
@friendly
def genus(
    game: Game,
    n: Annotated[int, typer.Option("--n", metavar="N", help="Heaps 0..N-1 (exhaustive misère search; N up to 48).")] = 20,
    as_json: AsJson = False,
) -> None:
    """Conway's genus g^γ of each heap, as Winning Ways prints it, and where tameness ends."""
    from ..misere.genus import genus_sequence
    from ..rules.presets import resolve
    from .report import genus_text

    code, preset = resolve(game)
    gs = genus_sequence(code, n)
    typer.echo(json.dumps(gs.to_dict()) if as_json else genus_text(gs, code, preset))


@app.command(cls=PlainHelp)
@friendly
def misere(
    game: Annotated[Optional[str], typer.Argument(metavar="[GAME]", help="An octal code or a preset name.")] = None,
    max_heap: Annotated[Optional[int], typer.Option("--max-heap", metavar="H", help="Quotient of heaps ≤ H only.")] = None,
    max_order: Annotated[int, typer.Option("--max-order", metavar="N", help="Report 'growing' past this order.")] = D.MISERE_MAX_ORDER,
    max_work: Annotated[int, typer.Option("--max-work", metavar="STEPS", help="Report 'growing' past this much work (steps of verification).")] = D.MISERE_MAX_WORK,
    time_limit: Annotated[Optional[float], typer.Option("--time-limit", metavar="SECONDS", help="Outer cap: stop after this many seconds, reported as 'stopped'.")] = None,
    out: Annotated[Optional[str], typer.Option("--out", metavar="FILE", help="Save the quotient (.json) for solve --quotient.")] = None,
    load: Annotated[Optional[str], typer.Option("--load", metavar="FILE", help="Show a saved quotient instead of computing.")] = None,
    full: Full = False,
    as_json: AsJson = False,
    quiet: Quiet = False,
) -> None:
    """The misère quotient of GAME: |Q|, |P|, presentation, pretending function Φ, tameness, period."""
    from ..misere.quotient import load_or_compute
    from ..rules.presets import resolve
    from .report import quotient_text

    preset = None if game is None else resolve(game)[1]
    line = _progress(quiet or load is not None)
    try:
        q = load_or_compute(game, load, out, max_heap=max_heap, max_order=max_order, max_work=max_work,
                            time_limit=time_limit, progress=line)
    except KeyboardInterrupt as e:
        partial = getattr(e, "partial", None)
        on_interrupt(line, out and partial is not None
                     and f"interrupted at heap {partial.max_heap:,}: saved the quotient so far to {out}")
        raise
    line.close()
    if as_json:
        return _echo_json(q.to_dict())
    typer.echo(quotient_text(q, preset, full))
    if out:
        typer.echo(f"saved      {out}")


@app.command(cls=PlainHelp, context_settings=HEAPS_CONTEXT)
@friendly
def play(
    game: Game,
    heaps: Annotated[list[str], typer.Argument(metavar="HEAP...", help="Heap sizes to start from.")],
    misere: Misere = False,
    first: Annotated[str, typer.Option("--first", metavar="WHO", help="Who moves first: me or engine.")] = "me",
) -> None:
    """Play GAME against the engine in the terminal."""
    from ..rules.presets import resolve
    from .play import play_game

    if first not in ("me", "engine"):
        raise InvalidArgumentError(f"--first must be 'me' or 'engine', not {first!r}")

    def ask(prompt: str) -> str:
        typer.echo(prompt, nl=False)
        line = sys.stdin.readline() if sys.stdin is not None else ""  # no stdin at all reads as its end
        if not line:
            raise EOFError
        return line.rstrip("\n")

    play_game(resolve(game)[0], list(_heap_args(heaps)), misere=misere, engine_first=first == "engine", ask=ask, say=typer.echo)


@app.command(cls=PlainHelp)
@friendly
def graph(
    family: Annotated[Optional[str], typer.Argument(
        metavar="[GRAPH]",
        help="path:N, cycle:N, star:N, complete:N, grid:WxH, clique-path:K:S, interval:N:SEED, unit-interval:N:SEED, permutation:N:SEED, tree:N:SEED, caterpillar:S:L, cograph:N:SEED, petersen or random:N:P:SEED.")] = None,
    edges: Annotated[Optional[str], typer.Option("--edges", metavar="FILE", help="An edge-list file: one 'u v' per line.")] = None,
    graph6: Annotated[Optional[str], typer.Option("--graph6", metavar="STRING", help="A graph6 string.")] = None,
    game: Annotated[str, typer.Option("--game", metavar="GAME", help="node-kayles, clique or partizan (partizan Node Kayles, also spelled partisan: needs --owners).")] = "node-kayles",
    owners: Annotated[Optional[str], typer.Option("--owners", metavar="SPEC", help="Partizan play: who may choose each vertex, L, R or B — a string with one letter per vertex (LRB…), alternate, random:SEED, or column (the edge list's 'v: L' lines).")] = None,
    max_states: Annotated[Optional[int], typer.Option("--max-states", metavar="N", help="Budget of component states for the exact search (default: 8·10⁸ / n² for a prime piece of n > 64 vertices).")] = None,
    as_json: AsJson = False,
    quiet: Quiet = False,
) -> None:
    """Node Kayles, the clique-forming game or partizan Node Kayles on a graph: value, outcome, every winning
    vertex."""
    from ..graphs.games import PARTIZAN, graph_named, play_graph
    from .report import graph_text, partizan_text

    g = graph_named(family, edges, graph6)
    if g.duplicate_edges:
        typer.echo(f"note: {edges} names {g.duplicate_edges:,} edges more than once; each is kept once", err=True)
    line = _progress(quiet, label="states")
    result = play_graph(g, game, owners, max_states, progress=lambda states, budget: line(states, budget, 0))
    line.close()
    label = family or edges or "graph6 " + graph6
    typer.echo(json.dumps(result.to_dict()) if as_json else partizan_text(result, label) if result.game == PARTIZAN
               else graph_text(result, g, label, result.game))


@app.command(cls=PlainHelp)
@friendly
def site(
    games: Annotated[Optional[list[str]], typer.Argument(metavar="[GAME]...", help="Codes or preset names (default: every game of --db).")] = None,
    db: Annotated[str, typer.Option("--db", metavar="FILE", help="Census file to publish when no games are named.")] = D.CENSUS_DB,
    out: Annotated[str, typer.Option("--out", metavar="DIR", help="Folder for index.html and games/.")] = D.SITE_DIR,
    max_n: Annotated[int, typer.Option("--max-n", metavar="N", help="Heaps budget per named game.")] = D.SITE_MAX_N,
    threads: Threads = None,
) -> None:
    """Write a static website of games: a sortable index, a page per game, a board to play (no server needed)."""
    from .site import write_site

    with _in_threads(threads):
        count, index = write_site(out, games=games, db=db, max_n=max_n)
    typer.echo(f"{count:,} games; open {index}")


@app.command(cls=PlainHelp)
@friendly
def show(game: Game) -> None:
    """Print the rules of GAME in words, its digits and what is known about it: its row of octal's tables and the
    published facts octal knows (offline)."""
    from ..rules.presets import resolve
    from ..tables import lookup
    from .show import show_text

    code, preset = resolve(game)
    typer.echo(show_text(code, preset, lookup(str(code))))


@app.command("presets", cls=PlainHelp)
@friendly
def list_presets(as_json: AsJson = False) -> None:
    """List the named games that any command accepts in place of a code."""
    from ..rules.presets import presets
    from .report import presets_doc, presets_text

    rows = list(presets().values())
    typer.echo(json.dumps(presets_doc(rows)) if as_json else presets_text(rows))


def main(argv: list[str] | None = None) -> None:
    """Entry point of the `octal` executable: usage errors become one line on stderr and exit status 2."""
    run_app(app, argv)


if __name__ == "__main__":
    main()

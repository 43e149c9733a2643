"""The partizan commands: `octal game` (one short game in CGSuite's notation) and `octal partizan` (a heap game with a
code per player). Argument handling only; the work is octal.partizan's, the words and pictures report.py's and
partizan_plot.py's."""

from __future__ import annotations

import json
from typing import Annotated, Optional

import typer

from .cli_options import AsJson, Quiet


def short_game(
    expr: Annotated[str, typer.Argument(metavar="EXPR", help="A short game in CGSuite's notation: 3/8, *2, ^*, 3+-1, {3||2*|1*}, Tiny(1), ^<2>, sums with + and -.")],
    cool: Annotated[Optional[str], typer.Option("--cool", metavar="T", help="Also cool the game by the number T ≥ 0 (1/2, 1, …).")] = None,
    heat: Annotated[Optional[str], typer.Option("--heat", metavar="T", help="Also heat the game by the number T.")] = None,
    versus: Annotated[Optional[str], typer.Option("--compare", metavar="H", help="Also compare the game with the game H: <, =, > or || (confused).")] = None,
    plot: Annotated[Optional[str], typer.Option("--plot", metavar="FILE", help="Draw its thermograph: .png, .svg or .pdf (needs matplotlib).")] = None,
    as_json: AsJson = False,
) -> None:
    """A short partizan game: its canonical form, outcome class, birthday, stops, mean, temperature, thermograph,
    atomic weight, reduced canonical form, freeze and incentives."""
    from ..partizan.invariants import game_facts
    from ..partizan.parse import parse_number
    from .partizan_plot import plot_thermograph
    from .plot import check_image_path
    from .report import game_text

    if plot is not None:
        check_image_path(plot)
    facts = game_facts(expr, parse_number(cool, "--cool"), parse_number(heat, "--heat"), versus)
    typer.echo(json.dumps(facts.to_dict()) if as_json else game_text(facts))
    if plot is not None:
        typer.echo(f"saved {plot_thermograph(facts.game, plot)}", err=as_json)


def partizan_heaps(
    left: Annotated[str, typer.Argument(metavar="LEFT", help="Left's code (or preset name): the moves Left may make.")],
    right: Annotated[str, typer.Argument(metavar="RIGHT", help="Right's code (or preset name).")],
    n: Annotated[int, typer.Option("--n", metavar="N", help="Heaps 0..N−1.")] = 40,
    full: Annotated[bool, typer.Option("--full", help="Print every heap, not the first 48.")] = False,
    plot: Annotated[Optional[str], typer.Option("--plot", metavar="FILE", help="Draw the means and temperatures by heap size: .png, .svg or .pdf (needs matplotlib).")] = None,
    as_json: AsJson = False,
    quiet: Quiet = False,
) -> None:
    """A partizan heap game, Left moving by one code and Right by another: each heap's canonical value and outcome
    class, and the regularities of both sequences."""
    from ..partizan.heap_games import partizan_values
    from .partizan_plot import plot_heap_means
    from .plot import check_image_path
    from .progress import ProgressLine
    from .report import partizan_heaps_text

    if plot is not None:
        check_image_path(plot)
    line = ProgressLine.unless(quiet)
    try:
        seq = partizan_values(left, right, n, progress=line)
    finally:
        line.close()
    typer.echo(json.dumps(seq.to_dict()) if as_json else partizan_heaps_text(seq, full))
    if plot is not None:
        typer.echo(f"saved {plot_heap_means(seq, plot)}", err=as_json)

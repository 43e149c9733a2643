"""How the command line ends: an OctalError or a usage error is one line on stderr and exit status 2, Ctrl-C is
status 130 with a note of what was kept; never a traceback."""

from __future__ import annotations

import functools
import sys

import typer

from ..engine import compile_notice
from ..errors import OctalError

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


def fail(message: str, code: int = EXIT_USAGE) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def friendly(command):
    """Turn the API's OctalError into one line on stderr and exit status 2; Ctrl-C into status 130."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except OctalError as exc:
            fail(str(exc))
        except MemoryError:
            fail("out of memory: ask for fewer heaps (--n, --max-n) or a smaller search")
        except OSError as exc:  # a file or folder the user named
            where = f": {exc.filename}" if exc.filename else ""
            fail(f"{exc.strerror or exc}{where}")
        except KeyboardInterrupt:
            typer.echo("interrupted", err=True)
            raise typer.Exit(EXIT_INTERRUPTED) from None

    return wrapper


def on_interrupt(progress, *notes: str | None) -> None:
    """Ctrl-C during a computation: close its progress line and say what the API kept (it saved it already)."""
    progress.close()
    for note in notes:
        if note:
            typer.echo(note, err=True)


def _click_class(name: str) -> type:
    """click's exception class `name`, found through typer (which may vendor its own click)."""
    return next(c for c in typer.BadParameter.__mro__ if c.__name__ == name)


def _usage_text(exc) -> str:
    """click's usage message on one line, with pydantic's wording of a bad number made plain."""
    text = " ".join(exc.format_message().split())
    text = text.replace("Input should be a valid integer, unable to parse string as an integer", "not a whole number")
    text = text.replace("Input should be a valid number, unable to parse string as a number", "not a number")
    return text


def run_app(app: typer.Typer, argv: list[str] | None) -> None:
    """Run the typer app: usage errors become one line on stderr and exit status 2, plain `octal` prints the help."""
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
        path = exc.ctx.command_path if exc.ctx else ""
        where = f" (octal {path.partition(' ')[2]} --help)" if " " in path else ""
        typer.echo(f"error: {_usage_text(exc)}{where}", err=True)
        sys.exit(EXIT_USAGE)
    except click_error as exc:
        typer.echo(f"error: {exc.format_message()}", err=True)
        sys.exit(exc.exit_code or 1)
    except typer.Abort:
        typer.echo("interrupted", err=True)
        sys.exit(EXIT_INTERRUPTED)
    sys.exit(rv if isinstance(rv, int) else 0)

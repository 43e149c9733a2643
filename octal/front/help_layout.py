"""How `octal --help` lays out a command: click's layout with `GAME` and `HEAP...` as metavars, without typer's type
labels (`GAME <str>`, `{HEAP...} <list[str]>`)."""

from __future__ import annotations

import re

from typer.core import TyperCommand, TyperGroup

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

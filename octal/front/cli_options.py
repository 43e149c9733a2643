"""Options several command modules share, typed once."""

from __future__ import annotations

from typing import Annotated

import typer

AsJson = Annotated[bool, typer.Option("--json", help="Print one JSON object.")]
Quiet = Annotated[bool, typer.Option("--quiet", help="No progress line on stderr.")]

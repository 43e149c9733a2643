"""Rich displays in notebooks, registered by type name: a result class inherits `HtmlRepr`, and its `_repr_html_`
asks the front's renderer for its type's name. The front registers its renderers only when a notebook first shows a
result (the package sets the loader), so using a result never imports the front, or anything it needs, early."""

from __future__ import annotations

from typing import Callable

RENDERERS: dict[str, Callable[[object], str]] = {}  # class name → HTML, filled by octal.front.notebook
_loader: list[Callable[[], object]] = []


def set_loader(load: Callable[[], object]) -> None:
    """Called once by the package: how to load the renderers (the front's notebook module registers them)."""
    _loader[:] = [load]


def register(name: str, render: Callable[[object], str]) -> None:
    RENDERERS[name] = render


class HtmlRepr:
    """`_repr_html_` for a result: Jupyter calls it; the text repr stays the class's own short line."""

    def _repr_html_(self) -> str | None:
        if not RENDERERS and _loader:
            _loader[0]()
        render = RENDERERS.get(type(self).__name__)
        return None if render is None else render(self)

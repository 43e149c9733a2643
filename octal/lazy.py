"""Names that load their module on first use (PEP 562), so that a command pays only for what it computes."""

from __future__ import annotations

import importlib
import sys
from typing import Callable


def lazy_names(package: str, where: dict[str, tuple[str, ...]], then: Callable[[], object] | None = None):
    """A module `__getattr__` for `package` that imports where[module] names on first access (then calls `then`)."""
    home = {name: module for module, names in where.items() for name in names}

    def __getattr__(name: str):
        module = home.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module, package), name)
        if then is not None:
            then()
        setattr(sys.modules[package], name, value)  # later lookups skip __getattr__
        return value

    return __getattr__, list(home)

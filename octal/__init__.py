"""octal: nim sequences, periods (proven where the octal periodicity theorem applies) and more for octal games.

    >>> import octal
    >>> r = octal.nim_sequence("kayles", until_proven=True)
    >>> r.periodicity.describe()
    'period 12 from heap 71 (last exception at 70) — proven by the Guy–Smith bound with heaps 0..167'

Names load on first use (PEP 562), so `octal --help` does not pay for numpy and numba; the first name used
also installs the notebook displays (`front.notebook`).
"""

from __future__ import annotations

import importlib

from .errors import (
    DataFileError,
    InvalidArgumentError,
    OctalCodeError,
    OctalError,
    ResourceLimitError,
    UnknownGameError,
)

__version__ = "0.1.0"

_WHERE = {
    ".engine.periodicity": ("Periodicity", "find_period"),
    ".engine.sequence": ("GrundySequence", "NimSequence", "nim_sequence"),
    ".engine.stats": ("sequence_stats",),
    ".engine.stream": ("StreamResult", "nim_stream", "read_frequencies", "read_values"),
    ".front.table": ("format_table",),
    ".graphs": ("graph_from_edges", "graph_from_graph6", "graph_from_networkx", "interval_graph", "named_graph",
                "permutation_graph", "solve_graph"),
    ".io": ("load_values", "save_values"),
    ".misere": ("MisereQuotient", "MisereSearch", "genus_sequence", "misere_quotient"),
    ".positions.position": ("Move", "Solution", "heap_moves"),
    ".positions.solve": ("solve_position",),
    ".rules.code": ("OctalCode", "parse_code"),
    ".rules.presets": ("Preset", "find_preset", "presets", "resolve"),
}
_MODULE = {name: module for module, names in _WHERE.items() for name in names}


def __getattr__(name: str):
    """Import the module that holds `name` on first use (and the notebook displays with it)."""
    module = _MODULE.get(name)
    if module is None:
        raise AttributeError(f"module 'octal' has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    importlib.import_module(".front.notebook", __name__)  # installs _repr_html_ on the result classes
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_MODULE))


__all__ = ["OctalError", "OctalCodeError", "UnknownGameError", "ResourceLimitError", "InvalidArgumentError",
           "DataFileError", *_MODULE]

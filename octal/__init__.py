"""octal: nim sequences, periods (proven where the octal periodicity theorem applies) and more for octal games.

    >>> import octal
    >>> r = octal.nim_sequence("kayles", until_proven=True)
    >>> r.periodicity.describe()
    'period 12 from heap 71 (last exception at 70) — proven by the Guy–Smith bound with heaps 0..167'

Names load on first use (PEP 562), so `octal --help` does not pay for numpy and numba; notebook displays load
when a notebook first shows a result (`displays.py`, by type name).
"""

from __future__ import annotations

import importlib

from .displays import set_loader
from .errors import (
    DataFileError,
    InvalidArgumentError,
    OctalCodeError,
    OctalError,
    ResourceLimitError,
    UnknownGameError,
)
from .lazy import lazy_names
from .version import __version__

_WHERE = {
    ".engine.periodicity": ("Periodicity",),
    ".engine.grundy": ("GrundySequence",),
    ".engine.sequence": ("NimSequence", "find_period", "nim_sequence"),
    ".engine.stats": ("sequence_stats",),
    ".engine.stream": ("StreamResult", "nim_stream", "read_frequencies", "read_values"),
    ".front.table": ("format_table",),
    ".graphs": ("graph_from_edges", "graph_from_graph6", "graph_from_networkx", "interval_graph", "named_graph",
                "parse_owners", "partizan_node_kayles", "partisan_node_kayles", "permutation_graph", "solve_graph"),
    ".io": ("load_values", "save_values"),
    ".misere": ("MisereQuotient", "MisereSearch", "genus_sequence", "misere_quotient"),
    ".positions.position": ("Move", "Solution", "heap_moves"),
    ".solve": ("solve_position",),
    ".tables": ("Lookup", "lookup"),
    ".rules.code": ("OctalCode", "parse_code"),
    ".rules.presets": ("Preset", "find_preset", "presets", "resolve"),
}


# notebook displays: a result's _repr_html_ loads the front's renderers the first time a notebook shows one
set_loader(lambda: importlib.import_module(".front.notebook", __name__))

__getattr__, _NAMES = lazy_names(__name__, _WHERE)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_NAMES))


__all__ = ["__version__", "OctalError", "OctalCodeError", "UnknownGameError", "ResourceLimitError",
           "InvalidArgumentError",
           "DataFileError", *_NAMES]

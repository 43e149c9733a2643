"""octal: nim sequences, periods (proven where the octal periodicity theorem applies) and more for octal games.

    >>> import octal
    >>> r = octal.nim_sequence("kayles", until_proven=True)
    >>> r.periodicity.describe()
    'period 12 from heap 71 (last exception at 70) — proven by the Guy–Smith bound with heaps 0..167'
"""

from .engine.periodicity import Periodicity, find_period
from .engine.sequence import GrundySequence, NimSequence, nim_sequence
from .engine.stats import sequence_stats
from .engine.stream import StreamResult, nim_stream, read_frequencies, read_values
from .errors import (
    DataFileError,
    InvalidArgumentError,
    OctalCodeError,
    OctalError,
    ResourceLimitError,
    UnknownGameError,
)
from .front import notebook as _notebook  # noqa: F401  (installs _repr_html_ on the result classes)
from .front.table import format_table
from .graphs import (
    graph_from_edges,
    graph_from_graph6,
    graph_from_networkx,
    interval_graph,
    named_graph,
    permutation_graph,
    solve_graph,
)
from .io import load_values, save_values
from .misere import MisereQuotient, MisereSearch, genus_sequence, misere_quotient
from .positions.position import Move, Solution, heap_moves
from .positions.solve import solve_position
from .rules.code import OctalCode, parse_code
from .rules.presets import Preset, find_preset, presets, resolve

__version__ = "0.1.0"

__all__ = [
    "OctalCode",
    "parse_code",
    "OctalError",
    "OctalCodeError",
    "UnknownGameError",
    "ResourceLimitError",
    "InvalidArgumentError",
    "DataFileError",
    "GrundySequence",
    "NimSequence",
    "nim_sequence",
    "Periodicity",
    "find_period",
    "Preset",
    "presets",
    "find_preset",
    "resolve",
    "format_table",
    "save_values",
    "load_values",
    "Move",
    "Solution",
    "heap_moves",
    "solve_position",
    "MisereSearch",
    "MisereQuotient",
    "misere_quotient",
    "genus_sequence",
    "named_graph",
    "graph_from_edges",
    "graph_from_graph6",
    "graph_from_networkx",
    "interval_graph",
    "permutation_graph",
    "solve_graph",
    "sequence_stats",
    "nim_stream",
    "StreamResult",
    "read_values",
    "read_frequencies",
]

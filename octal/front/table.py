"""The nim-value table as the literature prints it: rows of 12 labelled 0+, 12+, 24+, …"""

from __future__ import annotations

import numpy as np

from ..engine.periodicity import Periodicity
from ..errors import InvalidArgumentError
from ..validate import value_array, whole_number

DEFAULT_ROWS_SHOWN = 300
MIN_ROWS = 4  # short periods still get a readable table
MAX_ROWS = 100  # and a long preperiod no more than a screenful or so (0.354's 10⁷ heaps were 840,000 lines)
MAX_WIDTH = 1000  # values per row at most: a row is a line of text, and a wider one is no table


def format_table(values: np.ndarray, width: int = 12, start: int = 0) -> str:
    """Rows of `width` values, a header of column offsets, each row labelled with its first heap ('12+')."""
    values = value_array(values)
    width = whole_number(width, "the table width", 1)
    if width > MAX_WIDTH:
        raise InvalidArgumentError(f"the table width must be at most {MAX_WIDTH:,} values a row, not {width:,}")
    start = whole_number(start, "the first heap")
    n = len(values)
    top = int(values.max()) if n else 0
    col = max(3, len(str(max(top, width - 1))) + 1)
    last_label = start + max(n - 1, 0) // width * width
    lab = max(4, len(str(last_label)) + 2)
    lines = [" " * (lab + 2) + "".join(f"{j:>{col}}" for j in range(width))]
    for row in range(0, n, width):
        cells = "".join(f"{int(v):>{col}}" for v in values[row : row + width])
        lines.append(f"{str(start + row) + '+':>{lab}}  {cells}")
    return "\n".join(lines)


def rows_worth_showing(n: int, periodicity: Periodicity, width: int = 12) -> int:
    """How many values a summary table shows: through the preperiod and two periods (at least MIN_ROWS rows, at most
    MAX_ROWS), else a few hundred."""
    if periodicity.period is not None and periodicity.preperiod is not None:
        want = periodicity.preperiod + 2 * periodicity.period
    else:
        want = DEFAULT_ROWS_SHOWN
    want = -(-want // width) * width  # whole rows
    return min(n, max(min(want, MAX_ROWS * width), MIN_ROWS * width))

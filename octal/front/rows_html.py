"""A nim sequence as an HTML table in the literature's rows of 12, for the site and for notebooks."""

from __future__ import annotations

from ..engine.periodicity import exceptions
from ..engine.sequence import NimSequence

SHOWN_VALUES = 1_200  # values printed in rows of 12 (through n0 + p when that is longer, up to ten times as many)


def sequence_table(seq: NimSequence) -> str:
    """The values in the literature's rows of 12 (rows labelled 0+, 12+, …), exceptional values marked."""
    p = seq.periodicity
    through = (p.preperiod or 0) + (p.period or 0)
    shown = min(len(seq.values), max(SHOWN_VALUES, min(through + (-through) % 12, 10 * SHOWN_VALUES)))
    marked = exceptions(seq.values, p)
    exc = set(marked[marked < shown].tolist())
    rows = []
    for start in range(0, shown, 12):
        cells = []
        for n in range(start, min(start + 12, shown)):
            cls = ' class="exc"' if n in exc else ""
            cells.append(f'<td{cls} title="G({n:,})">{int(seq.values[n])}</td>')
        rows.append(f'<tr><th>{start:,}+</th>{"".join(cells)}</tr>')
    head = "".join(f"<th>{i}</th>" for i in range(12))
    note = (f'<p class="note">G(n) for n = 0..{shown - 1:,}; <span class="exc">marked</span> values are exceptions: '
            f"heaps before the period whose value differs from the periodic value of their residue class "
            f"(Winning Ways' convention).</p>" if exc else f'<p class="note">G(n) for n = 0..{shown - 1:,}.</p>')
    return f'<table class="seq"><thead><tr><th></th>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>{note}'

"""Rich displays for notebooks: one HTML renderer per result class, registered by the class's name on import.

The results live below the front and know nothing of HTML; they inherit `displays.HtmlRepr`, whose `_repr_html_`
loads this module the first time a notebook shows one (a sequence in rows of 12 with its verdict, a quotient's
summary with its table folded away, …). Nothing here imports a result class: the renderers read their fields."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

import numpy as np

from ..displays import register
from ..engine.rare import rare_split
from ..engine.sequence import NimSequence
from .rows_html import sequence_table

if TYPE_CHECKING:  # names for the annotations only: nothing below the front is imported for a display
    from ..census import Census
    from ..engine.grundy import GrundySequence
    from ..engine.stats import SequenceStats
    from ..graphs import GraphResult, PartizanResult
    from ..misere.quotient import MisereQuotient
    from ..positions.position import Solution

NOTEBOOK_VALUES = 144  # values shown in a notebook's rows of 12
CENSUS_ROWS = 200


def _box(title: str, rows: list[tuple[str, str]], extra: str = "") -> str:
    body = "".join(f'<tr><th style="text-align:left">{escape(k)}</th><td style="text-align:left">{escape(str(v))}'
                   "</td></tr>" for k, v in rows)
    return f"<div><strong>{escape(title)}</strong><table>{body}</table>{extra}</div>"


def sequence_html(s: NimSequence) -> str:
    """The verdict, then the first values in rows of 12 (exceptions marked)."""
    head = NimSequence(s.code, s.name, s.values[:NOTEBOOK_VALUES], s.periodicity)
    table = sequence_table(head).replace('class="exc"', 'class="exc" style="background:#ffe08a;font-weight:bold"')
    rows = [("verdict", s.periodicity.describe()), ("values", f"{s.n:,} computed, largest {s.max} first at heap "
                                                              f"{s.argmax:,}")]
    return _box(f"{s.code}{f' ({s.name})' if s.name else ''}", rows, table)


def state_html(g: GrundySequence) -> str:
    values = np.asarray(g.values)
    split = rare_split(values, g.code) if len(values) else None
    rows = [("computed", f"{g.n:,} values ({values.dtype})"), ("largest", str(g.max_value)),
            ("rare positions", f"{split.count:,} under mask {split.mask:#x}" if split else "—")]
    return _box(f"GrundySequence {g.code}", rows)


def stats_html(s: SequenceStats) -> str:
    hist = ", ".join(f"{k}: {v:,}" for k, v in sorted(s.histogram.items()))
    rows = [("heaps", f"0..{s.n - 1:,}"), ("mask", f"{s.mask:#x}"),
            ("rare", f"{s.rare_count:,} (last at {s.last_rare})"),
            ("rare values", ", ".join(map(str, s.rare_values[:40]))),
            ("largest", f"{s.max} first at {s.max_first_at:,}"),
            ("how often each value occurs", hist)]
    return _box(f"Stats of {s.code}", rows)


def solution_html(s: Solution) -> str:
    moves = "".join(f"<li>{escape(m.describe())}</li>" for m in s.winning_moves[:50])
    more = " (more not shown)" if s.truncated or len(s.winning_moves) > 50 else ""
    rows = [("play", s.play), ("outcome", s.outcome), ("method", s.method)]
    word = "Winning move" if len(s.winning_moves) == 1 else "Winning moves"
    extra = f"<p>{word}{more}:</p><ol>{moves}</ol>" if moves else "<p>No winning move: every move loses.</p>"
    return _box(f"{s.code} with heaps {' '.join(map(str, s.heaps))}", rows, extra)


def quotient_html(q: MisereQuotient) -> str:
    """Order, P-portion, tameness, period and status; the multiplication table folded away (open it to see it)."""
    rows = [("order |Q|", str(q.order)), ("|P|", str(q.p_portion)), ("tame", "yes" if q.tame else "no"),
            ("heaps", f"0..{q.max_heap:,}"), ("Φ period", f"{q.period} from heap {q.preperiod}" if q.period else "—"),
            ("status", q.status)]
    header = "".join(f"<th>{j}</th>" for j in range(q.order))
    body = "".join(f"<tr><th>{i}</th>" + "".join(f"<td>{int(x)}</td>" for x in row) + "</tr>"
                   for i, row in enumerate(q.mul))
    table = (f"<details><summary>multiplication table ({q.order}×{q.order})</summary><table><tr><th></th>{header}</tr>"
             f"{body}</table></details>")
    return _box(f"Misère quotient of {q.code}", rows, table)


def graph_html(r: GraphResult) -> str:
    a = r.asteroidal
    rows = [("vertices", f"{r.graph.n:,}"), ("edges", f"{r.graph.edges:,}"), ("value", str(r.value)),
            ("outcome", r.outcome), ("winning vertices", " ".join(map(str, r.winning_vertices[:100]))),
            ("method", r.method), ("asteroidal number", "—" if a is None else f"{'' if a.exact else '≥ '}{a.number}")]
    return _box(f"{r.game} on a graph", rows)


def partizan_html(r: PartizanResult) -> str:
    """Outcome class, canonical value (or its size when too long to write) and each side's winning moves."""
    value = r.value_text or ("not built (the sum was searched)" if r.value is None
                             else f"a canonical form of {r.to_dict()['value_form']['subgames']:,} subgames")
    rows = [("vertices", f"{r.graph.n:,}"), ("owners", "".join(r.owners)[:100]), ("outcome", r.outcome),
            ("value", value)]
    rows += [(f"{side} wins by", " ".join(map(str, r.winning_moves[side][:100])) or "—") for side in ("left", "right")]
    return _box("partizan Node Kayles on a graph", rows)


def census_html(c: Census) -> str:
    """The counts, then the table in the literature's columns (the first CENSUS_ROWS codes)."""
    counts = c.counts
    head = ["code", "status", "n0", "p", "largest", "class", "cousin"]
    keys = ["code", "status", "preperiod", "period", "max_value", "class", "cousin"]
    body = "".join("<tr>" + "".join(f"<td>{escape('' if r[k] is None else str(r[k]))}</td>" for k in keys) + "</tr>"
                   for r in c.rows[:CENSUS_ROWS])
    table = f"<table><tr>{''.join(f'<th>{h}</th>' for h in head)}</tr>{body}</table>"
    rows = [("file", str(c.db)), ("codes", f"{len(c.rows):,}"), ("proven", f"{counts['proven']:,}"),
            ("open", f"{counts['open']:,}"), ("distinct games", f"{counts['distinct']:,}")]
    return _box("Census", rows, table)


RENDERERS = {"NimSequence": sequence_html, "GrundySequence": state_html, "SequenceStats": stats_html,
             "Solution": solution_html, "MisereQuotient": quotient_html, "GraphResult": graph_html,
             "Census": census_html, "PartizanResult": partizan_html}

for _name, _render in RENDERERS.items():
    register(_name, _render)

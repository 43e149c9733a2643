"""A static website of computed games: an index to sort and filter, and a page per game with its rules, sequence
(rows of 12, exceptional values marked), verdict and certificate, rare/common split, plot, misère summary and a
board to play against the engine; built from a census file, also one light page of the whole census table. Every page
stands alone: no server, no network, no script from elsewhere."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import tempfile
from collections.abc import Collection
from dataclasses import dataclass
from functools import cached_property
from html import escape
from pathlib import Path

import numpy as np

from ..census import WINDOW, group_games, identity_key, verified_misere_rows, verified_rows
from ..census.report import with_theorem
from ..defaults import CENSUS_DB, SITE_MAX_N
from ..engine.periodicity import APPARENT, PROVEN
from ..engine.rare import RareSplit, rare_split
from ..engine.sequence import NimSequence, nim_sequence
from ..errors import DataFileError
from ..outcomes import GROWING, OPEN
from ..rules.presets import preset_for_code, resolve
from ..validate import whole_number
from .report import regularity_line
from .rows_html import sequence_table
from .site_assets import BOARD_JS, CENSUS_JS, INDEX_JS, STYLE
from .svg import scatter_svg

PLOT_POINTS = 3_000
MAX_SLUG = 120  # characters of a page's file name (file systems allow 255 bytes; ".html" and room to spare)
BOARD_MAX_HEAP = 10_000  # the "leave" list of a heap of h has up to h/2 entries


@dataclass
class SiteGame:
    """One game of the site: its sequence and verdict, the census's class and cousin, a misère row if any, and the
    census row it was read from (without its values: the census page's columns)."""

    sequence: NimSequence
    cls: str | None = None
    cousin: str | None = None
    misere: dict | None = None
    row: dict | None = None

    @property
    def code(self) -> str:
        return str(self.sequence.code)

    @cached_property
    def split(self) -> RareSplit:
        """The rare/common split of the values (index and page both show it)."""
        return rare_split(self.sequence.values, self.sequence.code)

    @property
    def slug(self) -> str:
        """The page's file name, readable: the code as written ('?' as _q, other unsafe characters as _xx), then the
        game's name when it has one (0.77-kayles); shortened with a hash past the file system's limit on names."""
        safe = "".join(c if c.isascii() and (c.isalnum() or c in ".!=-") else "_q" if c == "?" else f"_{ord(c):x}"
                       for c in self.code)
        name = "".join(c if c.isalnum() else "-" for c in (self.sequence.name or "").lower().replace("'", ""))
        safe += f"-{'-'.join(filter(None, name.split('-')))}" if name else ""
        return (safe if len(safe) <= MAX_SLUG
                else f"{safe[:MAX_SLUG - 17]}_{hashlib.sha256(safe.encode()).hexdigest()[:16]}")

    @property
    def status(self) -> str:
        """proven / apparent / open: a period is called proven only when the theorem certified it."""
        s = self.sequence.periodicity.status
        return s if s in (PROVEN, APPARENT) else OPEN

    def __repr__(self) -> str:
        return f"SiteGame({self.code}, {self.status})"


def games_from_db(db: str | Path) -> list[SiteGame]:
    """Every game of a census file, verified row by row; misère rows join when `census --misere` wrote them."""
    path = Path(db)
    if not path.is_file():
        raise DataFileError(f"no census database at {path}: run 'octal census --digits D' first, or name codes")
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.Error as exc:
        raise DataFileError(f"cannot read census database {path}: {exc}") from None
    if "codes" not in tables:
        raise DataFileError(f"{path} holds no census table: run 'octal census --digits D' first")
    misere = {r["code"]: r for r in verified_misere_rows(path)} if "misere" in tables else {}
    games = []
    for row, seq in verified_rows(path):
        preset = preset_for_code(seq.code)
        seq.name = preset.name if preset else None
        games.append(SiteGame(seq, row["class"], row["cousin"], misere.get(row["code"]),
                              {k: v for k, v in with_theorem(row).items() if k != "vals"}))
    return games


def games_from_codes(games: list[str], max_n: int) -> list[SiteGame]:
    """Codes or preset names, each computed until its period is proven (or `max_n` heaps)."""
    out, seen = [], set()
    for game in games:
        code, preset = resolve(game)
        if str(code) in seen:  # 'kayles', '0.77' and '.77' are one game: one page
            continue
        seen.add(str(code))
        out.append(SiteGame(nim_sequence(preset or code, until_proven=True, max_n=max_n)))
    classes, cousins = group_games([_identity(g.sequence) for g in out])
    for g in out:
        g.cls, g.cousin = classes[g.code], cousins.get(g.code)
    return out


def _identity(seq: NimSequence) -> tuple[str, tuple, np.ndarray]:
    """A named game's entry for the census's grouping: its identity and its first values (through the period)."""
    p = seq.periodicity
    if p.status != PROVEN:
        values = seq.values[: 4 * WINDOW].astype(np.int64)
        return str(seq.code), identity_key(OPEN, None, None, values), values
    values = np.array([seq.value(n) for n in range(max(4 * WINDOW, p.preperiod + p.period))], np.int64)
    return (str(seq.code), identity_key(PROVEN, p.preperiod, p.period, values[: p.preperiod + p.period], p.saltus),
            values)


def check_out_dir(out: str | Path) -> Path:
    """The site's folder, created if missing; refused before any computing when it cannot be written."""
    p = Path(out)
    if p.exists() and not p.is_dir():
        raise DataFileError(f"cannot write the site to {p}: it is a file")
    try:
        (p / "games").mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=p)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise DataFileError(f"cannot write the site to {p}: {exc.strerror}") from None
    return p


def _page(title: str, body: str, script: str = "") -> str:
    return (f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" '
            f'content="width=device-width, initial-scale=1"><title>{escape(title)}</title><style>{STYLE}</style>'
            f"</head><body>{body}{f'<script>{script}</script>' if script else ''}</body></html>\n")


def _num(x) -> str:
    return "" if x is None else f"{x:,}"


def _facts(game: SiteGame) -> dict:
    """The index's columns for one game (text, and a sort key)."""
    seq = game.sequence
    p = seq.periodicity
    split = game.split
    m = game.misere or {}
    return {
        "code": game.code, "name": seq.name or "", "status": game.status,
        "preperiod": p.preperiod, "period": p.period, "last exception": p.last_exception,
        "largest": seq.max, "rare": split.count, "mask": f"{split.mask:#x}",
        "same game as": game.cls if game.cls and game.cls != game.code else "", "cousin of": game.cousin or "",
        **({"misère |Q|": _order(m), "misère": m.get("status", "")} if game.misere is not None else {}),
    }


def _order(m: dict):
    """A misère quotient's order; a growing one's is a lower bound, written with '+' (sorted by its number)."""
    q = m.get("q_order")
    return (f"{q:,}+", q) if q is not None and m.get("status") == GROWING else q


def index_html(games: list[SiteGame], census: bool = False) -> str:
    """The index: every game with its verdict, sortable by any column and filterable by text and status (`census`:
    a link to census.html, written beside it)."""
    with_misere = [g for g in games if g.misere is not None]
    cols = list(_facts(with_misere[0] if with_misere else games[0]).keys()) if games else ["code"]
    head = "".join(f'<th data-col="{i}" title="sort">{escape(c)}</th>' for i, c in enumerate(cols))
    body = []
    for g in games:
        f = _facts(g)
        cells = []
        for c in cols:
            v = f.get(c)
            shown, v = v if isinstance(v, tuple) else (None, v)  # (text, sort key) where the text is not the number
            text = escape(shown) if shown else _num(v) if isinstance(v, int) or v is None else escape(str(v))
            if c == "code":
                text = f'<a href="games/{g.slug}.html">{escape(g.code)}</a>'
            key = v if isinstance(v, int) else ("" if v is None else str(v))
            kind = "" if isinstance(v, int) or v is None else ' class="text"'
            cells.append(f'<td{kind} data-sort="{escape(str(key))}">{text}</td>')
        body.append(f'<tr data-status="{g.status}" data-code="{escape(g.code)}">{"".join(cells)}</tr>')
    counts = {s: sum(g.status == s for g in games) for s in (PROVEN, APPARENT, OPEN)}
    intro = (f"<h1>Octal games</h1><p>{len(games):,} games: {counts['proven']:,} proven periodic, "
             f"{counts['apparent']:,} apparently periodic (no theorem proves it), {counts['open']:,} open. "
             "Click a code for its sequence, verdict and a board to play; click a heading to sort. "
             "“Same game as” names the first code with the same nim sequence (for a proven period: the same values "
             "through it, so the same game forever); “cousin of” CODE+s, a game whose values are these shifted by s "
             "heaps.</p>"
             '<p class="controls"><label>Filter <input id="filter" type="search" placeholder="code or name"></label> '
             '<label>Status <select id="status"><option value="all">all</option><option value="proven">proven'
             '</option><option value="apparent">apparent</option><option value="open">open</option></select></label> '
             f'<span id="count">{len(games):,} of {len(games):,} games</span></p>')
    if census:
        intro += '<p><a href="census.html">The census table</a>: every code in one light page, with more filters.</p>'
    table = f'<table id="games" class="sortable"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'
    return _page("Octal games", intro + table, INDEX_JS)


CENSUS_COLUMNS = ["code", "status", "preperiod", "period", "max value", "heaps computed", "proved within",
                  "same game as", "cousin of"]


ARITHMETIC_COLUMNS = ["saltus", "theorem"]  # after "period", on a census page with arithmetic periods (--hex)


def _census_row(game: SiteGame, pages: Collection[str], arithmetic: bool = False) -> str:
    """One census row: its cells, and the data attributes the page's filters read (see CENSUS_JS); `arithmetic`: with
    the saltus and the theorem that proved it."""
    r = game.row
    code = escape(r["code"])
    proven = r["status"] == PROVEN
    same = r["class"] if r["class"] and r["class"] != r["code"] else ""
    attrs = f' data-code="{code}" data-status="{escape(r["status"])}"'
    if proven:  # an open row was not proved within its budget: no "proved within"; its heaps computed tell how far
        attrs += f' data-budget="{r.get("budget") or "none"}" data-period="{r["period"]}"'
    if same:
        attrs += f' data-same="{escape(same)}"'
    link = f'<a href="games/{game.slug}.html">{code}</a>' if game.slug in pages else code
    cells = [link, escape(r["status"]), _num(r["preperiod"]), _num(r["period"]), _num(r["max_value"]), _num(r["n"]),
             _num(r.get("budget")) if proven else "", escape(same), escape(r["cousin"] or "")]
    if arithmetic:
        cells[4:4] = [_num(r.get("saltus")), escape(r.get("theorem") or "")]
    return f"<tr{attrs}><td>{'</td><td>'.join(cells)}</td></tr>"


def census_html(games: list[SiteGame], pages: Collection[str] = ()) -> str:
    """The census page: one row per census row (the games' `row`), filtered and sorted in the page; a code links to
    its game page when `pages` (the slugs written) holds it. Rows only, no values: 8,191 codes stay a few MB."""
    rows = [g.row for g in games]
    counts = {s: sum(r["status"] == s for r in rows) for s in (PROVEN, OPEN)}
    distinct = sum(not r["class"] or r["class"] == r["code"] for r in rows)
    budgets: dict[str, dict] = {PROVEN: {}, OPEN: {}}  # status → budget → codes
    for r in rows:
        budgets[r["status"]][r.get("budget")] = budgets[r["status"]].get(r.get("budget"), 0) + 1

    def by_budget(status: str, word: str) -> str:
        b = budgets[status]
        return ", ".join([f"{word}{k:,} heaps {b[k]:,}" for k in sorted(k for k in b if k is not None)]
                         + ([f"not recorded (an older file) {b[None]:,}"] if None in b else []))

    within = sorted(b for b in budgets[PROVEN] if b is not None)
    summary = (f"{len(rows):,} codes: {counts[PROVEN]:,} proven, {counts[OPEN]:,} open; {distinct:,} distinct games."
               + (" No budgets recorded (an older file)." if all(r.get("budget") is None for r in rows) else
                  (f" Proven codes by budget: {by_budget(PROVEN, 'within ')}." if counts[PROVEN] else "")
                  + (f" Open codes by the last budget they ran to: {by_budget(OPEN, '')}." if counts[OPEN] else "")))
    if any(r.get("saltus") for r in rows):
        summary += " By regularity: " + regularity_line(rows) + "."
    prefixes = sorted({r["code"].split(".")[0] + "." for r in rows})
    option = "<option value=\"{}\">{}</option>".format
    budget_options = ([option(b, f"{b:,} heaps") for b in within]
                      + ([option("none", "not recorded")] if None in budgets[PROVEN] else []))
    intro = ('<p><a href="index.html">← all games</a></p><h1>Census</h1>'
             f'<p id="summary">{summary}</p>'
             "<p>Click a code for its game page, a heading to sort. “Proved within” is the heaps budget of the census "
             "stage that proved the code (blank for open codes: “heaps computed” says how far they went); “same game "
             "as” names the first code with the same nim sequence, “cousin of” CODE+s a game whose values are these "
             "shifted by s heaps.</p>"
             '<p class="controls"><label>Code <input id="filter" type="search" placeholder="code"></label> '
             '<label>Status <select id="status">' + option("all", "all") + option(PROVEN, PROVEN) + option(OPEN, OPEN)
             + '</select></label> <label>Prefix <select id="prefix">' + option("all", "all")
             + "".join(option(escape(x), escape(x)) for x in prefixes)
             + '</select></label> <label>Proved within <select id="budget">' + option("all", "all")
             + "".join(budget_options) + "</select></label> "
             '<label><input id="distinct" type="checkbox"> distinct games only</label> '
             '<label>Period at least <input id="pmin" type="number" min="1"></label> '
             '<label>at most <input id="pmax" type="number" min="1"></label> '
             f'<span id="count">{len(rows):,} of {len(rows):,} codes</span></p>')
    arithmetic = any(r.get("saltus") for r in rows)
    columns = CENSUS_COLUMNS[:4] + ARITHMETIC_COLUMNS + CENSUS_COLUMNS[4:] if arithmetic else CENSUS_COLUMNS
    head = "".join(f'<th data-col="{i}" title="sort">{escape(c)}</th>' for i, c in enumerate(columns))
    body = "\n".join(_census_row(g, pages, arithmetic) for g in games)
    table = f'<table id="census" class="sortable"><thead><tr>{head}</tr></thead><tbody>\n{body}\n</tbody></table>'
    return _page("Census", intro + table, CENSUS_JS)


def playable(seq: NimSequence) -> bool:
    """A board is offered for proven, purely periodic, plain octal codes with finitely many digits."""
    p = seq.periodicity
    c = seq.code
    return p.status == PROVEN and not p.saltus and c.is_plain and c.is_finite and c.max_heaps <= 2


def board_data(seq: NimSequence) -> dict:
    """What the board's script needs: per removal k the heap counts a move may leave, and G through the period."""
    code = seq.code
    p = seq.periodicity
    rules = []
    for k in range(0, int(code.max_take) + 1):
        counts = [c for c, leaves in ((0, ()), (1, (1,)), (2, (1, 2))) if code.allows(k + sum(leaves), k, leaves)]
        if counts:
            rules.append([k, counts])
    return {"code": str(code), "rules": rules, "values": [int(x) for x in seq.values[: p.preperiod + p.period]],
            "n0": p.preperiod, "p": p.period, "max_heap": BOARD_MAX_HEAP}


BOARD_HTML = """<section id="board"><h2>Play against the engine</h2>
<p>Normal play: whoever takes the last move wins. Choose heaps (any sizes up to {max_heap:,}), then move by picking a
heap, how many tokens to take, and what to leave. The engine answers with a winning move whenever one exists.</p>
<p class="controls"><label>Heaps <input id="heaps" value="5 7 9" size="18"></label>
<label><input id="engine-first" type="checkbox"> engine moves first</label> <button id="start">New game</button></p>
<p id="position" data-heaps="">—</p>
<p class="controls"><label>Heap <select id="heap"></select></label> <label>Take <select id="take"></select></label>
<label>Leave <select id="leave"></select></label> <button id="play" disabled>Play</button></p>
<p id="status" data-over="">Press “New game”.</p>
<details><summary>The engine's view</summary><p id="nimsum"></p></details>
<ol id="log"></ol>
<script type="application/json" id="board-data">{data}</script></section>"""


def game_html(game: SiteGame) -> str:
    """One game's page."""
    seq = game.sequence
    p = seq.periodicity
    code = seq.code
    split = game.split
    title = f"{game.code}{f' ({seq.name})' if seq.name else ''}"
    facts = [("status", game.status), ("preperiod n0", _num(p.preperiod)), ("period p", _num(p.period)),
             ("last exception", _num(p.last_exception)),
             ("largest value", f"{seq.max:,} (first at heap {seq.argmax:,})"),
             ("values computed", f"{seq.n:,}"),
             ("same game as", game.cls if game.cls and game.cls != game.code else "— (no other code here)"),
             ("cousin of", game.cousin or "—")]
    rows = "".join(f"<tr><th>{escape(k)}</th><td>{escape(str(v))}</td></tr>" for k, v in facts)
    parts = [f'<p><a href="../index.html">← all games</a></p><h1>{escape(title)}</h1>',
             f'<p class="rules">{escape(code.describe())}</p>', f'<table class="facts">{rows}</table>',
             f'<h2>Verdict</h2><p id="verdict" class="{game.status}">{escape(p.describe())}</p>']
    if p.status == PROVEN:
        parts.append(f"<p>Certificate: the values were computed and found periodic on heaps 0..{p.proof_bound - 1:,}, "
                     "which the periodicity theorem (Guy–Smith) needs for a code of this length: beyond that the "
                     "period holds for every heap.</p>")
    parts.append(f"<h2>Nim sequence</h2>{sequence_table(seq)}")
    shown = split.positions[:60]
    parts.append(f"<h2>Rare and common values</h2><p>Mask {split.mask:#x}: {split.count:,} rare positions among heaps "
                 f"0..{seq.n - 1:,}: heaps whose value has an even number of the mask's bits (so value 0 is rare)"
                 + (f", the count flipped on heaps n with n − {split.k0} odd (the position-parity bit)"
                    if split.e else "")
                 + "; the rest are common."
                 + (f" First rare positions: {', '.join(f'{int(n):,}' for n in shown)}"
                    f"{' …' if split.count > len(shown) else ''}." if split.count else "") + "</p>")
    step = max(1, seq.n // PLOT_POINTS)
    xs = np.arange(0, seq.n, step)
    parts.append(scatter_svg(xs, seq.values[::step], f"{title}: G(n), rare positions in red",
                             split.positions, seq.values[split.positions]))
    if game.misere:
        m = game.misere
        tame = "tame" if m.get("tame") else "wild"
        parts.append(f"<h2>Misère play</h2><p>Quotient {escape(str(m.get('status')))}: |Q| = {_num(m.get('q_order'))}, "
                     f"|P| = {_num(m.get('p_portion'))}, {tame}; heaps 0..{_num(m.get('max_heap'))} settled"
                     + (f"; Φ periodic with period {_num(m.get('period'))} from heap {_num(m.get('preperiod'))}"
                        if m.get("period") else "") + ".</p>")
    script = ""
    if playable(seq):
        data = json.dumps(board_data(seq)).replace("</", "<\\/")
        parts.append(BOARD_HTML.format(max_heap=BOARD_MAX_HEAP, data=data))
        script = BOARD_JS
    else:
        parts.append("<p class=\"note\">No board: play needs a proven, purely periodic plain octal code.</p>")
    return _page(title, "".join(parts), script)


def build_site(games: list[SiteGame], out: str | Path) -> Path:
    """Write index.html and games/<code>.html under `out`, and census.html when the games are a census file's rows;
    returns the index's path."""
    root = check_out_dir(out)
    pages = set()
    for g in games:
        (root / "games" / f"{g.slug}.html").write_text(game_html(g), encoding="utf-8")
        pages.add(g.slug)
    census = bool(games) and all(g.row is not None for g in games)
    if census:
        (root / "census.html").write_text(census_html(games, pages), encoding="utf-8")
    index = root / "index.html"
    index.write_text(index_html(games, census), encoding="utf-8")
    return index


def write_site(out: str | Path, games: list[str] | None = None, db: str | Path = CENSUS_DB,
               max_n: int = SITE_MAX_N) -> tuple[int, Path]:
    """`octal site`: the named games (each computed until proven, or `max_n` heaps) or every game of the census
    file `db`, written under `out` (checked before computing); returns (games written, the index's path)."""
    whole_number(max_n, "--max-n", 1)
    check_out_dir(out)
    found = games_from_codes(games, max_n) if games else games_from_db(db)
    return len(found), build_site(found, out)

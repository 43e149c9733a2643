"""Text forms of results, as the CLI prints them: one function per command, each returning the lines.

The front's only formatting room: cli.py handles arguments and calls these; nothing below the front imports it.
"""

from __future__ import annotations

import numpy as np

from ..defaults import CENSUS_UNTIL_PROVEN
from ..engine.memory import human_bytes
from ..engine.periodicity import PROVEN, exceptions
from ..outcomes import BOUNDED, FINITE, GROWING, LEFT_WINS, NEXT, OPEN, PREVIOUS, RIGHT_WINS, STOPPED
from ..partizan.notation import MAX_TEXT, number_text, subgames, text_length, text_within
from ..rules.code import OctalCode
from ..rules.presets import Preset
from ..tables import TABLE, lookup, table_of
from .show import _name
from .table import format_table, rows_worth_showing

MOVES_SHOWN = 20



COMPARED_WORDS = {"<": "less than", "=": "equal to", ">": "greater than", "||": "confused with (neither ≤ nor ≥)"}
TABLE_TEXT = 160  # characters of a heap's value in the table; a longer one is described (its size, its birthday)


def described(g, limit: int = MAX_TEXT) -> str:
    """A canonical game as CGSuite writes it, or, when that would pass `limit` characters, its size described."""
    return text_within(g, limit) or (f"(a form of {subgames(g):,} subgames born on day {g.birthday}, "
                                     f"{text_length(g):,} characters written out: --json gives it)")


def run_text(result, width: int, full: bool, out: str | None) -> str:
    """`octal run`: the table (the useful rows unless `full`), then code, heaps, largest value and verdict."""
    shown = result.n if full else rows_worth_showing(result.n, result.periodicity, width)
    lines = [format_table(result.values[:shown], width)]
    if shown < result.n:
        lines.append(f"(heaps 0..{shown - 1} shown of {result.n:,}; --full prints all)")
    name = f" ({result.name})" if result.name else ""
    lines += ["", f"code     {result.code}{name}", f"heaps    0..{result.n - 1:,} (N = {result.n:,})",
              f"largest  {result.max:,}, first at heap {result.argmax:,}", f"verdict  {result.periodicity.describe()}"]
    exc = exceptions(result.values, result.periodicity)  # an array: only the count and the first few are written
    if len(exc):
        lines.append(f"exceptions ({len(exc):,}, heaps whose value is not their residue class's periodic value): "
                     f"{listed(exc)}")
    if out:
        lines.append(f"saved    {out}")
    return "\n".join(lines)


def stream_text(result) -> str:
    """`octal run --stream`: code, heaps, largest value, verdict, rare/common summary, memory and files."""
    name = f" ({result.name})" if result.name else ""
    rare = (f"{result.rare:,} rare positions, the last at heap {result.last_rare:,}" if result.last_rare is not None
            else "no rare positions")
    parity = " with the position-parity bit" if result.e else ""
    stored = ("stored in values/ (read them with octal.read_values)" if result.stored
              else "not stored (--store-values keeps them)")
    last = result.records[-1]["n"] if result.records else None
    lines = [f"code     {result.code}{name}",
             f"heaps    0..{result.n - 1:,} (N = {result.n:,}) in stream mode, window {result.window:,} heaps",
             f"largest  {result.max:,}",
             f"verdict  {result.periodicity.describe()}",
             f"split    mask {result.mask:#x}{parity}: {rare}",
             f"memory   {human_bytes(result.memory_bytes)} of values and counts held",
             f"folder   {result.directory}: checkpoint, frequencies.json"
             + (f" (counts over heaps 1..2^k up to 2^{last.bit_length() - 1:,})" if last else ""),
             f"values   {stored}",
             f"counts   {result.counts_from}"]
    return "\n".join(lines)


def stats_text(st, name: str | None) -> str:
    """`octal stats`: mask, rare positions and values, histogram."""
    label = f" ({name})" if name else ""
    lines = [f"code           {st.code}{label}, heaps 0..{st.n - 1:,}",
             f"largest value  {st.max:,}, first at heap {st.max_first_at:,}",
             f"mask           {st.mask:#x}" + (" with the position-parity bit" if st.parity_bit else ""),
             f"rare positions {st.rare_count:,} (counting heap 0), last at heap {st.last_rare:,}"
             if st.last_rare is not None else "rare positions 0",
             f"rare values    {' '.join(f'{v:,}' for v in st.rare_values[:40])}"
             + (" …" if len(st.rare_values) > 40 else ""),
             "histogram      value:count"]
    cells = [f"{v:>6,}:{c:<8,}" for v, c in st.histogram.items()]
    lines += ["  " + "".join(cells[i : i + 8]).rstrip() for i in range(0, len(cells), 8)]
    return "\n".join(lines)


def solve_text(sol, code: OctalCode, preset: Preset | None, misere: bool, normal: str | None) -> str:
    """`octal solve`: values and nim-sum (or the method), the outcome, every winning move or the best try."""
    lines = [f"{code}{_name(preset)}, heaps {' '.join(f'{h:,}' for h in sol.heaps)}, "
             f"{'misère' if misere else 'normal'} play"]
    if sol.values:
        vals = " ".join(f"G({h:,})={v:,}" for h, v in zip(sol.heaps, sol.values))
        nimsum = 0
        for v in sol.values:
            nimsum ^= v
        lines.append(f"values   {vals}, nim-sum {nimsum:,}")
    else:
        lines.append(f"method   {sol.method}")
        if normal is not None:
            kind = {(PREVIOUS, NEXT): "PN", (NEXT, PREVIOUS): "NP"}.get((normal, sol.outcome))
            lines.append(f"normal   {normal} in normal play" + (
                f": {'an' if kind == 'NP' else 'a'} {kind} position, where the two conventions disagree"
                if kind else ": the same outcome"))
    if sol.outcome == NEXT and not sol.winning_moves:
        lines.append("outcome  N: the player to move has no move, so the opponent moved last and lost")
    elif sol.outcome == NEXT:
        lines.append("outcome  N: the player to move wins")
        lines.append(f"winning moves ({len(sol.winning_moves)}{'+, list cut short' if sol.truncated else ''}):")
        lines += [f"  {mv.describe()}" for mv in sol.winning_moves[:MOVES_SHOWN]]
        if len(sol.winning_moves) > MOVES_SHOWN:
            lines.append(f"  … and {len(sol.winning_moves) - MOVES_SHOWN} more (--json lists them all)")
    else:
        lines.append("outcome  P: the player to move loses — every move loses against perfect play")
        if sol.best_try is not None:
            lines.append(f"best try {sol.best_try.describe()}")
    return "\n".join(lines)


def genus_text(gs, code: OctalCode, preset: Preset | None) -> str:
    """`octal genus`: g^γ of each heap, six to a row, and where tameness ends."""
    n = len(gs)
    wild = [g.heap for g in gs if not g.tame]
    lines = [f"{code}{_name(preset)}: genus of heaps 0..{n - 1}"]
    for row in range(0, n, 6):
        lines.append("  " + "".join(f"{str(g.heap) + ':':>5}{str(g):<10}" for g in gs[row : row + 6]).rstrip())
    if wild:
        lines.append(f"tame (the genus of a misère Nim position) up to heap {wild[0] - 1}; "
                     f"heap {wild[0]} is the first wild one "
                     f"(wild heaps: {', '.join(map(str, wild[:20]))}{' …' if len(wild) > 20 else ''})")
    else:
        lines.append(f"every heap up to {n - 1} has the genus of a misère Nim position (tame)")
    return "\n".join(lines)


def quotient_text(q, preset: Preset | None, full: bool) -> str:
    """`octal misere`: order, tameness, presentation, P-portion, Φ in rows of 12, period, changes, status."""
    pres = q.presentation
    tame = {True: "yes (the quotient of nim heaps of the same order)", False: "no (wild)", None: "not checked"}
    gens = ", ".join(f"{letter} = Φ({h})" for letter, h in zip(pres.letters, pres.heaps))
    lines = [f"{q.code}{_name(preset)}: misère quotient of heaps 0..{q.max_heap:,}",
             f"order      |Q| = {q.order:,}, |P| = {q.p_portion:,}",
             f"tame       {tame[q.tame]}",
             f"generators {gens or 'none: every heap is the game 0'}"]
    rels = pres.relation_texts()
    for i in range(0, len(rels), 8):
        lines.append(("relations  " if i == 0 else "           ") + ", ".join(rels[i:i + 8]))
    lines.append(f"P-portion  {', '.join(pres.name(x) for x in np.flatnonzero(q.p))}")
    shown = q.max_heap + 1
    if q.proven and not full:
        shown = min(shown, -(-(q.preperiod + 2 * q.period) // 12) * 12)
    names = [pres.name(int(x)) for x in q.phi[:shown]]
    width = max(len(s) for s in names) + 1
    lines.append("Φ(n), rows of 12:")
    for row in range(0, shown, 12):
        lines.append(f"{str(row) + '+':>6} " + "".join(f"{s:>{width}}" for s in names[row:row + 12]))
    if shown <= q.max_heap:
        lines.append(f"(heaps 0..{shown - 1:,} shown of {q.max_heap + 1:,}; --full prints all)")
    if q.proven:
        lines.append(f"period     Φ(n + {q.period:,}) = Φ(n) for n ≥ {q.preperiod:,}: proven, checked through heap "
                     f"{q.max_heap:,} (the Guy–Smith bound applied to Φ)")
    last = q.changes[-1] if q.changes else None
    lines.append(f"changes    a new generator at heaps {', '.join(map(str, q.changes)) or 'none'}"
                 + (f"; last at heap {last}" if last is not None else ""))
    why = f": {q.reason}" if q.status in (GROWING, STOPPED) and q.reason else ""
    how = (f"read from {q.source} and verified against the rules on heaps 0..{q.max_heap:,}" if q.source
           else f"{q.work:,} steps of work, {q.seconds:.2f} s")
    lines.append(f"status     {q.status}{why} ({how})")
    return "\n".join(lines)


def _count(k: int, one: str, many: str | None = None) -> str:
    """'1 edge', '2 edges', '1,000 vertices'."""
    return f"{k:,} {one if k == 1 else many or one + 's'}"


def listed(items, shown: int = MOVES_SHOWN) -> str:
    """A long list the one way every command writes it: the first `shown`, then '… and N more (--json lists them
    all)'."""
    head = " ".join(str(x) for x in items[:shown])  # only these are written out (an exception list may hold 10⁷)
    return head if len(items) <= shown else f"{head} … and {len(items) - shown:,} more (--json lists them all)"


OUTCOME_WORDS = {
    LEFT_WINS: "L: Left wins whoever starts (the value is > 0)",
    RIGHT_WINS: "R: Right wins whoever starts (the value is < 0)",
    NEXT: "N: the first player wins (the value is confused with 0)",
    PREVIOUS: "P: the second player wins (the value is 0)",
}


def partizan_text(result, label: str) -> str:
    """`octal graph --game partizan`: outcome class, canonical value, each side's winning first moves."""
    g = result.graph
    # vertices numbered 0..n−1 take the owners in order; named ones (an edge list) are shown name by name
    owners = " ".join(f"{v}:{o}" for v, o in zip(g.labels, result.owners)) if g.labels else "".join(result.owners)
    lines = [f"partizan Node Kayles on {label}: {_count(g.n, 'vertex', 'vertices')}, {_count(g.edges, 'edge')}, owners "
             f"{owners if len(owners) <= 60 else owners[:60] + '…'}",
             f"outcome  {OUTCOME_WORDS[result.outcome]}"]
    if result.value is None:
        lines.append("value    not built: the sum of the components' forms grew past its budget of work, so the "
                     "outcome and the moves come from a search of the sum")
    elif result.value_text is not None:
        lines.append(f"value    {result.value_text}")
    else:
        form = result.to_dict()["value_form"]
        lines.append(f"value    a canonical form of {form['subgames']:,} subgames, born on day {form['birthday']}; "
                     f"written out it would take {form['characters']:,} characters, so --json gives it as "
                     f"{len(form['definitions']):,} shared definitions (value_form)")
    facts = result.facts
    if facts is not None:
        n = number_text
        weight = described(facts.atomic_weight) if facts.atomic_weight is not None else "none"
        lines.append(f"value's  stops {n(facts.left_stop)} and {n(facts.right_stop)}, mean {n(facts.mean)}, "
                     f"temperature {n(facts.temperature)}, atomic weight {weight}, birthday {facts.birthday}")
    for side in ("left", "right"):
        moves = result.winning_moves[side]
        who = side.capitalize()
        lines.append(f"{who + ' first':<8} " + (f"wins by choosing ({len(moves)}): {listed(moves)}" if moves
                                                 else "has no winning move"))
    lines.append(f"search   {_count(result.states, 'component state')}; {_count(result.components, 'component')} "
                 f"added as {result.method}"
                 + (f" ({result.sum_positions:,} positions of the sum)" if result.sum_positions else ""))
    return "\n".join(lines)


def graph_text(result, graph, label: str, game: str) -> str:
    """`octal graph`: value, outcome, winning vertices, states searched."""
    lines = [f"{game} on {label}: {_count(graph.n, 'vertex', 'vertices')}, {_count(graph.edges, 'edge')}",
             f"value    {result.value}"]
    if result.outcome == NEXT:
        lines.append("outcome  N: the player to move wins")
        lines.append(f"winning vertices ({len(result.winning_vertices):,}): {listed(result.winning_vertices)}")
    else:
        lines.append("outcome  P: the player to move loses — every vertex loses against perfect play")
    a = result.asteroidal
    if a is not None:
        witness = ", ".join(map(str, result.labels))
        if a.number <= 2 and a.exact:
            lines.append(f"asteroidal number {a.number}: AT-free, where Node Kayles is polynomial (O(n³) on "
                         "cocomparability graphs, Bodlaender–Kratsch)")
        elif a.exact:
            lines.append(f"asteroidal number {a.number}: {witness} is an asteroidal set and none of {a.number + 1} "
                         "exists; Node Kayles is polynomial for each bounded asteroidal number (Bodlaender–Kratsch)")
        else:
            lines.append(f"asteroidal number ≥ {a.number}: {witness} is an asteroidal set")
    methods = {
        "permutation": f"{result.states:,} boxes of the permutation model (O(n³), Node Kayles on permutation graphs)",
        "interval": f"{result.states:,} windows of the interval model (O(n³), Node Kayles on interval graphs)",
        "shape": "none: after merging twins the graph is paths and cycles, solved by Dawson's Chess (0.137)",
        "cotree": "none: unions and joins (options of a join are its parts' options) down to single vertices, "
                  "paths and cycles",
        "search": f"{result.states:,} component states" + (
            f", on prime pieces of up to {result.largest_search:,} vertices after merging twins and splitting unions "
            "and joins" if result.largest_search else ""),
    }
    how = methods.get(result.method, f"{result.states:,} states")
    if result.game == "clique":  # solved as Node Kayles on the complement: say so, or the line reads oddly
        how += " — on the complement graph: the clique-forming game on G is Node Kayles on the complement of G"
    lines.append(f"search   {how}")
    return "\n".join(lines)


def census_text(rows: list[dict], db: str) -> str:
    """`octal census`: how many codes, proven, open and distinct games, and where the results are."""
    opened = sum(r["status"] == OPEN for r in rows)
    classes = len({r["class"] for r in rows})
    text = (f"{len(rows):,} codes: {len(rows) - opened:,} proven, {opened:,} open, {classes:,} distinct games; "
            f"results in {db} (octal census report)")
    if any(r.get("saltus") for r in rows):
        text += "\n" + regularity_line(rows)
    by = budget_counts(rows)
    if len(by) > 1:
        text += "\nproven within " + " · ".join(f"{b:,} heaps: {k:,}" for b, k in by.items())
    further = proven_further(rows)
    if further:
        shown = ", ".join(f"{c} ({b:,} heaps)" for c, b in further[:12]) + (" …" if len(further) > 12 else "")
        text += (f"\nopen here, proven with more heaps in octal's 4-digit table: {shown}; a --max-n of that many "
                 f"heaps proves them (--until-proven: {CENSUS_UNTIL_PROVEN:,})")
    return text


def regularity_line(rows: list[dict]) -> str:
    """The codes by regularity: periodic (proven), arithmetic-periodic (proven or apparent), neither found."""
    counts = regularity_counts(rows)
    return " · ".join(f"{k}: {v:,}" for k, v in counts.items())


def regularity_counts(rows: list[dict]) -> dict[str, int]:
    """How many rows are periodic (proven), arithmetic-periodic proven, arithmetic-periodic apparent, or neither."""
    kinds = {"periodic (proven)": 0, "arithmetic-periodic (proven)": 0, "arithmetic-periodic (apparent)": 0,
             "no regularity found": 0}
    for r in rows:
        if r["status"] == PROVEN:
            kinds["arithmetic-periodic (proven)" if r.get("saltus") else "periodic (proven)"] += 1
        else:
            kinds["arithmetic-periodic (apparent)" if r.get("saltus") else "no regularity found"] += 1
    return kinds


def proven_further(rows: list[dict]) -> list[tuple[str, int]]:
    """(code, heaps its proof needs) of the open rows that the shipped table proves: open only for want of heaps."""
    out = []
    for r in rows:
        if r["status"] == OPEN and table_of(r["code"])[0] == TABLE:
            found = lookup(r["code"])
            if found.row is not None and found.row["status"] == PROVEN:
                out.append((r["code"], found.row["proof_bound"]))
    return out


def budget_counts(rows: list[dict]) -> dict[int, int]:
    """How many codes each stage's heaps budget proved (escalation: 2¹², 2¹⁶, …), in order of budget."""
    found: dict[int, int] = {}
    for r in rows:
        if r["status"] == PROVEN and r.get("budget"):
            found[r["budget"]] = found.get(r["budget"], 0) + 1
    return dict(sorted(found.items()))


def misere_census_text(rows: list[dict], db: str) -> str:
    """`octal census --misere`: how many codes are finite, bounded, growing, and where the results are."""
    counts = {s: sum(r["status"] == s for r in rows) for s in (FINITE, BOUNDED, GROWING)}
    tame = sum(bool(r["tame"]) for r in rows)
    return (f"{len(rows):,} codes: {counts[FINITE]:,} finite, {counts[BOUNDED]:,} bounded, {counts[GROWING]:,} growing "
            f"({tame:,} tame); results in {db} (octal census report --misere)")


def presets_text(rows: list[Preset]) -> str:
    """`octal presets`: one line per preset with what is known of its period."""
    lines = []
    for p in rows:
        f = p.facts
        kind = (f"arithmetic period {f['period']}, saltus {f['saltus']}" if f.get("saltus")
                else f"period {f.get('period')}")
        known = f"{kind}, preperiod {f['preperiod']}" if "period" in f else f.get("status", "")
        lines.append(f"{p.key:<18} {str(p.code):<8} {p.name:<26} {known}")
    return "\n".join(lines)


def presets_doc(rows: list[Preset]) -> dict:
    """`octal presets --json`: name, code, aliases, facts (and family, misère facts) per preset key.

    `facts` keeps the misère facts under their first names (misere_order, …) for scripts written before the
    separate `misere` table."""
    return {p.key: {"name": p.name, "code": str(p.code), "aliases": list(p.aliases),
                    "facts": {**{k: v for k, v in p.facts.items() if k != "values"},
                              **{f"misere_{k}": v for k, v in p.misere.items()}},
                    "family": p.family, "misere": dict(p.misere)} for p in rows}


def game_text(facts) -> str:
    """`octal game EXPR`: the canonical form and the invariants, one per line; the thermograph's walls as the points
    where their slope changes (temperature t from −1, x the value), then the mast."""
    n = number_text
    th = facts.thermograph

    def wall(w) -> str:
        return ", ".join(f"{n(x)} at t = {n(t)}" for t, x in w.points)

    if th.temperature > -1:
        thermo = f"left wall {wall(th.left)}; right wall {wall(th.right)}; then the mast"
    else:
        thermo = f"the mast {n(th.mean)} from t = -1"
    weight = described(facts.atomic_weight) if facts.atomic_weight is not None else "none: " + facts.no_atomic_weight
    rows = [("game", described(facts.game)), ("outcome", OUTCOME_WORDS[facts.outcome]),
            ("birthday", str(facts.birthday)),
            ("stops", f"{n(facts.left_stop)} with Left first, {n(facts.right_stop)} with Right first"),
            ("mean", n(facts.mean)), ("temperature", n(facts.temperature)), ("thermograph", thermo),
            ("atomic weight", weight), ("reduced", described(facts.reduced)), ("freeze", described(facts.freeze)),
            ("incentives", "not computed: they would take more than the budget of steps" if facts.incentives is None
             else ", ".join(described(x) for x in facts.incentives) or "none (no moves)")]
    rows += [(word, f"by {n(t)}: {described(x)}") for word, done in (("cooled", facts.cooled), ("heated", facts.heated))
             if done is not None for t, x in [done]]  # the amount with the value: a long one widens no column
    if facts.compared is not None:
        other, relation = facts.compared
        rows.append(("compared", f"{COMPARED_WORDS[relation]} {described(other)}"))
    width = max(15, *(len(label) + 2 for label, _ in rows))
    lines = [f"{label:<{width}}{value}" for label, value in rows]
    return "\n".join(lines)


def partizan_heaps_text(seq, full: bool = False) -> str:
    """`octal partizan LEFT RIGHT`: each heap's canonical value and outcome class (the first 48 unless `full`), then
    the regularities of both sequences."""
    shown = seq.n if full else min(seq.n, 48)
    texts = [described(g, TABLE_TEXT) for g in seq.values[:shown]]
    lines = [f"partizan heap game: Left moves by {seq.left}, Right by {seq.right}", f"{'heap':>6}  outcome  value"]
    lines += [f"{h:>6}  {seq.outcomes[h]:<7}  {texts[h]}" for h in range(shown)]  # a long value widens no column
    if shown < seq.n:
        lines.append(f"(heaps 0..{shown - 1} shown of {seq.n:,}; --full prints all)")
    op, vp = seq.outcome_period, seq.value_period
    lines.append(f"outcomes  {op.describe() if op else 'no period seen in the heaps computed'}")
    lines.append(f"values    {vp.describe() if vp else 'no period or arithmetic period seen in the heaps computed'}")
    return "\n".join(lines)

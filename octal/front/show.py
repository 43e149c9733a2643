"""`octal show`: a game's rules in words, its code's shape, the preset's facts and what octal's shipped tables and
the published facts say of it. No numpy here: `octal show` answers well under half a second."""

from __future__ import annotations

from ..outcomes import PROVEN
from ..rules.code import OctalCode
from ..rules.presets import Preset
from ..tables import Lookup


def _name(preset: Preset | None) -> str:
    return f" ({preset.name})" if preset else ""


def show_text(code: OctalCode, preset: Preset | None, found: Lookup | None = None) -> str:
    """`octal show`: the rules in words, the code's shape, the preset's facts (normal, then misère), and what the
    shipped tables and the published facts octal knows say of the code (`found`, from octal.tables.lookup)."""
    heaps = code.max_heaps
    lines = [code.describe(), "", f"code       {code}{_name(preset)}",
             f"max take   {code.max_take if code.is_finite else '∞ (repeating tail)'}",
             f"max heaps  {'any number' if heaps == float('inf') else heaps} ({code.tier} kernels)"]
    if not code.is_plain:
        lines.append("proof      none: a constraint or an open count puts the code outside the periodicity theorem")
    if preset:
        if preset.rules:
            lines.append(f"rules      {preset.rules}")
        if preset.history:
            lines.append(f"history    {preset.history}")
        if preset.family:
            lines.append(f"family     {preset.family}")
        lines += [f"{_fact_label(key):<10} {value}" for key, value in preset.facts.items() if key != "values"]
        misere = [(f"misère {_fact_label(key)}", value) for key, value in preset.misere.items()]
        width = max((len(k) for k, _ in misere), default=0)
        lines += [f"{key:<{width}}  {value}" for key, value in misere]
    if found is not None:
        lines += lookup_lines(found)
    return "\n".join(lines)


NUMBERS = {3: "three", 4: "four"}


def lookup_lines(found: Lookup) -> list[str]:
    """A code's row of a shipped table and its published facts, one line each."""
    r = found.row
    if r is None:
        lines = ["table      in no table octal ships (octal's tables: every octal code of up to 4 digits, every "
                 "hexadecimal code of up to 3)"]
    else:
        lines = [f"table      {r['code']} in the {found.table}, to {r['n']:,} heaps"]
        if r["status"] == PROVEN and r.get("saltus"):
            lines.append(f"census     proven: arithmetic period {r['period']:,}, saltus {r['saltus']:,}, preperiod "
                         f"{r['preperiod']:,} (power-of-two saltus theorem: heaps 0..{r['proof_bound'] - 1:,})")
        elif r["status"] == PROVEN:
            lines.append(f"census     proven: period {r['period']:,}, preperiod {r['preperiod']:,}, largest value "
                         f"{r['max_value']:,} (Guy–Smith bound: heaps 0..{r['proof_bound'] - 1:,})")
        elif r.get("saltus"):
            lines.append(f"census     open: apparent arithmetic period {r['period']:,}, saltus {r['saltus']:,}, "
                         f"preperiod {r['preperiod']:,}, no theorem proves it ({r['n']:,} heaps)")
        elif found.digits == 3:
            lines.append(f"census     open: no regularity found to {r['n']:,} heaps (largest value {r['max_value']:,})")
        else:
            lines.append(f"census     open: no period proven to {r['n']:,} heaps (largest value {r['max_value']:,})")
        same = "" if r["class"] == r["code"] else f"same game as {r['class']}; "
        first = f"first met at {NUMBERS[found.digits]} digits" if found.first_at_four else "a game of fewer digits"
        lines.append(f"class      {same}{first}")
        if r["cousin"]:
            code, _, shift = r["cousin"].partition("+")
            heaps = f"{shift} heap{'s' * (shift != '1')}"
            lines.append(f"cousin     first cousin of {code}: the same values shifted by {heaps}")
    for f in found.facts:
        lines.append(f"published  {fact_text(f)}")
    return lines


def fact_text(f: dict) -> str:
    """One published fact in words (the rows of data/published.csv)."""
    src = f["source"]
    kind = f["kind"]
    if kind == "oeis":
        return f"OEIS {src}"
    if kind in ("period", "period-of-equal"):
        of = " (of the game it equals)" if kind == "period-of-equal" else ""
        return f"period {int(f['period']):,}, preperiod {int(f['preperiod']):,}{of} — {src}"
    if kind == "equal":
        shift = int(f["shift"] or 0)
        moved = f" (shifted {shift} heap{'s' * (shift > 1)})" if shift else ""
        return f"the same game as {f['other']}{moved} — {src}"
    return f"nim-values from heap {kind[-1]} — {src}"

FACT_LABELS = {"p_portion": "|P|", "order": "order |Q|", "oeis": "OEIS", "oeis_shift": "OEIS offset",
               "sparse_mask": "sparse mask", "preperiod": "preperiod", "misere_status": "misère status"}


def _fact_label(key: str) -> str:
    """A preset's fact key as words: 'p_portion' → '|P|', 'sparse_mask' → 'sparse mask'."""
    return FACT_LABELS.get(key, key.replace("_", " "))

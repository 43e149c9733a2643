"""The numbers docs/census-4digit.md quotes, from the published table: counts by status and by budget, distinct
games, the longest periods and preperiods, the open codes whose values grow fastest, and codes equal to a shorter one.

    python data/census_summary.py [data/census-4digit.csv]
"""

from __future__ import annotations

import csv
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent


def load(path: Path) -> list[dict]:
    with path.open() as f:
        return [{k: (int(v) if v.lstrip("-").isdigit() and k not in ("code", "class", "cousin") else v or None)
                 for k, v in r.items()} for r in csv.DictReader(f)]


def shorter(code: str) -> bool:
    """Whether a code ends in 0: it is the game of the code without that digit."""
    return code.endswith("0")


def main() -> None:
    rows = load(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE / "census-4digit.csv")
    proven = [r for r in rows if r["status"] == "proven"]
    opened = [r for r in rows if r["status"] == "open"]
    print(f"codes {len(rows):,}: proven {len(proven):,}, open {len(opened):,}, "
          f"distinct games {len({r['class'] for r in rows}):,}")
    for prefix in ("0.", "4."):
        part = [r for r in rows if r["code"].startswith(prefix)]
        print(f"  {prefix}dddd: {len(part):,} codes, proven {sum(r['status'] == 'proven' for r in part):,}")
    by_budget = sorted(Counter(r["budget"] for r in proven).items())
    print("proven within:", ", ".join(f"{b:,} heaps: {k:,}" for b, k in by_budget))
    by_n = sorted(Counter(r["n"] for r in opened).items())
    print("open, heaps computed:", ", ".join(f"{n:,}: {k:,}" for n, k in by_n))
    reps = [r for r in proven if r["class"] == r["code"]]
    print("\nlongest periods (one code per game):")
    for r in sorted(reps, key=lambda r: -r["period"])[:10]:
        print(f"  {r['code']}  period {r['period']:,}  preperiod {r['preperiod']:,}  max {r['max_value']}")
    print("\nlongest preperiods (one code per game):")
    for r in sorted(reps, key=lambda r: -r["preperiod"])[:10]:
        print(f"  {r['code']}  preperiod {r['preperiod']:,}  period {r['period']:,}  bound {r['proof_bound']:,}")
    print("\nopen games whose values grow fastest (largest value at 2^16 heaps, one code per game):")
    for r in sorted([r for r in opened if r["class"] == r["code"]], key=lambda r: -r["max_value"])[:10]:
        print(f"  {r['code']}  max {r['max_value']:,} at {r['n']:,} heaps")
    print("\nperiod lengths, proven games:", ", ".join(
        f"{p}: {k}" for p, k in Counter(r["period"] for r in reps).most_common(12)))
    members: dict[str, list[str]] = {}
    for r in rows:
        members.setdefault(r["class"], []).append(r["code"])
    short = {cls for cls, codes in members.items() if any(map(shorter, codes))}  # a game with a shorter code
    new = [r for r in rows if r["class"] == r["code"] and r["class"] not in short]
    print(f"\ngames first met at 4 digits (no code of theirs ends in 0): {len(new):,}, "
          f"proven {sum(r['status'] == 'proven' for r in new):,}")
    tied = [r for r in rows if not shorter(r["code"]) and r["class"] in short]
    print(f"4-digit codes (last digit ≠ 0) equal to a shorter code: {len(tied):,}")
    cousins = [r for r in rows if r["cousin"]]
    print(f"first cousins: {len(cousins):,}")


if __name__ == "__main__":
    main()

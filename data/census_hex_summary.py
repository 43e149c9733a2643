"""The counts and lists of docs/census-hex.md, from data/census-hex.csv alone (standard library only).

    python data/census_hex_summary.py
"""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

TABLE = Path(__file__).with_name("census-hex.csv")


def regularity(row: dict) -> str:
    """periodic, arithmetic (proven), arithmetic (apparent) or neither, as docs/census-hex.md counts them."""
    if row["status"] == "proven":
        return "arithmetic-periodic, proven" if int(row["saltus"]) else "periodic, proven"
    return "arithmetic-periodic, apparent" if row["saltus"] else "no regularity found"


def distinct(rows: list[dict]) -> list[dict]:
    """One row per game: the first code of each class, in code order."""
    return [r for r in rows if r["class"] in ("", r["code"])]


def main() -> None:
    rows = list(csv.DictReader(TABLE.open(encoding="utf-8")))
    games = distinct(rows)
    print(f"{len(rows):,} codes, {len(games):,} distinct games\n")
    print("| regularity | codes | distinct games |\n|---|---|---|")
    by_code, by_game = Counter(map(regularity, rows)), Counter(map(regularity, games))
    for kind in ("periodic, proven", "arithmetic-periodic, proven", "arithmetic-periodic, apparent",
                 "no regularity found"):
        print(f"| {kind} | {by_code[kind]:,} | {by_game[kind]:,} |")
    budgets = Counter(int(r["budget"]) for r in rows if r["status"] == "proven")
    print("\nproven within: " + ", ".join(f"{b:,} heaps: {k:,}" for b, k in sorted(budgets.items())))
    arith = [r for r in games if r["saltus"] and int(r["saltus"])]
    for title, key in (("longest arithmetic periods", lambda r: (-int(r["period"]), r["code"])),
                       ("largest saltuses", lambda r: (-int(r["saltus"]), r["code"])),
                       ("latest starts", lambda r: (-int(r["preperiod"]), r["code"]))):
        print(f"\n{title} (one code per game):\n")
        print("| code | status | period | saltus | preperiod |\n|---|---|---|---|---|")
        for r in sorted(arith, key=key)[:8]:
            print(f"| {r['code']} | {r['status']} | {int(r['period']):,} | {int(r['saltus']):,} | "
                  f"{int(r['preperiod']):,} |")
    plain = [r for r in games if r["status"] == "proven" and not int(r["saltus"])]
    print("\nlongest periods (saltus 0): " + ", ".join(
        f"{r['code']} ({int(r['period']):,} from {int(r['preperiod']):,})"
        for r in sorted(plain, key=lambda r: (-int(r["period"]), r["code"]))[:8]))
    saltuses = Counter(int(r["saltus"]) for r in rows if r["saltus"] and int(r["saltus"]))
    print("\nsaltus of the arithmetic-periodic codes: " + ", ".join(f"{s}: {k:,}" for s, k in sorted(saltuses.items())))
    apparent = [r for r in rows if regularity(r) == "arithmetic-periodic, apparent"]
    print("\napparent, not proven: " + ", ".join(
        f"{r['code']} (p {r['period']}, s {r['saltus']}, n0 {r['preperiod']})" for r in apparent))
    neither = [r["code"] for r in games if regularity(r) == "no regularity found"]
    print(f"\nno regularity found ({len(neither):,} games): " + ", ".join(neither))


if __name__ == "__main__":
    main()

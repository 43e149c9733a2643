"""The apparent partial arithmetic periods of docs/census-hex.md: every open row of a hexadecimal census file whose
stored values follow G(n + p) = G(n) + s on every residue mod p but one or two (octal.engine.partial), one line per
code. Unlike census_hex_summary.py it reads the census file (values are not in the CSV) and uses octal.

    python data/census_hex_partial.py census-hex.sqlite
"""

from __future__ import annotations

import sys

from octal.census import CensusDB, stored_sequence
from octal.engine.partial import find_partial


def main(db: str) -> None:
    print("| code | class | heaps | period | saltus | from heap | residues apart |\n|---|---|---|---|---|---|---|")
    for r in CensusDB.read(db, "octal census --hex --digits 3"):
        if r["status"] == "open" and not r.get("saltus"):
            found = find_partial(stored_sequence(r).values)
            if found:
                print(f"| {r['code']} | {r['class']} | {r['n']:,} | {found.period} | {found.saltus} | "
                      f"{found.preperiod:,} | {', '.join(map(str, found.off))} |")


if __name__ == "__main__":
    main(sys.argv[1])
